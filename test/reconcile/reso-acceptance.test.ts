import { afterEach, describe, expect, it } from 'vitest';
import { clientFromConfig } from '../../src/api/index.ts';
import { createMemoryBudget } from '../../src/budget/index.ts';
import type { Config, FeedConfig } from '../../src/config/schema.ts';
import { ingestFeed } from '../../src/ingest/index.ts';
import { silentLogger } from '../../src/logger.ts';
import { type RunReport, saveRun, syncFeed } from '../../src/reconcile/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { manualClock, type ResoProvider, startResoProvider } from '../../src/sandbox/reso/index.ts';
import { createMemoryStateStore, type StateStore } from '../../src/state/state-store.ts';
import { makeConfig } from './fixtures.ts';

/**
 * Issue 20's acceptance: feed-sync against the servers that play each provider from its published
 * documentation (src/sandbox/reso, written without reading feed-sync's client), the platform played
 * by the sandbox. The servers suspend a key that goes over its limits; no test may see that.
 */
let sandbox: Sandbox | undefined;
let provider: ResoProvider | undefined;
afterEach(async () => {
  await sandbox?.close();
  await provider?.close();
  sandbox = undefined;
  provider = undefined;
});

const T0 = Date.parse('2024-06-01T00:00:00Z');
const HOUR = 3_600_000;

type Name = 'mlsgrid' | 'trestle' | 'bridge' | 'spark';

function feedOf(
  p: ResoProvider,
  name: Name,
  reso: Record<string, unknown>,
  id = 'mls',
  token = 'sandbox-token',
) {
  const auth =
    name === 'trestle'
      ? {
          type: 'oauth2',
          tokenUrl: p.tokenUrl,
          clientId: 'sandbox-client',
          clientSecret: 'sandbox-secret',
          scope: 'api',
        }
      : { type: 'bearer', token };
  return {
    id,
    key: 'MLSNumber',
    source: {
      format: 'reso',
      url: p.apiUrl,
      auth,
      retries: 0,
      reso: {
        provider: name,
        mode: 'incremental',
        ...(name === 'mlsgrid' ? { originatingSystem: 'actris' } : {}),
        ...reso,
      },
    },
    // The generated listings carry no ListingURL (RESO has none): the feed says where they are.
    mapping: { preset: 'reso', fields: { Url: { template: 'https://homes.example/{ListingId}' } } },
  } as const;
}

interface Setup {
  config: Config;
  feed: FeedConfig;
  state: StateStore;
  sync(at?: number): Promise<RunReport>;
  /** Runs until a run does not go on at once (the worker's and the CLI's loop). */
  syncAll(at?: number): Promise<RunReport[]>;
  platformKeys(): string[];
}

async function setUp(
  p: ResoProvider,
  name: Name,
  reso: Record<string, unknown>,
  token?: string,
): Promise<Setup> {
  sandbox = await startSandbox({ latencyMs: 0 });
  const config = makeConfig([feedOf(p, name, reso, 'mls', token) as never], {
    baseUrl: sandbox.url,
    pageSize: 1000,
    concurrency: 8,
  });
  const feed = config.feeds[0]!;
  const state = createMemoryStateStore();
  const client = clientFromConfig(config);
  const box = sandbox;
  const sync = async (at?: number) => {
    const result = await syncFeed(config, feed, {
      client,
      state,
      logger: silentLogger,
      ...(at === undefined ? {} : { now: () => new Date(at), budgetClock: () => new Date(at) }),
    });
    await saveRun(state, result);
    return result.report;
  };
  return {
    config,
    feed,
    state,
    sync,
    async syncAll(at) {
      const reports = [await sync(at)];
      while (reports.at(-1)?.continues) reports.push(await sync(at));
      return reports;
    },
    platformKeys: () => box.listings('SN-1').map((l) => l.MLSNumber),
  };
}

/** Every answer the provider gave: no 429, no suspension, no e-mail about one. */
function assertNeverOverLimits(p: ResoProvider) {
  expect(p.requests().filter((r) => r.status === 429)).toEqual([]);
  expect(p.snapshot().suspended).toEqual({});
}

const control = (p: ResoProvider, path: string, body: unknown) =>
  fetch(`${p.url}/__reso/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('MLS Grid, as its server plays it', () => {
  it('a first import of 20,000 in parts under the published limits, then modified, tied, MlgCanView false and closed records', {
    timeout: 240_000,
  }, async () => {
    provider = await startResoProvider({ provider: 'mlsgrid', listings: 20_000 });
    const s = await setUp(provider, 'mlsgrid', {});
    const parts = await s.syncAll();
    expect(parts.map((r) => r.outcome)).toEqual(['ok', 'ok']);
    const read = parts.reduce((n, r) => n + r.read, 0);
    const rejected = parts.reduce((n, r) => n + r.rejected, 0);
    expect(read).toBe(20_000);
    const keys = s.platformKeys();
    expect(keys).toHaveLength(20_000 - rejected);
    expect(new Set(keys).size).toBe(keys.length);
    expect(parts[1]?.source).toMatch(
      /full read: .* 20,000 records in 2 runs, complete; key sweep: 20,000 keys/,
    );
    assertNeverOverLimits(provider);

    // A day later: prices, one instant shared by six listings, two deleted (MlgCanView false), two closed.
    const onPlatform = new Set(keys);
    const p = provider;
    const listed = p.keys(0, 60).filter((k) => onPlatform.has(String(p.record(k)?.ListingId)));
    const [a, b, c, d, e, f, g, h, i, j] = listed;
    provider.modify([a!, b!], { fields: { ListPrice: 123_456 } });
    provider.bump([c!, d!, e!, f!, g!, h!], new Date().toISOString());
    provider.markDeleted([i!]);
    await control(provider, 'listings/close', { keys: [j!] });
    const next = await s.sync();
    expect(next).toMatchObject({ outcome: 'ok', mode: 'incremental', created: 0, deleted: 1 });
    // Two prices and a close are written; the six bumped without a change are not.
    expect(next.updated).toBe(3);
    const again = await s.sync();
    expect(again.apiCalls.create + again.apiCalls.update + again.apiCalls.delete).toBe(0);
    assertNeverOverLimits(provider);
  });

  it('a budget that runs out mid-run pauses before the request over it, and the next run goes on there', async () => {
    const clock = manualClock(T0);
    // The server's clock stands still unless moved, so its per-second window is left out; feed-sync
    // still holds 2/s on real time.
    provider = await startResoProvider({
      provider: 'mlsgrid',
      listings: 3000,
      clock,
      limits: { second: null, hour: 4 },
    });
    const s = await setUp(provider, 'mlsgrid', { top: 500, limits: { perHour: 4 } });
    const first = await s.sync(T0);
    expect(first).toMatchObject({ outcome: 'paused', deleted: 0 });
    expect(first.read).toBe(2000);
    expect(first.resumesAt).toBe(new Date(T0 + HOUR + 61_000).toISOString());
    assertNeverOverLimits(provider);
    clock.advance(HOUR + 61_000);
    const parts = await s.syncAll(T0 + HOUR + 61_000);
    expect(parts.reduce((n, r) => n + r.read, 0)).toBe(1000);
    const keys = s.platformKeys();
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(3000 - first.rejected - parts.reduce((n, r) => n + r.rejected, 0));
    assertNeverOverLimits(provider);
  });
  it('never downloads more than the bytes an hour allows: it pauses before the answer that could cross them', async () => {
    const clock = manualClock(T0);
    // One page of 500 listings, measured on a server without a byte limit. A key of its own: the
    // process remembers the largest answer per key across runs.
    const token = 'bytes-token';
    provider = await startResoProvider({
      provider: 'mlsgrid',
      token,
      listings: 3000,
      clock,
      limits: { second: null },
    });
    const pilot = await setUp(provider, 'mlsgrid', { top: 500, recordsPerRun: 500 }, token);
    // Hours before: its requests leave the process's budget windows before the run below.
    await pilot.sync(T0 - 3 * HOUR);
    const page = Math.max(...provider.requests().map((r) => r.bytes));
    await sandbox?.close();
    await provider.close();
    // 4.5 pages an hour: three answers at the largest size, one kept in reserve.
    const bytesPerHour = Math.floor(page * 4.5);
    provider = await startResoProvider({
      provider: 'mlsgrid',
      token,
      listings: 3000,
      clock,
      limits: { second: null, bytesPerHour },
    });
    const s = await setUp(provider, 'mlsgrid', { top: 500, limits: { bytesPerHour } }, token);
    const first = await s.sync(T0);
    expect(first).toMatchObject({ outcome: 'paused', deleted: 0 });
    expect(first.reason).toMatch(/per-hour byte budget is spent until/);
    const served = provider.requests().filter((r) => r.status === 200);
    expect(served.length).toBe(3);
    expect(served.reduce((n, r) => n + r.bytes, 0)).toBeLessThanOrEqual(bytesPerHour);
    assertNeverOverLimits(provider);
    // Three pages an hour: the rest arrives over the next hours, each run going on where the last paused.
    const runs = [first];
    for (let hour = 1; runs.at(-1)!.outcome === 'paused' && hour <= 4; hour++) {
      clock.advance(HOUR + 61_000);
      runs.push(...(await s.syncAll(clock.now())));
    }
    expect(runs.map((r) => r.outcome)).toEqual(['paused', 'paused', 'ok']);
    const keys = s.platformKeys();
    expect(new Set(keys).size).toBe(keys.length);
    expect(runs.reduce((n, r) => n + r.read, 0)).toBe(3000);
    expect(keys.length).toBe(3000 - runs.reduce((n, r) => n + r.rejected, 0));
    assertNeverOverLimits(provider);
  });
});

describe('Trestle, as its server plays it', () => {
  it('replicates with replication=true and goes on from the last page whenever a replication link has expired', async () => {
    // Every link idles longer than this: each is refused, and the read goes on from its place.
    provider = await startResoProvider({ provider: 'trestle', listings: 3000, replicationIdleMs: 1 });
    const s = await setUp(provider, 'trestle', { recordsPerRun: 0 });
    const [report] = await s.syncAll();
    expect(report).toMatchObject({ outcome: 'ok', mode: 'full', read: 3000 });
    const keys = s.platformKeys();
    expect(new Set(keys).size).toBe(3000 - report!.rejected);
    expect(provider.requests().filter((r) => r.status === 404).length).toBeGreaterThan(0);
    assertNeverOverLimits(provider);
  });
});

describe('Bridge and Spark, as their servers play them', () => {
  it('Bridge: pages by maxpagesize past its $skip ceiling, under its hourly and burst limits', async () => {
    provider = await startResoProvider({ provider: 'bridge', listings: 10_500 });
    const feed = makeConfig([feedOf(provider, 'bridge', { recordsPerRun: 0 }) as never]).feeds[0]!;
    const result = await ingestFeed(feed, { state: {}, budget: createMemoryBudget() });
    expect(result.stats.records).toBe(10_500);
    expect(result.mode).toBe('full');
    const listed = result.stats.valid + result.stats.rejected;
    expect(listed).toBe(10_500);
    expect(provider.requests().filter((r) => r.status === 400)).toHaveLength(1);
    assertNeverOverLimits(provider);
  });

  it('Spark: a read in parts goes on from its $skiptoken link', async () => {
    provider = await startResoProvider({ provider: 'spark', listings: 2500 });
    const feed = makeConfig([feedOf(provider, 'spark', { recordsPerRun: 1000 }) as never]).feeds[0]!;
    const budget = createMemoryBudget();
    let state = {};
    const seen: string[] = [];
    for (let part = 0; part < 5; part++) {
      const result = await ingestFeed(feed, { state, budget });
      seen.push(...result.listings.map((l) => l.MLSNumber), ...result.rejections.map((r) => r.key ?? ''));
      state = { ...state, ...result.sourceState };
      if (!result.continues) break;
    }
    expect(seen).toHaveLength(2500);
    expect(new Set(seen).size).toBe(2500);
    const resumed = provider.requests().filter((r) => r.url.includes('skiptoken'));
    expect(resumed.length).toBeGreaterThan(0);
    assertNeverOverLimits(provider);
  });
});
