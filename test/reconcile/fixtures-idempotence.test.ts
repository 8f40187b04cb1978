import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FeedConfig } from '../../src/config/schema.ts';
import { ingestFeed } from '../../src/ingest/index.ts';
import { DEFAULT_HASH_KEY, ownerOf } from '../../src/reconcile/index.ts';
import { FIXTURE_FEED_IDS, fixtureFeed } from '../helpers/fixture-feeds.ts';
import { type Harness, startHarness, writes } from './harness.ts';

/** Every feed of fixtures/feeds/feed-sync.yaml, and the tab-separated one read with preset mls-csv too. */
const FIXTURE_FEEDS: [name: string, feed: FeedConfig][] = [
  ...FIXTURE_FEED_IDS.map((id): [string, FeedConfig] => [id, fixtureFeed(id)]),
  [
    'tab-inferred (preset mls-csv)',
    fixtureFeed('tab-inferred', {
      mapping: { preset: 'mls-csv', fields: { Url: { template: 'https://acme.example/listing/{MLS#}' } } },
    }),
  ],
];

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * The acceptance test of the issue: a second run over the same feed makes zero write calls, for
 * every preset's fixture, read by the real ingestion, written to the sandbox over HTTP and read back
 * through the list operation's quirks (numbers as strings, `For Sale`, `LATITUDE`, Images as one
 * string in either format, ExtensionColumn as JSON, money in cents, coordinates to 6 decimals).
 */
describe.each(['comma', 'json'] as const)('every fixture feed, Images as %s', (imagesFormat) => {
  it.each(FIXTURE_FEEDS)('%s: the second run writes nothing', async (_, fixture) => {
    h = await startHarness([fixture], { latencyMs: 0, imagesFormat }, { pageSize: 2 });
    const feed = h.feed(fixture.id);
    const ingest = () => ingestFeed(feed, { state: {}, forceFull: true });
    const { listings } = await ingest();
    expect(listings.length).toBeGreaterThan(0);

    const first = await h.sync(feed);
    expect(first.failed).toEqual([]);
    expect(first).toMatchObject({ outcome: 'ok', created: listings.length, deleted: 0 });

    h.sandbox.resetStats();
    const second = await h.sync(feed);
    expect(second).toMatchObject({ outcome: 'ok', unchanged: listings.length, created: 0, updated: 0 });
    expect(writes(second)).toBe(0);
    // Exactly the list calls the page count requires (PageSize 2: several pages even for small feeds),
    // and one empty page past a full last one (a VirtualCount low by whole pages loses no listing).
    const pages = Math.ceil(listings.length / 2) + (listings.length % 2 === 0 ? 1 : 0);
    expect(h.sandbox.stats().requests).toMatchObject({ list: pages, create: 0, update: 0, delete: 0 });
  });
});

/** The preset feeds whose listings carry the facts of issue 21 (agents, open houses, pools, pets…). */
const FACT_FEEDS = [
  'blm-lettings',
  'blm-overseas',
  'reaxml-crm-variants',
  'openimmo-portal',
  'kyero-crm-variants',
  'listhub-details',
  'zillow-details',
  'reso-land-facts',
];

describe('preset facts on the platform', () => {
  it.each(FACT_FEEDS)(
    '%s: every fact arrives beside the owner and hash tags, and a changed fact is one update',
    async (id) => {
      const fixture = fixtureFeed(id);
      h = await startHarness([fixture], { latencyMs: 0 }, { pageSize: 3 });
      const feed = h.feed(fixture.id);
      const ingest = () => ingestFeed(feed, { state: {}, forceFull: true });
      const { listings } = await ingest();
      const first = await h.sync(feed);
      expect(first).toMatchObject({ outcome: 'ok', created: listings.length });
      const tags = { ownerKey: h.config.ownerKey, hashKey: DEFAULT_HASH_KEY };
      const stored = new Map(h.sandbox.listings(fixture.chatbot).map((l) => [l.MLSNumber, l]));
      for (const listing of listings) {
        const remote = stored.get(listing.MLSNumber);
        expect(ownerOf(remote ?? {}, tags)).toBe(fixture.id);
        // Every fact as the preset made it, plus exactly one owner tag and one hash tag.
        expect(remote?.ExtensionColumn).toEqual(
          expect.arrayContaining([
            ...(listing.ExtensionColumn ?? []),
            { Key: tags.ownerKey, value: fixture.id },
            { Key: tags.hashKey, value: expect.any(String) },
          ]),
        );
        expect(remote?.ExtensionColumn).toHaveLength((listing.ExtensionColumn?.length ?? 0) + 2);
      }
      const withFacts = listings.filter((l) => (l.ExtensionColumn?.length ?? 0) > 0);
      expect(withFacts.length).toBeGreaterThan(0);

      // The same feed again: nothing written.
      h.sandbox.resetStats();
      expect(writes(await h.sync(feed))).toBe(0);

      // One fact of one listing differs (someone edited the agent's phone on the platform): exactly
      // one update puts the feed's back, then quiet.
      const target = withFacts[0]!.MLSNumber;
      const edited = h.sandbox.listings(fixture.chatbot).find((l) => l.MLSNumber === target)!;
      const { ID, SerialNumber, ...rest } = edited;
      const [entry, ...others] = edited.ExtensionColumn as { Key: string; value: string }[];
      await h.client.updateListing({
        ...rest,
        ExtensionColumn: [{ ...entry!, value: `${entry!.value} (changed)` }, ...others],
        SerialNumber,
        Key: String(ID),
        KeyType: 'NewOaks',
      } as Parameters<typeof h.client.updateListing>[0]);
      const third = await h.sync(feed);
      expect(third).toMatchObject({ outcome: 'ok', updated: 1, created: 0, deleted: 0 });
      expect(third.changes?.[0]?.fields?.[0]).toMatchObject({ field: `ExtensionColumn[${entry!.Key}]` });
      expect(writes(await h.sync(feed))).toBe(0);
    },
  );
});

/**
 * A photo URL with a comma (or `;`) in it comes back from a platform that joins Images with commas
 * as two URLs: the run compares Images as the platform reads them back (`platformImages`), so the
 * second run writes nothing, where it rewrote the listing on every run (a new user's trial).
 */
describe.each(['comma', 'json'] as const)(
  'photo URLs with separators in them, Images as %s',
  (imagesFormat) => {
    it('the second and third runs write nothing; a changed photo is still an update', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'feed-sync-comma-urls-'));
      const csv = (photo: string) =>
        'MLS #,Status,Type,List Price,Beds,Baths Full,Baths Half,Sq Ft,Lot Acres,Year Built,DOM,Garage,Address,City,State,Zip,Remarks,Photos,Agent,Agent\n' +
        `C-1,Active,Condo,"$100,000",2,1,0,900,0.1,2001,3,1,1 Main St,Springfield,IL,62701,Nice,"${photo}|https://img.example/c1/b.jpg",Pat,Lee\n` +
        'C-2,Active,Condo,"$200,000",3,2,0,1200,0.2,2002,4,1,2 Main St,Springfield,IL,62701,Fine,https://img.example/c2/a;v=2.jpg,Pat,Lee\n';
      const path = join(dir, 'comma.csv');
      writeFileSync(path, csv('https://img.example/c1/a,w_640.jpg'));
      try {
        const fixture = fixtureFeed('acme', { id: 'commas', source: { path, csv: { skipRows: 0 } } });
        h = await startHarness([fixture], { latencyMs: 0, imagesFormat }, { pageSize: 10 });
        const feed = h.feed('commas');
        expect(await h.sync(feed)).toMatchObject({ outcome: 'ok', created: 2 });
        for (const _ of [2, 3]) {
          const again = await h.sync(feed);
          expect(again).toMatchObject({ outcome: 'ok', unchanged: 2, created: 0, updated: 0 });
          expect(writes(again)).toBe(0);
        }
        writeFileSync(path, csv('https://img.example/c1/a,w_1280.jpg'));
        expect(await h.sync(feed)).toMatchObject({ outcome: 'ok', updated: 1, unchanged: 1 });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
