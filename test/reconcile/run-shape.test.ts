import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/logger.ts';
import {
  maySkipUnchanged,
  type RunProgress,
  reportOf,
  syncFeed,
  withTags,
} from '../../src/reconcile/index.ts';
import { renderReport } from '../../src/render/index.ts';
import { FeedError } from '../../src/sources/feed-error.ts';
import { listings } from '../../src/testing/listing.ts';
import { recordsFeed } from '../../src/testing/records-feed.ts';
import { type Harness, startHarness } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const run = (harness: Harness, deps: Partial<Parameters<typeof syncFeed>[2]> = {}, count = 3) =>
  syncFeed(harness.config, harness.feed(), {
    client: harness.client,
    state: harness.state,
    logger: silentLogger,
    open: recordsFeed(listings(1, count)),
    ...deps,
  });

describe('the run is data in, data out', () => {
  it('returns the report and the state to save, and saves nothing itself', async () => {
    h = await startHarness();
    const phases: RunProgress['phase'][] = [];
    const result = await run(h, { onProgress: (p) => phases.push(p.phase) });
    expect(result.report).toMatchObject({ outcome: 'ok', created: 3, trigger: 'manual', changesOmitted: 0 });
    expect(result.report.changes?.map((c) => `${c.op} ${c.key}`)).toEqual([
      'create MLS-0001',
      'create MLS-0002',
      'create MLS-0003',
    ]);
    expect(result.state).toMatchObject({
      lastReport: result.report,
      lastCompareAt: expect.any(String),
      owned: 3,
    });
    expect(result.error).toBeUndefined();
    expect(await h.state.getFeed('feed1')).toEqual({});
    expect([...new Set(phases)]).toEqual([
      'fetching',
      'normalizing',
      'snapshot',
      'planning',
      'applying',
      'done',
    ]);
  });

  it('a failed source returns its error for the worker to map, and a failed report', async () => {
    h = await startHarness();
    const error = new FeedError('E_FEED_FETCH', 'feed1', 'HTTP 503', { retryable: true });
    const result = await run(h, {
      open: async () => {
        throw error;
      },
    });
    expect(result.error).toBe(error);
    // The feed error names its feed: said once (`feed feed1: HTTP 503`).
    expect(result.report).toMatchObject({ outcome: 'failed', reason: error.message });
    expect(result.state).toEqual({ lastReport: result.report });
  });

  it('reportOf is pure: the same values give the same report', () => {
    const at = new Date('2024-05-01T00:00:00Z');
    const meta = {
      feedId: 'f',
      chatbot: 'B',
      startedAt: at,
      finishedAt: at,
      apiCalls: { edit: 0, session: 0, ask: 0, create: 0, update: 0, list: 0, delete: 0 },
      dryRun: false,
    };
    const prepared = { kind: 'skipped' as const, reason: 'unchanged', ingest: undefined as never };
    const withIngest = {
      ...prepared,
      ingest: {
        mode: 'full' as const,
        read: 4,
        duplicates: 0,
        rejected: 0,
        rejections: [],
        rejectedWithoutKey: 0,
        decodedAs1252: [],
        unknownMarkers: { YearBuilt: 2 },
        droppedImages: 1,
        sourceState: {},
      },
    };
    // Pure: it reads neither the clock nor anything but its arguments (a call a day later, the
    // arguments frozen, gives the same report), and the report is made of those values.
    deepFreeze(withIngest);
    deepFreeze(meta);
    const expected = {
      feedId: 'f',
      chatbot: 'B',
      startedAt: at.toISOString(),
      finishedAt: at.toISOString(),
      durationMs: 0,
      outcome: 'skipped',
      reason: 'unchanged',
      dryRun: false,
      mode: 'full',
      read: 4,
      created: 0,
      updated: 0,
      deleted: 0,
      unchanged: 0,
      rejected: 0,
      held: 0,
      heldKeys: [],
      rejectedWithoutKey: 0,
      decodedAs1252: [],
      decodedAs1252Count: 0,
      unknownMarkers: { YearBuilt: 2 },
      droppedImages: 1,
      foreign: 0,
      adopted: 0,
      skipped: [],
      duplicatesDeleted: 0,
      heldDeletes: 0,
      markedSold: 0,
      inGrace: 0,
      graceKeys: [],
      ambiguousResolved: 0,
      failed: [],
      guards: [],
      apiCalls: { edit: 0, session: 0, ask: 0, create: 0, update: 0, list: 0, delete: 0 },
      rejections: [],
      drift: [],
    };
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    try {
      expect(reportOf(withIngest, undefined, meta)).toEqual(expected);
      vi.setSystemTime(new Date('2030-01-02T12:00:00Z'));
      expect(reportOf(withIngest, undefined, meta)).toEqual(expected);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lists the first 1,000 skipped listings in key order and counts them all', async () => {
    h = await startHarness([{}, {}]);
    const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
    // Every key of the feed is another feed's (`feed2`, which the config has: no hint, not partial).
    h.sandbox.seed(
      'SN-1',
      listings(1, 1001).map((l) => withTags(l, 'feed2', tags)),
    );
    const report = await h.sync(h.feed(), listings(1, 1001), { dryRun: true });
    expect(report).toMatchObject({ created: 0, updated: 0, skippedCount: 1001, foreign: 1001 });
    expect(report.skipped).toHaveLength(1000);
    expect(report.skipped[999]).toMatchObject({
      key: 'MLS-1000',
      reason: 'owned-by-other-feed',
      owner: 'feed2',
    });
    expect(report.skippedUnknownOwner).toBeUndefined();
    expect(renderReport(report)).toContain('1001 feed listings skipped (key held by another owner)');
  });
});

describe('a stopped run is cancelled, not failed (any phase)', () => {
  it('stopped while reading the listings: cancelled, no error to retry, nothing written', async () => {
    h = await startHarness([{}], { latencyMs: 200 });
    const controller = new AbortController();
    const result = await run(h, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'snapshot') setTimeout(() => controller.abort(), 30);
      },
    });
    expect(result.report.outcome).toBe('cancelled');
    expect(result.report.reason).toBe('cancelled while reading the listings');
    expect(result.error).toBeUndefined();
    expect(h.sandbox.listings('SN-1')).toHaveLength(0);
  });

  it('stopped once planned, before its first write: the report says nothing was written and lists every planned write', async () => {
    h = await startHarness();
    // Two listings the last run created, one of them changed since, and two new ones.
    const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
    h.sandbox.seed(
      'SN-1',
      listings(1, 2).map((l) => withTags(l, 'feed1', tags)),
    );
    const changed = listings(1, 4).map((l, i) => (i === 0 ? { ...l, SalePrice: 1 } : l));
    const controller = new AbortController();
    const result = await run(h, {
      signal: controller.signal,
      open: recordsFeed(changed),
      onProgress: (p) => {
        if (p.phase === 'planning') controller.abort();
      },
    });
    expect(result.report).toMatchObject({ outcome: 'cancelled', created: 0, updated: 0, deleted: 0 });
    expect(result.report.notApplied).toEqual({
      creates: ['MLS-0003', 'MLS-0004'],
      updates: ['MLS-0001'],
      deletes: [],
    });
    expect(result.report.reason).toBe(
      'cancelled before applying: 3 listing(s) not written (2 creates, 1 update); the next run repairs them',
    );
    expect(result.report.apiCalls.create + result.report.apiCalls.update).toBe(0);
    expect(h.sandbox.listings('SN-1')).toHaveLength(2);
    // A plan with nothing to write, stopped at the same place, says so.
    const idle = new AbortController();
    const same = await run(h, {
      signal: idle.signal,
      open: recordsFeed(listings(1, 2)),
      onProgress: (p) => {
        if (p.phase === 'planning') idle.abort();
      },
    });
    expect(same.report).toMatchObject({
      outcome: 'cancelled',
      reason: 'cancelled before applying; the plan had nothing to write',
      notApplied: { creates: [], updates: [], deletes: [] },
    });
  });

  it('stopped while reading the feed: cancelled, no error to retry', async () => {
    h = await startHarness();
    const controller = new AbortController();
    const result = await run(h, {
      signal: controller.signal,
      open: recordsFeed(listings(1, 3), { onOpen: () => controller.abort() }),
    });
    expect(result.report).toMatchObject({ outcome: 'cancelled', reason: 'cancelled while reading the feed' });
    expect(result.error).toBeUndefined();
  });
});

describe('maySkipUnchanged', () => {
  const feed = { fullCompareEveryHours: 24 } as Parameters<typeof maySkipUnchanged>[0];
  const now = new Date('2024-05-02T12:00:00Z');
  it.each([
    ['a manual run never skips', {}, { lastCompareAt: '2024-05-02T11:00:00Z' }, false],
    [
      'a scheduled run skips while the last compare is fresh',
      { trigger: 'schedule' },
      { lastCompareAt: '2024-05-02T11:00:00Z' },
      true,
    ],
    [
      'a scheduled run compares once the interval has passed',
      { trigger: 'schedule' },
      { lastCompareAt: '2024-05-01T11:00:00Z' },
      false,
    ],
    ['a scheduled run compares when it never did', { trigger: 'schedule' }, {}, false],
    ['a config-change run compares', { trigger: 'config' }, { lastCompareAt: '2024-05-02T11:00:00Z' }, false],
  ] as const)('%s', (_name, options, state, expected) => {
    expect(maySkipUnchanged(feed, state, now, options)).toBe(expected);
  });

  it('a scheduled run compares once a listing on the grace clock is due, however fresh the last compare', () => {
    const graced = { ...feed, gone: { action: 'delete' as const, afterDays: 3 } };
    const fresh = { lastCompareAt: '2024-05-02T11:00:00Z' };
    const schedule = { trigger: 'schedule' as const };
    const waiting = { ...fresh, goneSince: { A: '2024-04-30T12:00:01Z' } };
    expect(maySkipUnchanged(graced, waiting, now, schedule)).toBe(true);
    const due = { ...fresh, goneSince: { A: '2024-04-30T12:00:01Z', B: '2024-04-29T12:00:00Z' } };
    expect(maySkipUnchanged(graced, due, now, schedule)).toBe(false);
  });
});

describe('stateOf', () => {
  it('a run that read the feed but failed forgets the validators and the last compare', async () => {
    h = await startHarness();
    await h.state.updateFeed('feed1', { etag: '"v1"', lastCompareAt: '2024-05-01T00:00:00Z' });
    // The platform refuses every write: the run is planned, then fails.
    h.sandbox.configure({ secretKey: 'rotated' });
    const result = await run(h, {
      open: recordsFeed(listings(1, 2), { state: { etag: '"v2"' } }),
    });
    expect(result.report.outcome).toBe('failed');
    expect(result.state).toMatchObject({
      etag: undefined,
      lastModified: undefined,
      lastCompareAt: undefined,
    });
    expect(Object.keys(result.state)).toEqual(expect.arrayContaining(['etag', 'lastCompareAt']));
    await h.state.updateFeed('feed1', result.state);
    expect(await h.state.getFeed('feed1')).toEqual({ lastReport: result.report });
  });

  it('so does a run whose snapshot failed; a run that ended ok keeps the new ones', async () => {
    h = await startHarness();
    await h.state.updateFeed('feed1', { etag: '"v1"', lastCompareAt: '2024-05-01T00:00:00Z' });
    const ok = await run(h, {
      open: recordsFeed(listings(1, 2), { state: { etag: '"v2"' } }),
    });
    expect(ok.state).toMatchObject({ etag: '"v2"', lastCompareAt: expect.any(String) });
    h.sandbox.configure({ secretKey: 'rotated' });
    const failed = await run(h);
    expect(failed.report).toMatchObject({ outcome: 'failed', reason: expect.stringMatching(/^snapshot: /) });
    expect(failed.state).toMatchObject({ etag: undefined, lastCompareAt: undefined });
  });
});

/** Freeze a value and everything in it, so a function that writes to its arguments throws. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
