import { afterEach, describe, expect, it } from 'vitest';
import { withTags } from '../../src/reconcile/index.ts';
import { renderReport } from '../../src/render/index.ts';
import { FeedError } from '../../src/sources/feed-error.ts';
import { listing, listings } from '../../src/testing/listing.ts';
import { recordsFeed } from '../../src/testing/records-feed.ts';
import { type Harness, startHarness, writes } from './harness.ts';

const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('syncFeed against the sandbox', () => {
  it('creates everything, then a second run writes nothing and reads only the pages it needs', async () => {
    h = await startHarness([{}], {}, { pageSize: 50 });
    const feed = h.feed();
    const first = await h.sync(feed, listings(1, 120));
    expect(first).toMatchObject({ outcome: 'ok', created: 120, updated: 0, deleted: 0, failed: [] });
    // Each create counted once, sent as the run's store kept its record (`createListingJson`).
    expect(first.apiCalls).toMatchObject({ create: 120, update: 0, delete: 0 });
    expect(h.keys()).toEqual(listings(1, 120).map((l) => l.MLSNumber));
    h.sandbox.resetStats();
    const second = await h.sync(feed, listings(1, 120));
    expect(second).toMatchObject({ outcome: 'ok', created: 0, updated: 0, deleted: 0, unchanged: 120 });
    expect(second.apiCalls).toMatchObject({ list: 3, create: 0, update: 0, delete: 0 });
    expect(h.sandbox.stats().requests).toMatchObject({ list: 3, create: 0, update: 0, delete: 0 });
    expect((await h.state.getFeed('feed1')).lastReport).toEqual(second);
    // Each update counted once too, sent as the store kept its record (`updateListingJson`).
    const third = await h.sync(
      feed,
      listings(1, 120).map((l, i) => (i < 7 ? { ...l, SalePrice: 1 } : l)),
    );
    expect(third).toMatchObject({ outcome: 'ok', created: 0, updated: 7, unchanged: 113 });
    expect(third.apiCalls).toMatchObject({ create: 0, update: 7, delete: 0 });
    expect(h.sandbox.listings('SN-1').filter((l) => l.SalePrice === 1)).toHaveLength(7);
  });

  it('says where its time went: the feed, the pages left after it, the plan and the writes', async () => {
    h = await startHarness([{}], {}, { pageSize: 50 });
    // A clock that moves a second each time it is read: each phase reads it once as it ends.
    let at = 0;
    const elapsed = () => (at += 1000);
    const first = await h.sync(h.feed(), listings(1, 120), {}, { elapsed });
    expect(first).toMatchObject({ created: 120 });
    expect(first.phases).toEqual({ feedMs: 1000, pagesMs: 1000, planMs: 1000, writesMs: 1000 });
    // The run's duration on the same clock (a run at a clock of the user's holds \`now\` still).
    expect(first.durationMs).toBe(7000);
    expect(renderReport(first)).toContain('  time: feed 1.0 s, pages 1.0 s, plan 1.0 s, writes 1.0 s');
    // A dry run writes nothing: no time is said for its writes.
    const dry = await h.sync(h.feed(), listings(1, 130), { dryRun: true }, { elapsed });
    expect(dry).toMatchObject({ dryRun: true, created: 10 });
    expect(dry.phases).toEqual({ feedMs: 1000, pagesMs: 1000, planMs: 1000, writesMs: 0 });
    // On the real clock the phases are the run's own time, within its duration.
    const real = await h.sync(h.feed(), listings(1, 130));
    expect(real).toMatchObject({ created: 10, unchanged: 120 });
    const { feedMs, pagesMs, planMs, writesMs } = real.phases ?? {
      feedMs: -1,
      pagesMs: -1,
      planMs: -1,
      writesMs: -1,
    };
    for (const ms of [feedMs, pagesMs, planMs, writesMs]) {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(Number.isInteger(ms)).toBe(true);
    }
    expect(writesMs).toBeGreaterThan(0);
    expect(feedMs + pagesMs + planMs + writesMs).toBeLessThanOrEqual(real.durationMs + 4);
    // A run that stopped before its plan says none.
    const failed = await h.sync(h.feed(), async () => {
      throw new FeedError('E_FEED_FETCH', 'feed1', 'HTTP 503 from the feed');
    });
    expect(failed.outcome).toBe('failed');
    expect(failed.phases).toBeUndefined();
  });

  it('keeps what the feed owns, counted where a run can tell, through runs that cannot', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 10));
    const owned = async () => (await h?.state.getFeed('feed1'))?.owned;
    expect(await owned()).toBe(10);
    const skipped = await h.sync(h.feed(), recordsFeed([], { notModified: true }), { trigger: 'schedule' });
    expect(skipped).toMatchObject({ outcome: 'skipped', unchanged: 0 });
    expect(await owned()).toBe(10);
    const failed = await h.sync(h.feed(), async () => {
      throw new FeedError('E_FEED_FETCH', 'feed1', 'HTTP 503 from the feed');
    });
    expect(failed.outcome).toBe('failed');
    expect(await owned()).toBe(10);
    await h.sync(h.feed(), listings(1, 12));
    expect(await owned()).toBe(12);
    // An incremental run sees only what it read: the count stays the last full compare's.
    const incremental = await h.sync(h.feed(), recordsFeed(listings(1, 3), { mode: 'incremental' }));
    expect(incremental).toMatchObject({ outcome: 'ok', mode: 'incremental', unchanged: 3 });
    expect(await owned()).toBe(12);
    // A guarded run holds its deletes back: those listings are still the feed's.
    const guarded = await h.sync(h.feed(), listings(1, 3));
    expect(guarded).toMatchObject({ outcome: 'guarded', unchanged: 3, heldDeletes: 9, deleted: 0 });
    expect(await owned()).toBe(12);
    expect(h.keys()).toHaveLength(12);
  });

  it('writes to its spill file only the pages holding a listing it reads back: none in a no-op', async () => {
    h = await startHarness([{}], {}, { pageSize: 50 });
    const feed = h.feed();
    await h.sync(feed, listings(1, 120));
    // Three pages of 50: the decode thread holds each until the run has compared it with the feed.
    const again = await h.sync(feed, listings(1, 120));
    expect(again).toMatchObject({ unchanged: 120, snapshot: { pages: 3, pagesWritten: 0 } });
    // Listing 75 (the second page) changes: the run reads its platform record back to say what
    // changed, so that page alone is written.
    const changed = listings(1, 120).map((l) =>
      l.MLSNumber === listing(75).MLSNumber ? { ...l, SalePrice: 1 } : l,
    );
    const third = await h.sync(feed, changed);
    expect(third).toMatchObject({ updated: 1, unchanged: 119, snapshot: { pages: 3, pagesWritten: 1 } });
    expect(third.changes?.[0]).toMatchObject({ key: listing(75).MLSNumber });
  });

  it('says how many records repeated a key: read counts them, no write does', async () => {
    h = await startHarness();
    const feed = [...listings(1, 10), ...listings(3, 5), { ...listing(7), SalePrice: 1 }];
    const report = await h.sync(h.feed(), feed);
    expect(report).toMatchObject({ outcome: 'ok', read: 14, duplicates: 4, created: 10 });
    expect(renderReport(report)).toContain(
      '  4 record(s) repeated the key of an earlier one: the last of each key is kept (`feed-sync validate --feed feed1` lists them)',
    );
    // The last record of a key is the one written.
    expect(h.sandbox.listings('SN-1').find((l) => l.MLSNumber === listing(7).MLSNumber)?.SalePrice).toBe(1);
  });

  it('detects a silently capped page size and still reads exactly the pages needed', async () => {
    h = await startHarness([{}], { maxPageSize: 20 }, { pageSize: 50 });
    await h.sync(h.feed(), listings(1, 90));
    h.sandbox.resetStats();
    const again = await h.sync(h.feed(), listings(1, 90));
    expect(again.snapshot).toEqual({
      remoteCount: 90,
      pages: 5,
      pageSize: 20,
      requestedPageSize: 50,
      pagesWritten: 0,
    });
    expect(h.sandbox.stats().requests.list).toBe(5);
    expect(writes(again)).toBe(0);
  });

  it('applies a next-day feed: new prices, a sold listing, a dropped one, a new one', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 20));
    const next = [...listings(1, 19), listing(21)].map((l) =>
      l.MLSNumber === 'MLS-0003'
        ? { ...l, SalePrice: 199_000 }
        : l.MLSNumber === 'MLS-0004'
          ? { ...l, Status: 'Sold' as const }
          : l,
    );
    const report = await h.sync(h.feed(), next);
    expect(report).toMatchObject({ outcome: 'ok', created: 1, updated: 2, deleted: 1, unchanged: 17 });
    const stored = h.sandbox.listings('SN-1');
    expect(stored.find((l) => l.MLSNumber === 'MLS-0003')?.SalePrice).toBe(199_000);
    expect(stored.find((l) => l.MLSNumber === 'MLS-0004')?.Status).toBe('Sold');
    expect(h.keys()).not.toContain('MLS-0020');
    expect(writes(await h.sync(h.feed(), next))).toBe(0);
  });

  it("reports every update's changes, read before the run's records close, however few briefs it asks", async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 20));
    const next = listings(1, 20).map((l, i) => ({ ...l, SalePrice: 500_000 + i }));
    const report = await h.sync(h.feed(), next, { briefs: 1 });
    expect(report).toMatchObject({ outcome: 'ok', updated: 20, unchanged: 0 });
    expect(report.changes).toHaveLength(20);
    expect(report.changes?.map((c) => c.fields?.find((f) => f.field === 'SalePrice')?.to)).toEqual(
      next.map((l) => l.SalePrice),
    );
  });

  it('detects a change of a field the list never returns (AreaUnit)', async () => {
    h = await startHarness();
    // No areas (the unknown marker 0): only the unit can change, and the list never returns it.
    const records = [1, 2, 3].map((n) => ({ ...listing(n), LotArea: undefined, BuildingArea: undefined }));
    await h.sync(h.feed(), recordsFeed(records));
    const metric = { ...h.feed(), mapping: { ...h.feed().mapping, areaUnit: 'Square Meters' as const } };
    const report = await h.sync(metric, recordsFeed(records));
    expect(report).toMatchObject({ updated: 3, unchanged: 0 });
    expect(report.changes?.[0]?.fields).toEqual([]);
    expect(h.sandbox.listings('SN-1').map((l) => l.AreaUnit)).toEqual(Array(3).fill('Square Meters'));
  });

  it('leaves hand-added listings untouched and counts them as foreign', async () => {
    h = await startHarness();
    h.sandbox.seed('SN-1', [listing(500), listing(501)]);
    const before = h.sandbox.listings('SN-1');
    const report = await h.sync(h.feed(), listings(1, 5));
    expect(report).toMatchObject({ outcome: 'ok', created: 5, foreign: 2, deleted: 0 });
    expect(h.sandbox.listings('SN-1').slice(0, 2)).toEqual(before);
  });

  it('adopts a hand-added listing whose key is in the feed instead of duplicating it', async () => {
    h = await startHarness();
    h.sandbox.seed('SN-1', [listing(1, { SalePrice: 1 })]);
    const report = await h.sync(h.feed(), listings(1, 2));
    expect(report).toMatchObject({ created: 1, updated: 1, adopted: 1, foreign: 0 });
    expect(h.keys()).toEqual(['MLS-0001', 'MLS-0002']);
    expect(writes(await h.sync(h.feed(), listings(1, 2)))).toBe(0);
  });

  it('says so where a hand-added listing has a feed key in other letter case (a new user got two listings for one home)', async () => {
    h = await startHarness();
    h.sandbox.seed('SN-1', [{ ...listing(1), MLSNumber: 'mls-0001' }, listing(500)]);
    // A plan (a dry run) says it before anything is created.
    const planned = await h.sync(h.feed(), listings(1, 2), { dryRun: true });
    expect(planned.hints?.map((hint) => hint.code)).toEqual(['key_case']);
    const report = await h.sync(h.feed(), listings(1, 2));
    // Keys stay exact: the feed creates its own, and the report says which listing is its twin.
    expect(report).toMatchObject({ created: 2, adopted: 0, foreign: 2 });
    const [twin] = h.sandbox.listings('SN-1').filter((l) => l.MLSNumber === 'mls-0001');
    expect(report.hints).toEqual([
      expect.objectContaining({
        code: 'key_case',
        message: `1 listing(s) this feed creates have a key that an untagged listing on the chatbot has in other letter case (MLS-0001 ≈ mls-0001 (ID ${twin?.ID})): not the same key, so the home is listed twice`,
      }),
    ]);
    // Once the feed's own exists it creates nothing there: nothing more to say.
    expect((await h.sync(h.feed(), listings(1, 2), { dryRun: true })).hints).toBeUndefined();
  });

  it('keeps two feeds on one chatbot apart', async () => {
    h = await startHarness([{ id: 'a' }, { id: 'b' }], {}, {});
    await h.sync(h.feed('a'), listings(1, 10));
    await h.sync(h.feed('b'), listings(101, 110));
    expect(h.keys()).toHaveLength(20);
    const a2 = await h.sync(h.feed('a'), listings(1, 9));
    expect(a2).toMatchObject({ deleted: 1, foreign: 10, unchanged: 9 });
    const b2 = await h.sync(h.feed('b'), listings(101, 110));
    expect(b2).toMatchObject({ deleted: 0, foreign: 9, unchanged: 10 });
    expect(writes(b2)).toBe(0);
    // Feed b listing a key that feed a owns: reported and skipped, never duplicated or taken over.
    const b3 = await h.sync(h.feed('b'), [...listings(101, 110), listing(1)]);
    expect(b3.skipped).toEqual([
      expect.objectContaining({ key: 'MLS-0001', reason: 'owned-by-other-feed', owner: 'a' }),
    ]);
    expect(h.keys().filter((k) => k === 'MLS-0001')).toHaveLength(1);
  });

  it('keeps one of several remote duplicates and deletes the extras by ID', async () => {
    h = await startHarness();
    const tagged = withTags(listing(1), 'feed1', tags);
    h.sandbox.seed('SN-1', [tagged, tagged, tagged, withTags(listing(2), 'feed1', tags)]);
    const report = await h.sync(h.feed(), listings(1, 2));
    expect(report).toMatchObject({ outcome: 'ok', deleted: 2, duplicatesDeleted: 2, unchanged: 2 });
    expect(h.sandbox.listings('SN-1').map((l) => l.ID)).toEqual([1, 4]);
  });

  describe('failed writes', () => {
    it('one failing listing never stops the others; the failure names key, operation and ID', async () => {
      h = await startHarness();
      await h.sync(h.feed(), listings(1, 10));
      const next = [...listings(1, 10).map((l) => ({ ...l, SalePrice: 99_000 })), listing(11)];
      const client = h.client;
      // The listing of MLS-0004 vanishes between the snapshot and its update.
      const vanish = h.sandbox.listings('SN-1').find((l) => l.MLSNumber === 'MLS-0004')?.ID;
      const report = await h.sync(
        h.feed(),
        next,
        {},
        {
          client: {
            ...client,
            updateListingJson: async (serialNumber, key, json, options) => {
              if (key === String(vanish))
                await client.deleteListings({ SerialNumber: 'SN-1', Keys: [key], KeyType: 'NewOaks' });
              return client.updateListingJson(serialNumber, key, json, options);
            },
          },
        },
      );
      expect(report).toMatchObject({
        outcome: 'failed',
        created: 1,
        updated: 9,
        reason: '1 write(s) failed',
      });
      expect(report.failed).toEqual([
        {
          key: 'MLS-0004',
          operation: 'update',
          id: vanish,
          code: 'E_NOT_FOUND',
          message: expect.any(String),
        },
      ]);
      const repair = await h.sync(h.feed(), next);
      expect(repair).toMatchObject({ outcome: 'ok', created: 1, updated: 0, unchanged: 10 });
      expect(h.keys()).toEqual(next.map((l) => l.MLSNumber));
    });

    it('reports the platform Code and Message of each failed write, and the next run repairs', async () => {
      h = await startHarness();
      await h.sync(h.feed(), listings(1, 4));
      const next = [...listings(2, 4).map((l) => ({ ...l, SalePrice: 1 })), listing(5)];
      // The key is rotated after the snapshot: every write answers Code 401.
      const rotate = () => h?.sandbox.configure({ secretKey: 'rotated' });
      const report = await h.sync(
        h.feed(),
        next,
        { allowMassDelete: true },
        { onProgress: (p) => p.phase === 'planning' && rotate() },
      );
      expect(report).toMatchObject({ outcome: 'failed', created: 0, updated: 0, deleted: 0 });
      const denied = {
        code: 'E_PLATFORM',
        platformCode: 401,
        platformMessage: expect.stringContaining('Unauthorized'),
      };
      expect(report.failed).toEqual([
        { key: 'MLS-0001', operation: 'delete', id: 1, ...denied, message: expect.any(String) },
        {
          key: 'MLS-0002',
          operation: 'update',
          id: 2,
          ...denied,
          message: expect.stringMatching(/^update: /),
        },
        { key: 'MLS-0003', operation: 'update', id: 3, ...denied, message: expect.any(String) },
        { key: 'MLS-0004', operation: 'update', id: 4, ...denied, message: expect.any(String) },
        { key: 'MLS-0005', operation: 'create', ...denied, message: expect.stringMatching(/^create: /) },
      ]);
      h.sandbox.configure({ secretKey: null });
      const repair = await h.sync(h.feed(), next, { allowMassDelete: true });
      expect(repair).toMatchObject({ outcome: 'ok', created: 1, updated: 3, deleted: 1, failed: [] });
      expect(h.keys()).toEqual(next.map((l) => l.MLSNumber));
    });
  });

  describe('delete guards', () => {
    it('an empty feed deletes nothing: a full feed with no record is a failed source', async () => {
      h = await startHarness();
      await h.sync(h.feed(), listings(1, 10));
      const report = await h.sync(h.feed(), []);
      expect(report).toMatchObject({
        outcome: 'failed',
        deleted: 0,
        reason: 'feed feed1: the feed has no records (records)',
      });
      expect(writes(report)).toBe(0);
      expect(h.keys()).toHaveLength(10);
    });

    it('a feed whose every row is rejected deletes nothing and says which rows and why', async () => {
      h = await startHarness();
      await h.sync(h.feed(), listings(1, 10));
      // Thirty rows of a CSV whose prices say "call": each is rejected, by row, and holds its key.
      const rows = Array.from({ length: 30 }, (_, i) => ({
        row: i + 2,
        fields: { ...listing(i + 1), SalePrice: 'call' },
      }));
      const rejections = rows.map((r, i) => ({
        feedId: 'feed1',
        row: r.row,
        index: i,
        key: listing(i + 1).MLSNumber,
        field: 'SalePrice',
        value: 'call',
        reason: 'not_a_number',
        message: `Row ${r.row} of feed1.csv: SalePrice "call" is not a number`,
      }));
      const report = await h.sync(h.feed(), recordsFeed(rows, { name: 'feed1.csv' }));
      expect(report).toMatchObject({ outcome: 'guarded', deleted: 0, rejected: 30, held: 30 });
      expect(report.guards).toEqual([expect.objectContaining({ guard: 'empty-feed', tripped: true })]);
      expect(report.rejections).toEqual(
        rejections
          .slice(0, 20)
          .map((r) => ({ ...r, problems: [expect.objectContaining({ field: 'SalePrice' })] })),
      );
      expect(writes(report)).toBe(0);
      expect(h.keys()).toHaveLength(10);
    });

    it('a failed source deletes nothing and ends failed', async () => {
      h = await startHarness();
      await h.sync(h.feed(), listings(1, 10));
      const report = await h.sync(h.feed(), async () => {
        throw new FeedError('E_FEED_FETCH', 'feed1', 'HTTP 503 from the feed');
      });
      expect(report).toMatchObject({
        outcome: 'failed',
        deleted: 0,
        reason: 'feed feed1: HTTP 503 from the feed',
      });
      expect(report.apiCalls.list + writes(report)).toBe(0);
      expect(h.keys()).toHaveLength(10);
    });

    it('over maxDeleteShare: creates and updates go, deletes wait for the override', async () => {
      h = await startHarness();
      await h.sync(h.feed(), listings(1, 10), {});
      const next = [...listings(1, 5), listing(11)];
      const guarded = await h.sync(h.feed(), next);
      expect(guarded).toMatchObject({ outcome: 'guarded', created: 1, deleted: 0, heldDeletes: 5 });
      expect(h.keys()).toHaveLength(11);
      const forced = await h.sync(h.feed(), next, { allowMassDelete: true });
      expect(forced).toMatchObject({ outcome: 'ok', deleted: 5 });
      expect(h.keys()).toEqual(next.map((l) => l.MLSNumber));
    });

    it('an override for the held deletes of a run deletes those, and none when the feed dropped others since', async () => {
      h = await startHarness();
      await h.sync(h.feed(), listings(1, 10), {});
      const next = listings(1, 5);
      const guarded = await h.sync(h.feed(), next);
      expect(guarded).toMatchObject({ outcome: 'guarded', heldDeletes: 5 });
      expect(guarded.heldDeletesDigest).toMatch(/^[0-9a-f]{64}$/);
      const allowed = { digest: guarded.heldDeletesDigest as string, count: guarded.heldDeletes };
      // The feed broke further between the page and the click: 9 would go, 5 were allowed.
      const worse = await h.sync(h.feed(), listings(1, 1), { allowDeletes: allowed });
      expect(worse).toMatchObject({ outcome: 'guarded', deleted: 0, heldDeletes: 9 });
      expect(worse.guards.find((g) => g.guard === 'override-mismatch')).toMatchObject({
        tripped: true,
        message: expect.stringContaining(
          'the override was given for 5 held deletes, and this run holds 9, not the same listings',
        ),
      });
      expect(h.keys()).toHaveLength(10);
      // The same held set: exactly those five go.
      const same = await h.sync(h.feed(), next, { allowDeletes: allowed });
      expect(same).toMatchObject({ outcome: 'ok', deleted: 5 });
      expect(h.keys()).toEqual(next.map((l) => l.MLSNumber));
    });
  });

  it('saves validators only after a run that succeeded, and skips an unmodified feed without a call', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 10));
    // A feed with no valid listing (its one row rejected) is guarded: its validators are not kept.
    await h.sync(h.feed(), recordsFeed([{ ...listing(1), Bedrooms: 'three' }], { state: { etag: '"v2"' } }));
    expect((await h.state.getFeed('feed1')).etag).toBeUndefined();
    await h.sync(h.feed(), recordsFeed(listings(1, 10), { state: { etag: '"v3"' } }));
    expect((await h.state.getFeed('feed1')).etag).toBe('"v3"');
    const skipped = await h.sync(h.feed(), recordsFeed([], { notModified: true }), { trigger: 'schedule' });
    expect(skipped.outcome).toBe('skipped');
    expect(skipped.apiCalls.list + writes(skipped)).toBe(0);
  });

  it('a dry run plans but writes nothing', async () => {
    h = await startHarness();
    const report = await h.sync(h.feed(), listings(1, 5), { dryRun: true });
    expect(report).toMatchObject({ outcome: 'ok', dryRun: true, created: 5 });
    expect(h.keys()).toEqual([]);
    expect((await h.state.getFeed('feed1')).lastReport).toBeUndefined();
  });
});
