import { afterEach, describe, expect, it } from 'vitest';
import { clientFromConfig } from '../../src/api/index.ts';
import type { Config, FeedConfig } from '../../src/config/schema.ts';
import { silentLogger } from '../../src/logger.ts';
import { type RunReport, type SyncOptions, saveRun, syncFeed } from '../../src/reconcile/index.ts';
import { feedNotes } from '../../src/render/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { createMemoryStateStore, type StateStore } from '../../src/state/state-store.ts';
import { type ODataServer, type ODataServerOptions, resoRecord, startOData } from '../helpers/reso-odata.ts';
import { makeConfig } from './fixtures.ts';
import { writes } from './harness.ts';

/**
 * The RESO source as production runs it (no ingest hook): a provider played by the test OData
 * server, the platform by the sandbox, the run's state in a state store between runs.
 */
let sandbox: Sandbox | undefined;
let odata: ODataServer | undefined;
afterEach(async () => {
  await sandbox?.close();
  await odata?.close();
  sandbox = undefined;
  odata = undefined;
});

const T0 = Date.parse('2024-05-02T00:00:00Z');
const HOUR = 3_600_000;

interface Setup {
  config: Config;
  feed: FeedConfig;
  state: StateStore;
  sandbox: Sandbox;
  odata: ODataServer;
  /** One run at `at` (ms), its state saved as the CLI and the worker save it. */
  sync(at: number, options?: SyncOptions): Promise<RunReport>;
  keys(): string[];
}

async function setUp(
  dataset: () => Record<string, unknown>[],
  reso: Record<string, unknown>,
  server: Partial<ODataServerOptions> = {},
  source: { retries?: number } = {},
): Promise<Setup> {
  sandbox = await startSandbox({ latencyMs: 1 });
  odata = await startOData({ dataset, ...server });
  const config = makeConfig(
    [
      {
        id: 'mls',
        key: 'MLSNumber',
        maxDeleteShare: 0.5,
        source: {
          format: 'reso',
          url: `${odata.url}/odata`,
          auth: { type: 'bearer', token: 'mls-token' },
          retries: 0,
          ...source,
          reso,
        },
        mapping: { preset: 'reso' },
      },
    ],
    { baseUrl: sandbox.url, pageSize: 100 },
  );
  const feed = config.feeds[0]!;
  const state = createMemoryStateStore();
  const client = clientFromConfig(config, { backoff: { baseMs: 5, maxMs: 50 } });
  const box = sandbox;
  return {
    config,
    feed,
    state,
    sandbox: box,
    odata,
    async sync(at, options = {}) {
      const result = await syncFeed(
        config,
        feed,
        { client, state, logger: silentLogger, now: () => new Date(at), budgetClock: () => new Date(at) },
        { trigger: 'schedule', ...options },
      );
      await saveRun(state, result);
      return result.report;
    },
    keys: () =>
      box
        .listings('SN-1')
        .map((l) => l.MLSNumber)
        .sort(),
  };
}

const MLSGRID = { provider: 'mlsgrid', originatingSystem: 'actris', mode: 'incremental' };

describe('MLS Grid, end to end', () => {
  it('imports in parts, then applies modified, tied, MlgCanView false and closed records; a second sync writes nothing', async () => {
    let data = Array.from({ length: 60 }, (_, i) =>
      resoRecord(i + 1, {
        // 30 listings modified in one instant, across page boundaries.
        ModificationTimestamp:
          i < 30 ? '2024-04-01T00:00:00Z' : `2024-04-02T00:${String(i - 30).padStart(2, '0')}:00Z`,
      }),
    );
    const s = await setUp(() => data, { ...MLSGRID, top: 10, recordsPerRun: 25 });
    const parts: RunReport[] = [];
    for (let i = 0; i < 5; i++) {
      parts.push(await s.sync(T0 + i * 1000));
      if (!parts.at(-1)?.continues) break;
    }
    expect(parts.map((r) => [r.outcome, r.created, r.deleted, r.continues ?? false])).toEqual([
      ['ok', 30, 0, true],
      ['ok', 30, 0, false],
    ]);
    expect(s.keys()).toHaveLength(60);
    expect(parts[1]?.source).toMatch(/key sweep: 60 keys/);

    // The next day: a price change, a listing closed, one withdrawn by MlgCanView false, ten modified in one instant.
    const at = '2024-05-02T12:00:00Z';
    data = data.map((r, i) => {
      if (i === 0) return { ...r, ListPrice: 123_456, ModificationTimestamp: at };
      if (i === 1) return { ...r, StandardStatus: 'Closed', ClosePrice: 299_000, ModificationTimestamp: at };
      if (i === 2) return { ...r, MlgCanView: false, ModificationTimestamp: at };
      if (i >= 10 && i < 20) return { ...r, BedroomsTotal: 5, ModificationTimestamp: at };
      return r;
    });
    const next = await s.sync(T0 + 13 * HOUR);
    expect(next).toMatchObject({ outcome: 'ok', mode: 'incremental', created: 0, updated: 12, deleted: 1 });
    expect(s.keys()).not.toContain('L000003');
    expect(s.sandbox.listings('SN-1').find((l) => l.MLSNumber === 'L000002')).toMatchObject({
      Status: 'Sold',
      SalePrice: 299_000,
    });
    const again = await s.sync(T0 + 14 * HOUR);
    expect(again.outcome).toBe('ok');
    expect(writes(again)).toBe(0);
  });

  it('a key sweep deletes a listing that left the feed without a marker, as gone from a full feed', async () => {
    let data = Array.from({ length: 8 }, (_, i) => resoRecord(i + 1));
    const s = await setUp(() => data, { ...MLSGRID, sweepEveryHours: 24 });
    expect(await s.sync(T0)).toMatchObject({ outcome: 'ok', created: 8 });
    // Gone from the feed, its MlgCanView false marker expired long ago: only a sweep can tell.
    data = data.filter((r) => r.ListingKey !== 'ACT000004');
    const quiet = await s.sync(T0 + HOUR);
    expect(quiet).toMatchObject({ outcome: 'ok', mode: 'incremental', deleted: 0 });
    const swept = await s.sync(T0 + 25 * HOUR);
    expect(swept).toMatchObject({ outcome: 'ok', mode: 'full', deleted: 1, updated: 0, created: 0 });
    expect(swept.changes?.find((c) => c.op === 'delete')).toMatchObject({ key: 'L000004', reason: 'gone' });
    expect(s.keys()).toHaveLength(7);
  });
});

describe('a read that moves while it is taken (a new user’s MLS, paged by $skip)', () => {
  it('a listing the read skipped is asked about before it is deleted, and kept: the provider still lists it', async () => {
    // 25 listings, each modified a minute apart; pages of 10 by `$skip`.
    const data = Array.from({ length: 25 }, (_, i) =>
      resoRecord(i + 1, { ModificationTimestamp: `2024-05-01T10:${String(i).padStart(2, '0')}:00Z` }),
    );
    let served = 0;
    let edit = false;
    const s = await setUp(
      () => {
        // After the first page of a read, the MLS edits the first record: it moves to the end, and
        // every later record one place back, so `$skip=10` skips one.
        if (edit && ++served === 2) data[0] = { ...data[0]!, ModificationTimestamp: '2024-05-02T09:00:00Z' };
        return data;
      },
      { provider: 'generic', mode: 'full', top: 10 },
    );
    expect(await s.sync(T0)).toMatchObject({ outcome: 'ok', created: 25 });
    edit = true;
    const moved = await s.sync(T0 + HOUR);
    // Before: `deleted: T2M1010`, a listing still for sale, gone for good.
    expect(moved).toMatchObject({ outcome: 'ok', mode: 'full', deleted: 0 });
    // The record that moved came twice: said as the provider's, not as a feed to fix with validate.
    expect(feedNotes(moved)).toContain(
      '1 record(s) came twice from the provider (changed while the feed was read, they moved to a later page): the last of each key is kept',
    );
    expect(s.keys()).toHaveLength(25);
    expect(moved.guards.find((g) => g.guard === 'still-listed')?.message).toMatch(
      /^1 listing\(s\) gone from the read are still listed at the provider \(the feed changed while it was read\): kept, not deleted \(L000011\)$/,
    );
    const asked = s.odata.queries.find(
      (q) =>
        (q.searchParams.get('$filter') ?? '').includes(' or ') ||
        (q.searchParams.get('$filter') ?? '').includes('ListingId eq'),
    );
    expect(asked?.searchParams.get('$filter')).toBe("(ListingId eq 'L000011' or ListingKey eq 'L000011')");
    // Never a larger page than the feed asks (`top: 10`): a server capped there would refuse it.
    expect(Number(asked?.searchParams.get('$top'))).toBeLessThanOrEqual(10);
    // A listing really gone is asked about too, confirmed, and deleted.
    edit = false;
    data.splice(4, 1);
    const gone = await s.sync(T0 + 2 * HOUR);
    expect(gone).toMatchObject({ outcome: 'ok', deleted: 1 });
    expect(gone.guards.find((g) => g.guard === 'still-listed')?.message).toBe(
      '1 confirmed gone at the provider: deleted',
    );
    expect(s.keys()).toHaveLength(24);
  });
});

describe('a listing deleted on the platform behind feed-sync’s back (an incremental MLS feed)', () => {
  it('is seen missing by count, and the next part reads the feed in full and restores it', async () => {
    // An hour apart: the incremental run's overlap reads only the newest again.
    const data = Array.from({ length: 8 }, (_, i) =>
      resoRecord(i + 1, { ModificationTimestamp: `2024-05-01T0${i}:00:00Z` }),
    );
    const s = await setUp(() => data, { ...MLSGRID, sweepEveryHours: 24 });
    expect(await s.sync(T0)).toMatchObject({ outcome: 'ok', created: 8 });
    // Before: an incremental run read nothing of it, and a sweep listed its key as still in the feed.
    const answer = await fetch(`${s.sandbox.url}/chat/Chatbot/RealEstateDelete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ SerialNumber: 'SN-1', Keys: ['L000004'], KeyType: 'MLSNumber' }),
    });
    expect(answer.ok).toBe(true);
    const seen = await s.sync(T0 + HOUR);
    expect(seen).toMatchObject({ outcome: 'ok', mode: 'incremental', created: 0, continues: true });
    expect(seen.source).toMatch(
      /1 of the feed's 8 listing\(s\) are no longer on the platform \(deleted there\?\): the feed is read in full next/,
    );
    const restored = await s.sync(T0 + HOUR + 1000);
    expect(restored).toMatchObject({ outcome: 'ok', mode: 'full', created: 1, deleted: 0 });
    expect(s.keys()).toHaveLength(8);
    // Back to reading what changed; nothing missing, nothing said.
    const quiet = await s.sync(T0 + 2 * HOUR);
    expect(quiet).toMatchObject({ outcome: 'ok', mode: 'incremental' });
    expect(quiet.continues).toBeUndefined();
    expect(writes(quiet)).toBe(0);
  });
});

describe('a provider that answers 429 (a new user’s MLS)', () => {
  it('without Retry-After: backs off for seconds, then pauses the run with what it read written, the server’s words said', async () => {
    const data = Array.from({ length: 30 }, (_, i) => resoRecord(i + 1));
    let limited = false;
    const s = await setUp(
      () => data,
      { provider: 'generic', mode: 'full', top: 10 },
      {
        fault: (_n, url) => (limited && url.searchParams.get('$skip') === '10' ? { status: 429 } : undefined),
      },
      { retries: 3 },
    );
    limited = true;
    const started = Date.now();
    const report = await s.sync(T0);
    const took = Date.now() - started;
    expect(report).toMatchObject({ outcome: 'paused', created: 10, deleted: 0 });
    expect(report.reason).toMatch(
      /the provider refused for the key's rate \(HTTP 429: the server said "fault"\): paused until 2024-05-02T00:01:00\.000Z/,
    );
    expect(report.resumesAt).toBe('2024-05-02T00:01:00.000Z');
    // Four requests of that page, a second, two, four apart (with jitter, at least half), not a storm.
    expect(s.odata.queries.filter((q) => q.searchParams.get('$skip') === '10')).toHaveLength(4);
    expect(took).toBeGreaterThan(3000);
    limited = false;
    expect(await s.sync(T0 + HOUR)).toMatchObject({ outcome: 'ok', created: 20 });
  }, 30_000);

  it('MLS Grid: a 429 is a suspended token: no request more, paused an hour, and said', async () => {
    const data = Array.from({ length: 5 }, (_, i) => resoRecord(i + 1));
    const s = await setUp(() => data, MLSGRID, { fault: () => ({ status: 429 }) });
    const report = await s.sync(T0);
    expect(report.outcome).toBe('paused');
    expect(report.reason).toMatch(/MLS Grid suspends a token that goes over its limits/);
    expect(report.resumesAt).toBe('2024-05-02T01:00:00.000Z');
    expect(s.odata.queries).toHaveLength(1);
    // The next run within the hour (the CLI again, a scheduled tick) does not ask the suspended token.
    const again = await s.sync(T0 + 10 * 60_000);
    expect(again.outcome).toBe('paused');
    expect(again.resumesAt).toMatch(/^2024-05-02T01:00:00\.\d{3}Z$/);
    expect(s.odata.queries).toHaveLength(1);
  });
});

describe('a budget that runs out mid-run', () => {
  it('writes what was read, deletes nothing, ends paused with resumesAt, and the next run goes on from there', async () => {
    const data = Array.from({ length: 12 }, (_, i) =>
      resoRecord(i + 1, {
        ModificationTimestamp: new Date(Date.parse('2024-04-01T00:00:00Z') + i * 60_000).toISOString(),
      }),
    );
    const s = await setUp(() => data, { ...MLSGRID, top: 4, limits: { perSecond: 10, perHour: 2 } });
    const first = await s.sync(T0);
    expect(first).toMatchObject({ outcome: 'paused', created: 8, deleted: 0, mode: 'incremental' });
    expect(first.resumesAt).toBe(new Date(T0 + HOUR + 61_000).toISOString());
    expect(first.reason).toMatch(/per-hour budget is spent until .*; the next run goes on from there/);
    expect(s.odata.queries).toHaveLength(2);
    // A scheduled run before then sends nothing and plans nothing.
    const early = await s.sync(T0 + 10 * 60_000);
    expect(early).toMatchObject({ outcome: 'paused', read: 0, created: 0 });
    expect(early.apiCalls.list).toBe(0);
    expect(s.odata.queries).toHaveLength(2);
    const later = await s.sync(T0 + HOUR + 61_000);
    expect(later).toMatchObject({ created: 4, deleted: 0 });
    expect(s.keys()).toHaveLength(12);
    expect((await s.state.getFeed('mls')).lastReport).toMatchObject({ created: 4 });
  });
});

describe('photos', () => {
  it('a provider that signs media URLs afresh on every read (Trestle) does not make listings flap; a new photo stamp updates', async () => {
    let data = Array.from({ length: 5 }, (_, i) => resoRecord(i + 1));
    const s = await setUp(
      () => data,
      { provider: 'trestle', mode: 'incremental', sweepEveryHours: 0 },
      {
        signMedia: true,
        paging: 'token',
        defaultOrder: 'key',
      },
    );
    const first = await s.sync(T0);
    expect(first).toMatchObject({ outcome: 'ok', created: 5 });
    const stored = s.sandbox.listings('SN-1').find((l) => l.MLSNumber === 'L000001');
    expect(String(stored?.Images)).toContain('?sig=');
    const forced = await syncFeed(
      s.config,
      s.feed,
      {
        client: clientFromConfig(s.config),
        state: s.state,
        logger: silentLogger,
        now: () => new Date(T0 + HOUR),
      },
      { forceFull: true },
    );
    expect(forced.report.read).toBe(5);
    expect(writes(forced.report)).toBe(0);
    data = data.map((r, i) =>
      i === 0
        ? {
            ...r,
            PhotosChangeTimestamp: '2024-05-02T01:00:00Z',
            ModificationTimestamp: '2024-05-02T01:00:00Z',
            Media: [{ Order: 1, MediaURL: 'https://media.example/000001/new.jpg', MediaCategory: 'Photo' }],
          }
        : r,
    );
    const changed = await s.sync(T0 + 2 * HOUR);
    expect(changed).toMatchObject({ outcome: 'ok', updated: 1 });
    expect(String(s.sandbox.listings('SN-1').find((l) => l.MLSNumber === 'L000001')?.Images)).toContain(
      'new.jpg',
    );
  });
});

// A reviewer's case: the dashboard's override for a run's held deletes let them go without asking
// the provider, where --allow-mass-delete asks about every delete first.
describe('an override for held deletes', () => {
  it('asks the provider first, as any delete: those it still lists are kept', async () => {
    const data = Array.from({ length: 10 }, (_, i) => resoRecord(i + 1));
    let hide = false;
    let calls = 0;
    // The provider's main read leaves out 6 listings it still lists (the first query of each run).
    const s = await setUp(() => (hide && calls++ === 0 ? data.slice(6) : data), {
      provider: 'generic',
      mode: 'full',
    });
    const sync = (options: SyncOptions = {}) => {
      calls = 0;
      return s.sync(T0, { forceFull: true, ...options });
    };
    expect(await sync()).toMatchObject({ created: 10 });
    hide = true;
    const guarded = await sync();
    expect(guarded).toMatchObject({ outcome: 'guarded', heldDeletes: 6 });
    const allowed = await sync({
      allowDeletes: { digest: guarded.heldDeletesDigest as string, count: guarded.heldDeletes },
    });
    expect(allowed.deleted).toBe(0);
    expect(allowed.guards.find((g) => g.guard === 'still-listed')?.message).toContain('still listed');
    expect(s.keys()).toHaveLength(10);
  });
});
