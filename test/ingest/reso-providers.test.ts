import { afterEach, describe, expect, it } from 'vitest';
import type { BudgetStore } from '../../src/budget/index.ts';
import { createMemoryBudget } from '../../src/budget/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { IngestResult } from '../../src/ingest/index.ts';
import { ingestFeed } from '../../src/ingest/index.ts';
import { budgetKeyOf } from '../../src/sources/formats/reso/budget-key.ts';
import { type FeedState, mergeFeedState } from '../../src/state/state-store.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';
import { type ODataServer, type ODataServerOptions, resoRecord, startOData } from '../helpers/reso-odata.ts';

let server: ODataServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const T0 = new Date('2024-05-02T00:00:00Z');
const HOUR = 3_600_000;

async function serve(records: () => Record<string, unknown>[], options: Partial<ODataServerOptions> = {}) {
  server = await startOData({ dataset: records, ...options });
  return server;
}

/** The reso fixture feed, read from `url` with a bearer token and these `reso` options. */
const feedOf = (url: string, reso: Record<string, unknown>) =>
  fixtureFeed('reso', {
    source: {
      path: undefined,
      url: `${url}/odata`,
      auth: { type: 'bearer', token: 't0ken' },
      retries: 0,
      reso,
    },
  });

/** One run of the source, and the feed state a finished run would save (a paused one included). */
async function run(
  feed: ReturnType<typeof feedOf>,
  state: FeedState,
  at: Date,
  budget: BudgetStore,
): Promise<{ result: IngestResult; state: FeedState }> {
  const result = await ingestFeed(feed, { state, now: () => at, budgetClock: () => at, budget });
  const full = result.mode === 'full' ? { lastFullRunAt: at.toISOString() } : {};
  return { result, state: mergeFeedState(state, { ...result.sourceState, ...full }) };
}

const keys = (r: IngestResult) => r.listings.map((l) => l.MLSNumber);
const filterOf = (url: URL) => url.searchParams.get('$filter') ?? '';

describe('provider profiles in the config', () => {
  const load = (reso: string, url = 'https://api.mlsgrid.com/v2') =>
    parseConfig(
      `api: { baseUrl: http://127.0.0.1:1 }
feeds:
  - id: mls
    chatbot: SN-1
    source:
      format: reso
      url: ${url}
      auth: { type: bearer, token: "t" }
      reso: ${reso}
    mapping: { preset: reso }
`,
      { source: 'feed-sync.yaml' },
    );

  it('an MLS Grid url that is no URL is the url rule’s error, with its place (a reviewer: the refine threw)', () => {
    const bad = () =>
      load('{ provider: mlsgrid, originatingSystem: a, limits: { perSecond: 5 } }', 'api.mlsgrid.com/v2');
    expect(bad).toThrow(/feed-sync\.yaml:\d+:\d+: feeds\[0\]\.source\.url: Invalid URL/);
  });

  it("takes the issue's MLS Grid config as written", () => {
    const config = load(
      '{ provider: mlsgrid, originatingSystem: actris, mode: incremental, limits: { perSecond: 2, perHour: 7200, perDay: 40000 } }',
    );
    expect(config.feeds[0]?.source.reso).toMatchObject({ provider: 'mlsgrid', originatingSystem: 'actris' });
  });

  it.each([
    [
      '{ provider: mlsgird }',
      /feeds\[0\]\.source\.reso\.provider: Invalid option: expected one of .*"mlsgrid"/,
    ],
    [
      '{ provider: mlsgrid }',
      /feeds\[0\]\.source\.reso\.originatingSystem: provider mlsgrid reads one MLS per query: give originatingSystem/,
    ],
    [
      '{ provider: mlsgrid, originatingSystem: actris, top: 2000 }',
      /top: provider mlsgrid answers at most 1000 records per page with \$expand/,
    ],
    ['{ provider: trestle, originatingSystem: x }', /originatingSystem is MLS Grid's/],
    ['{ requestsPerSecond: 2, limits: { perSecond: 3 } }', /give limits.perSecond only/],
    [
      '{ provider: mlsgrid, originatingSystem: a, limits: { perHuor: 5 } }',
      /limits.perHuor: unknown key; did you mean perHour/,
    ],
    [
      '{ provider: mlsgrid, originatingSystem: a, limits: { perSecond: 5 } }',
      /reso\.limits\.perSecond: MLS Grid suspends a token over 2 \(limits\.perSecond, docs\.mlsgrid\.com\): 5 is above it/,
    ],
    [
      '{ provider: mlsgrid, originatingSystem: a, requestsPerSecond: 3 }',
      /reso\.requestsPerSecond: MLS Grid suspends a token over 2/,
    ],
    [
      '{ provider: mlsgrid, originatingSystem: a, limits: { perDay: 50000 } }',
      /reso\.limits\.perDay: MLS Grid suspends a token over 40000/,
    ],
  ])('refuses %s with a clear error', (reso, message) => {
    expect(() => load(reso)).toThrow(message);
  });
});

describe('MLS Grid', () => {
  const mlsgrid = (url: string, extra: Record<string, unknown> = {}) =>
    feedOf(url, { provider: 'mlsgrid', originatingSystem: 'actris', mode: 'incremental', ...extra });
  /** MLS Grid's own rules, as its docs state them: one OriginatingSystemName, `$top` ceilings, no `$orderby`. */
  const check = (params: URLSearchParams) => {
    if (!/OriginatingSystemName eq 'actris'/.test(params.get('$filter') ?? ''))
      return 'OriginatingSystemName required';
    if (params.has('$orderby')) return '$orderby is not supported';
    const top = Number(params.get('$top'));
    if (top > (params.has('$expand') ? 1000 : 5000)) return '$top too large';
    return undefined;
  };

  it('reads again, next run, from where a record that moved while the pages were read was: the record its paging skipped is read', async () => {
    const when = (h: number) => new Date(T0.getTime() - 24 * HOUR + h * HOUR);
    const at = (h: number) => when(h).toISOString();
    let data = Array.from({ length: 9 }, (_, i) => resoRecord(i + 1, { ModificationTimestamp: at(i) }));
    let movedAfterFirstPage = false;
    const odata = await serve(() => data, {
      check,
      // After the first page of the second run, record 2 changes: it moves to the end of the
      // timestamp order, and `$skip` paging skips the record after its old place.
      fault: (_n, url) => {
        if (movedAfterFirstPage && url.searchParams.get('$skip') === '3') {
          movedAfterFirstPage = false;
          data = data.map((r) =>
            r.ListingKey === 'ACT000002' ? { ...r, ListPrice: 1, ModificationTimestamp: at(22) } : r,
          );
        }
        return undefined;
      },
    });
    const budget = createMemoryBudget();
    const feed = mlsgrid(odata.url, { top: 3, overlapMinutes: 1 });
    const first = await run(feed, {}, when(10), budget);
    expect(keys(first.result)).toHaveLength(9);
    // Changes before the second run: records 2 to 5, in this order of time.
    data = data.map((r, i) =>
      i >= 1 && i <= 4 ? { ...r, ListPrice: 900_000 + i, ModificationTimestamp: at(12 + i) } : r,
    );
    movedAfterFirstPage = true;
    const second = await run(feed, first.state, when(23), budget);
    // Page 1: 9, 2, 3 (9 within the overlap); then 2 moved to the end: page 2 is 5, 2, and 4 was
    // skipped.
    expect(keys(second.result).sort()).toEqual(['L000002', 'L000003', 'L000005', 'L000009']);
    const third = await run(feed, second.state, when(23.5), budget);
    const four = third.result.listings.find((l) => l.MLSNumber === 'L000004');
    expect(four?.SalePrice).toBe(900_003);
  });

  it('ends with a key sweep when a deletion marker has no ListingId (ListingKey alone): its listing is found gone', async () => {
    let data = Array.from({ length: 5 }, (_, i) => resoRecord(i + 1));
    const odata = await serve(() => data, { check });
    const budget = createMemoryBudget();
    const feed = mlsgrid(odata.url);
    const first = await run(feed, {}, T0, budget);
    expect(keys(first.result)).toHaveLength(5);
    // A sparse marker: what MLS Grid may send for a record no longer to be shown.
    data = data.map((r, i) =>
      i === 1
        ? {
            ListingKey: r.ListingKey,
            OriginatingSystemName: 'actris',
            MlgCanView: false,
            ModificationTimestamp: '2024-05-02T01:00:00Z',
          }
        : r,
    );
    const second = await run(feed, first.state, new Date(T0.getTime() + 2 * HOUR), budget);
    expect(second.result.mode).toBe('full');
    expect(second.result.present?.has('L000001')).toBe(true);
    expect(second.result.present?.has('L000002')).toBe(false);
    expect(second.result.present?.size).toBe(4);
    // The marker's removal is not made by its ListingKey: another listing's ListingId may be that.
    expect([...second.result.removals]).not.toContain('ACT000002');
  });

  it('imports with MlgCanView eq true, then reads changes with MlgCanView false as deletions', async () => {
    let data = Array.from({ length: 5 }, (_, i) => resoRecord(i + 1));
    const odata = await serve(() => data, { check });
    const budget = createMemoryBudget();
    const first = await run(mlsgrid(odata.url), {}, T0, budget);
    expect(first.result.mode).toBe('full');
    expect(keys(first.result)).toHaveLength(5);
    const q = odata.queries[0]!;
    expect(filterOf(q)).toBe("OriginatingSystemName eq 'actris' and MlgCanView eq true");
    expect(q.searchParams.get('$top')).toBe('1000');
    expect(q.searchParams.get('$expand')).toBe('Media');
    // Photos only, in Order; the photo stamp travels with the listing.
    const one = first.result.listings.find((l) => l.MLSNumber === 'L000001');
    expect(one?.Images).toEqual(['https://media.example/000001/1.jpg', 'https://media.example/000001/2.jpg']);
    expect(one?.ExtensionColumn).toContainEqual({
      Key: 'feed-sync:photos',
      value: '2024-04-01T10:00:00.000Z',
    });

    data = data.map((r, i) =>
      i === 1
        ? { ...r, MlgCanView: false, ModificationTimestamp: '2024-05-02T01:00:00Z' }
        : i === 2
          ? { ...r, ListPrice: 1, ModificationTimestamp: '2024-05-02T01:00:00Z' }
          : r,
    );
    const later = new Date(T0.getTime() + 2 * HOUR);
    const second = await run(mlsgrid(odata.url, { sweepEveryHours: 0 }), first.state, later, budget);
    expect(second.result.mode).toBe('incremental');
    const q2 = odata.queries.at(-1)!;
    expect(filterOf(q2)).toBe(
      "OriginatingSystemName eq 'actris' and ModificationTimestamp gt 2024-05-01T09:45:00.000Z",
    );
    expect(second.result.removals).toEqual(['L000002']);
    // The overlap re-reads the last 15 minutes: unchanged records come back, and the plan writes nothing for them.
    expect(keys(second.result).sort()).toEqual(['L000001', 'L000003', 'L000004', 'L000005']);
    expect(second.result.listings.find((l) => l.MLSNumber === 'L000003')?.SalePrice).toBe(1);
  });

  it('reads a first import in parts of recordsPerRun, each from the last page, never losing or repeating tied records', async () => {
    // 250 records, 120 of them modified in the same instant across page boundaries.
    const data = Array.from({ length: 250 }, (_, i) =>
      resoRecord(i + 1, {
        ModificationTimestamp:
          i < 60
            ? new Date(Date.parse('2024-04-01T00:00:00Z') + i * 1000).toISOString()
            : i < 180
              ? '2024-04-02T00:00:00Z'
              : new Date(Date.parse('2024-04-03T00:00:00Z') + (i - 180) * 60_000).toISOString(),
      }),
    );
    const odata = await serve(() => data, { check });
    const budget = createMemoryBudget();
    const feed = mlsgrid(odata.url, { top: 40, recordsPerRun: 100 });
    const seen: string[] = [];
    let state: FeedState = {};
    const runs: IngestResult[] = [];
    for (let i = 0; i < 10; i++) {
      const next = await run(feed, state, new Date(T0.getTime() + i * 60_000), budget);
      runs.push(next.result);
      seen.push(...keys(next.result));
      state = next.state;
      if (!next.result.continues) break;
    }
    // A run stops at the first page boundary past 100 records it had not read before.
    expect(runs.map((r) => r.stats.records)).toEqual([120, 100, 30]);
    // Parts of a full read delete nothing; the last part ends with a key sweep, a full plan over its keys.
    expect(runs.map((r) => r.mode)).toEqual(['incremental', 'incremental', 'full']);
    expect(runs[2]?.present?.size).toBe(250);
    expect(runs[2]?.present?.has('L000042')).toBe(true);
    expect(runs.map((r) => r.continues ?? false)).toEqual([true, true, false]);
    expect(new Set(seen).size).toBe(250);
    expect(seen).toHaveLength(250);
    // The second run goes on from the tied instant, skipping the keys it read there.
    const resumed = odata.queries.find((q) => filterOf(q).includes(' ge '))!;
    expect(filterOf(resumed)).toBe(
      "OriginatingSystemName eq 'actris' and MlgCanView eq true and ModificationTimestamp ge 2024-04-02T00:00:00.000Z",
    );
    // Done: no checkpoint; the watermark is the newest record; the sweep is recorded.
    expect(state.resoCheckpoint).toBeUndefined();
    expect(state.resoWatermark).toBe('2024-04-03T01:09:00.000Z');
    expect(state.resoSweepAt).toBe(new Date(T0.getTime() + 2 * 60_000).toISOString());
    const sweep = odata.queries.at(-1)!;
    expect(sweep.searchParams.get('$select')).toBe('ListingKey,ModificationTimestamp,ListingId');
    expect(sweep.searchParams.get('$top')).toBe('5000');
    expect(filterOf(sweep)).toBe("OriginatingSystemName eq 'actris' and MlgCanView eq true");
    expect(runs[2]?.sourceNote).toMatch(
      /full read: 30 this run, 250 records in 3 runs, complete; key sweep: 250 keys/,
    );
  });

  it('a server that caps pages at 1,000 (a proxy): the sweep asks the feed’s own page size, and a refusal says the server’s words', async () => {
    const data = Array.from({ length: 30 }, (_, i) => resoRecord(i + 1));
    const capped = (params: URLSearchParams) =>
      check(params) ?? (Number(params.get('$top')) > 1000 ? '$top must be at most 1000' : undefined);
    const odata = await serve(() => data, { check: capped });
    const budget = createMemoryBudget();
    const first = await run(mlsgrid(odata.url, { top: 1000 }), {}, T0, budget);
    const later = new Date(T0.getTime() + 2 * HOUR);
    const { result } = await run(
      mlsgrid(odata.url, { top: 1000, sweepEveryHours: 1 }),
      first.state,
      later,
      budget,
    );
    expect(result.mode).toBe('full');
    expect(odata.queries.map((q) => q.searchParams.get('$top'))).toEqual(['1000', '1000', '5000', '1000']);
    expect(result.present?.size).toBe(30);
    // A query the server refuses names what it said, not only the status.
    await server?.close();
    const strict = await serve(() => data, {
      check: (params) => (Number(params.get('$top')) > 100 ? '$top must be at most 100' : undefined),
    });
    const refused = await run(
      feedOf(strict.url, { provider: 'generic', top: 200 }),
      {},
      T0,
      createMemoryBudget(),
    ).catch((e: unknown) => e as Error);
    expect((refused as Error).message).toMatch(
      /after 1 attempt: HTTP 400: the server said "\$top must be at most 100"$/,
    );
  });
});

describe('every provider', () => {
  it('honours MLS Grid’s deletion marker passed through (a new user’s proxy): MlgCanView false is a removal, not a listing', async () => {
    const data = Array.from({ length: 3 }, (_, i) => resoRecord(i + 1));
    data[1] = { ...data[1]!, MlgCanView: false };
    const odata = await serve(() => data);
    const { result } = await run(feedOf(odata.url, { provider: 'generic' }), {}, T0, createMemoryBudget());
    expect(keys(result).sort()).toEqual(['L000001', 'L000003']);
    expect(result.removals).toEqual(['L000002']);
  });
});

describe('budgets', () => {
  it('stops before the request that would exceed the hourly budget, and the next run goes on from there', async () => {
    const data = Array.from({ length: 10 }, (_, i) =>
      resoRecord(i + 1, { ModificationTimestamp: `2024-04-01T00:0${i}:00Z` }),
    );
    const odata = await serve(() => data);
    const budget = createMemoryBudget();
    const feed = feedOf(odata.url, { top: 2, limits: { perSecond: 50, perHour: 3 } });
    const first = await run(feed, {}, T0, budget);
    expect(odata.queries).toHaveLength(3);
    expect(first.result.stats.records).toBe(6);
    expect(first.result.mode).toBe('incremental');
    expect(first.result.pause).toEqual({
      resumesAt: new Date(T0.getTime() + HOUR + 61_000).toISOString(),
      reason: expect.stringMatching(/per-hour budget is spent until/),
    });
    expect(first.state.resoCheckpoint).toMatchObject({ kind: 'full', records: 6, pages: 3 });
    // Still spent a minute later: nothing is sent.
    const early = await run(feed, first.state, new Date(T0.getTime() + 60_000), budget);
    expect(odata.queries).toHaveLength(3);
    expect(early.result.stats.records).toBe(0);
    expect(early.result.pause?.resumesAt).toBe(first.result.pause?.resumesAt);
    const resumed = await run(feed, early.state, new Date(T0.getTime() + HOUR + 61_000), budget);
    expect(resumed.result.stats.records).toBe(4);
    expect(new Set([...keys(first.result), ...keys(resumed.result)]).size).toBe(10);
    expect(filterOf(odata.queries[3]!)).toBe('ModificationTimestamp ge 2024-04-01T00:05:00.000Z');
    // The read is complete; the key sweep a full read over several runs ends with does not fit the
    // hour: it is owed to the next run, and nothing is deleted meanwhile.
    expect(odata.queries).toHaveLength(6);
    expect(resumed.state.resoCheckpoint).toBeUndefined();
    expect(resumed.state.resoSweepDue).toBe(true);
    expect(resumed.result.present).toBeUndefined();
    expect(resumed.result.sourceNote).toMatch(/key sweep not finished .*owed to the next run/);
  });

  it('a run at a clock of the user’s (`--now`) counts its requests at the real time, not its own', async () => {
    const data = Array.from({ length: 4 }, (_, i) => resoRecord(i + 1));
    const odata = await serve(() => data);
    const budget = createMemoryBudget();
    const feed = feedOf(odata.url, { top: 2, limits: { perSecond: 50, perHour: 100 } });
    // The run pretends it is 2030; the budget other processes share knows it is now.
    const pretend = Date.parse('2030-01-01T00:00:00Z');
    const result = await ingestFeed(feed, { state: {}, now: () => new Date(pretend), budget });
    expect(result.stats.records).toBe(4);
    const key = budgetKeyOf(feed.source);
    expect((await budget.usage(key, Date.now())).hour).toBe(odata.queries.length);
    // Not in 2030's day: a later run at the real clock is not held back by times to come.
    expect((await budget.usage(key, pretend + 12 * HOUR)).day).toBe(0);
  });

  it('reads the rate headers a provider announces: a spent burst budget pauses every run on the key', async () => {
    const data = Array.from({ length: 6 }, (_, i) => resoRecord(i + 1));
    const odata = await serve(() => data, {
      headers: (n) => ({
        'Burst-RateLimit-Limit': '3',
        'Burst-RateLimit-Remaining': String(Math.max(0, 2 - n)),
        'Burst-RateLimit-Reset': '120',
      }),
    });
    const budget = createMemoryBudget();
    const feed = feedOf(odata.url, { provider: 'bridge', top: 2 });
    const first = await run(feed, {}, T0, budget);
    expect(odata.queries).toHaveLength(2);
    expect(first.result.pause?.reason).toMatch(/provider's announced budget is spent/);
    // Another feed on the same key waits too.
    const other = await run(
      feedOf(odata.url, { provider: 'bridge', top: 2, filter: "City eq 'Austin'" }),
      {},
      T0,
      budget,
    );
    expect(other.result.stats.records).toBe(0);
    expect(odata.queries).toHaveLength(2);
  });
});

describe('an endpoint with a query of its own', () => {
  it("keeps it as a query on every request (Bridge's ?access_token=): the records read, not a 404", async () => {
    const data = Array.from({ length: 5 }, (_, i) => resoRecord(i + 1));
    const odata = await serve(() => data);
    const feed = fixtureFeed('reso', {
      source: { path: undefined, url: `${odata.url}/odata?access_token=t0ken`, retries: 0, reso: { top: 2 } },
    });
    const { result } = await run(feed, {}, T0, createMemoryBudget());
    expect(keys(result)).toHaveLength(5);
    expect(odata.queries.length).toBeGreaterThan(0);
    for (const url of odata.queries.slice(0, 1)) {
      expect(url.pathname).toBe('/odata/Property');
      expect(url.searchParams.get('access_token')).toBe('t0ken');
    }
  });
});

describe("a provider's record in messages", () => {
  it("is named by its ListingKey and the endpoint (no query), not its place in this answer nor the URL's last segment", async () => {
    const data = Array.from({ length: 4 }, (_, i) =>
      resoRecord(i + 1, i === 2 ? { BedroomsTotal: 'two' } : {}),
    );
    const odata = await serve(() => data);
    const feed = fixtureFeed('reso', {
      source: { path: undefined, url: `${odata.url}/odata?access_token=t0ken`, retries: 0, reso: { top: 2 } },
    });
    const { result } = await run(feed, {}, T0, createMemoryBudget());
    const host = new URL(odata.url).host;
    expect(result.rejections.map((r) => r.message)).toEqual([
      `Record ListingKey ACT000003 of ${host}/odata (MLSNumber L000003): Bedrooms "two" is not a number`,
    ]);
  });
});

describe('Trestle', () => {
  it('replicates the whole feed with replication=true to its empty last page, and goes on from the last page read when a link expired', async () => {
    const data = Array.from({ length: 9 }, (_, i) => resoRecord(i + 1));
    let links = 0;
    const odata = await serve(() => data, {
      paging: 'token',
      emptyLastPage: true,
      defaultOrder: 'key',
      // The second replication link has expired by the time it is followed.
      fault: (_n, url) =>
        url.pathname.endsWith('/replication') && ++links === 2 ? { status: 404 } : undefined,
    });
    const feed = feedOf(odata.url, { provider: 'trestle', top: 3 });
    const result = await ingestFeed(feed, { state: {}, now: () => T0, budget: createMemoryBudget() });
    expect(keys(result)).toHaveLength(9);
    expect(new Set(keys(result)).size).toBe(9);
    expect(result.mode).toBe('full');
    const first = odata.queries[0]!;
    expect(first.searchParams.get('replication')).toBe('true');
    expect(first.searchParams.get('$orderby')).toBe('ListingKey asc');
    const restart = odata.queries.find((q) => filterOf(q).includes('ListingKey gt'))!;
    expect(filterOf(restart)).toBe("ListingKey gt 'ACT000006'");
    expect(restart.searchParams.get('replication')).toBe('true');
  });
});

describe('Spark', () => {
  it('goes on from the saved $skiptoken link of a replication cut by recordsPerRun', async () => {
    const data = Array.from({ length: 7 }, (_, i) => resoRecord(i + 1));
    const odata = await serve(() => data, { defaultOrder: 'key' });
    const budget = createMemoryBudget();
    const feed = feedOf(odata.url, { provider: 'spark', top: 3, recordsPerRun: 3 });
    const first = await run(feed, {}, T0, budget);
    expect(first.result.continues).toBe(true);
    expect(odata.queries[0]!.searchParams.has('$orderby')).toBe(false);
    const link = (first.state.resoCheckpoint as { nextLink: string }).nextLink;
    const second = await run(feed, first.state, T0, budget);
    expect(odata.queries[1]!.toString()).toBe(link);
    expect([...keys(first.result), ...keys(second.result)]).toHaveLength(6);
  });
});
