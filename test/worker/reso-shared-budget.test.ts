import { afterEach, describe, expect, it } from 'vitest';
import { ingestFeed } from '../../src/ingest/index.ts';
import { openQueueStore } from '../../src/queue/open-store.ts';
import { type ResoProvider, startResoProvider } from '../../src/sandbox/reso/index.ts';
import { budgetKeyOf } from '../../src/sources/formats/reso/budget-key.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';
import { type ODataServer, resoRecord, startOData } from '../helpers/reso-odata.ts';
import { BACKENDS } from './backends.ts';

/**
 * Two worker processes, each with its own connection to the store, read two feeds on one MLS Grid
 * token at once: their requests count against the one budget of the token, and together they never
 * send more than it allows.
 */
const cleanups: Array<() => Promise<void>> = [];
let odata: ODataServer | undefined;
let provider: ResoProvider | undefined;
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await odata?.close();
  await provider?.close();
  provider = undefined;
});

const T0 = new Date('2024-05-02T00:00:00Z');

describe.each(BACKENDS.filter((b) => b.shared))('one key, two workers on $name', (backend) => {
  it.skipIf(!backend.available)('share the hourly budget of the key', async () => {
    const data = Array.from({ length: 40 }, (_, i) =>
      resoRecord(i + 1, {
        City: i % 2 ? 'Austin' : 'Round Rock',
        ModificationTimestamp: `2024-04-01T00:00:${String(i).padStart(2, '0')}Z`,
      }),
    );
    odata = await startOData({ dataset: () => data });
    const { store: choice, prefix, cleanup } = await backend.fresh();
    cleanups.push(cleanup);
    const workers = [];
    for (let i = 0; i < 2; i++) {
      const store = await openQueueStore(choice, prefix);
      cleanups.push(() => store.close());
      workers.push(store.state.budgets!);
    }
    const feed = (city: string) =>
      fixtureFeed('reso', {
        id: `mls-${city.replace(/\W/g, '').toLowerCase()}`,
        source: {
          path: undefined,
          url: `${odata!.url}/odata`,
          auth: { type: 'bearer', token: 'one-token' },
          retries: 0,
          reso: {
            provider: 'mlsgrid',
            originatingSystem: 'actris',
            top: 2,
            filter: `City eq '${city}'`,
            limits: { perSecond: 20, perHour: 7 },
          },
        },
      });
    const [a, b] = await Promise.all([
      ingestFeed(feed('Austin'), { state: {}, now: () => T0, budget: workers[0]! }),
      ingestFeed(feed('Round Rock'), { state: {}, now: () => T0, budget: workers[1]! }),
    ]);
    // 20 records each at 2 a page: 10 pages each, 20 in all; the key allows 7 an hour.
    expect(odata.queries).toHaveLength(7);
    expect(a.stats.records + b.stats.records).toBe(14);
    expect(a.pause?.resumesAt).toBeDefined();
    expect(b.pause?.resumesAt).toBeDefined();
    const key = budgetKeyOf({ url: odata.url, auth: { type: 'bearer', token: 'one-token' } });
    expect((await workers[1]!.usage(key, T0.getTime())).hour).toBe(7);
  });

  it.skipIf(!backend.available)(
    'against the server that plays MLS Grid: two workers on one token stay under its hourly limit, never suspended',
    async () => {
      provider = await startResoProvider({ provider: 'mlsgrid', listings: 4000, limits: { hour: 6 } });
      const { store: choice, prefix, cleanup } = await backend.fresh();
      cleanups.push(cleanup);
      const budgets = [];
      for (let i = 0; i < 2; i++) {
        const store = await openQueueStore(choice, prefix);
        cleanups.push(() => store.close());
        budgets.push(store.state.budgets!);
      }
      const feed = (id: string, filter: string) =>
        fixtureFeed('reso', {
          id,
          source: {
            path: undefined,
            url: provider!.apiUrl,
            auth: { type: 'bearer', token: 'sandbox-token' },
            retries: 0,
            reso: {
              provider: 'mlsgrid',
              originatingSystem: 'actris',
              top: 500,
              filter,
              limits: { perHour: 6 },
            },
          },
          mapping: { preset: 'reso', fields: { Url: { template: 'https://homes.example/{ListingId}' } } },
        });
      const [a, b] = await Promise.all([
        ingestFeed(feed('homes', "PropertyType eq 'Residential'"), { state: {}, budget: budgets[0]! }),
        ingestFeed(feed('others', "PropertyType ne 'Residential'"), { state: {}, budget: budgets[1]! }),
      ]);
      expect(provider.requests()).toHaveLength(6);
      expect(provider.requests().filter((r) => r.status !== 200)).toEqual([]);
      expect(provider.snapshot().suspended).toEqual({});
      expect([a.pause, b.pause].filter(Boolean).length).toBeGreaterThan(0);
    },
  );
});
