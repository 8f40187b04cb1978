import { describe, expect, it } from 'vitest';
import type { FeedConfig } from '../../config/index.ts';
import type { RunReport } from '../../reconcile/index.ts';
import { outcomeLabel, summarizeFeed } from './feed-summary.ts';
import { feedsPage, liveText } from './feeds-page.ts';
import { rejectionsCsv } from './rejections-csv.ts';

const feed = (schedule?: { cron: string; timezone: string }) =>
  ({ id: 'acme', chatbot: 'BOT', enabled: true, ...(schedule ? { schedule } : {}) }) as FeedConfig;
const report = (patch: Partial<RunReport>) =>
  ({
    feedId: 'acme',
    outcome: 'ok',
    finishedAt: '2026-11-23T10:00:00Z',
    dryRun: false,
    created: 1,
    updated: 2,
    unchanged: 3,
    deleted: 0,
    read: 6,
    rejected: 0,
    held: 0,
    skipped: [],
    ...patch,
  }) as RunReport;
const hourly = { cron: '0 * * * *', timezone: 'UTC' };

describe('summarizeFeed', () => {
  it.each([
    ['ok', report({}), 'ok'],
    ['rejected records make it partial', report({ rejected: 2 }), 'partial'],
    ['held listings make it partial', report({ held: 1 }), 'partial'],
    [
      'keys skipped for a feed id the config lacks make it partial',
      report({ skippedUnknownOwner: 3 }),
      'partial',
    ],
    ['guarded reads as guard tripped', report({ outcome: 'guarded' }), 'guard tripped'],
    ['no report', undefined, 'never run'],
  ])('%s', (_name, last, label) => {
    expect(outcomeLabel(last)).toBe(label);
  });

  it('a feed not run for twice its interval is stale and stands out', () => {
    const last = report({ finishedAt: '2026-11-23T10:00:00Z' });
    expect(summarizeFeed(feed(hourly), { last, owned: 6 }, new Date('2026-11-23T11:30:00Z'))).toMatchObject({
      stale: false,
      attention: false,
      owned: 6,
      counts: { read: 6, accepted: 6, rejected: 0, held: 0 },
    });
    expect(summarizeFeed(feed(hourly), { last }, new Date('2026-11-23T12:30:00Z'))).toMatchObject({
      stale: true,
      attention: true,
    });
    expect(summarizeFeed(feed(), { last }, new Date('2030-01-01T00:00:00Z')).stale).toBe(false);
  });

  it('a run that skipped the unchanged feed leaves the feed where the last read left it (a held listing stood behind "all healthy")', () => {
    const read = report({ finishedAt: '2026-11-23T09:00:00Z', rejected: 1, held: 1, read: 6, outcome: 'ok' });
    const skipped = report({
      finishedAt: '2026-11-23T10:00:00Z',
      outcome: 'skipped',
      read: 0,
      rejected: 0,
      held: 0,
    });
    const at = new Date('2026-11-23T10:05:00Z');
    const summary = summarizeFeed(feed(hourly), { last: skipped, lastRead: read }, at);
    expect(summary.counts).toMatchObject({ rejected: 1, held: 1 });
    expect(summary.outcome).toBe(outcomeLabel(read));
    expect(summary.last).toBe(skipped);
    // The row says when the feed was read and how long that took, and the check since (a tester read
    // "ok just now · 11 ms" beside an earlier run's counts).
    const page = String(
      feedsPage({ rows: [summary], sort: 'id', descending: false, live: new Map(), readOnly: true, now: at }),
    );
    expect(page).toContain('>1 h ago · ');
    expect(page).toContain('>unchanged since: checked 5 min ago</div>');
    // A skip that read nothing (a provider's budget spent) is not "unchanged" (a reviewer).
    const spent = summarizeFeed(
      feed(hourly),
      { last: { ...skipped, reason: 'nothing read: the provider budget is spent' }, lastRead: read },
      at,
    );
    const spentPage = String(
      feedsPage({ rows: [spent], sort: 'id', descending: false, live: new Map(), readOnly: true, now: at }),
    );
    expect(spentPage).toContain(
      '>skipped since (5 min ago): nothing read: the provider budget is spent</div>',
    );
  });

  it('owns what the last run that could tell left, through runs that skipped the unchanged feed', () => {
    const at = new Date('2026-11-23T10:05:00Z');
    const skipped = report({ outcome: 'skipped', created: 0, updated: 0, unchanged: 0, read: 0 });
    expect(summarizeFeed(feed(), { last: skipped, owned: 2000 }, at)).toMatchObject({ owned: 2000 });
    // State saved before it kept `owned`: the last report's, where it can tell.
    const snapshot = { remoteCount: 6, pages: 1, pageSize: 100, requestedPageSize: 100 };
    const compared = report({ mode: 'full', snapshot, failed: [], guards: [] });
    expect(summarizeFeed(feed(), { last: compared }, at).owned).toBe(6);
    expect(summarizeFeed(feed(), { last: skipped }, at).owned).toBeUndefined();
  });

  it('a feed never run is not stale: added a minute ago, its first run may be hours away', () => {
    const fresh = summarizeFeed(feed(hourly), {}, new Date('2026-11-23T10:05:00Z'));
    expect(fresh).toMatchObject({ outcome: 'never run', stale: false, attention: false });
  });

  it('the feeds page is "all healthy" only without partial runs (a new user read it beside 3 of 4 records rejected)', () => {
    const at = new Date('2026-11-23T10:05:00Z');
    const view = (rows: ReturnType<typeof summarizeFeed>[]) =>
      String(feedsPage({ rows, sort: 'id', descending: false, live: new Map(), readOnly: true, now: at }));
    const ok = summarizeFeed(feed(), { last: report({}) }, at);
    const partial = summarizeFeed(
      { ...feed(), id: 'eu' } as FeedConfig,
      { last: report({ feedId: 'eu', rejected: 3 }) },
      at,
    );
    expect(view([ok])).toContain('1 feeds · all healthy');
    expect(view([ok, partial])).toContain(
      '2 feeds · <span class="warn">1 partial (records rejected or held)</span>',
    );
    const failed = summarizeFeed(feed(hourly), { last: report({ outcome: 'failed' }) }, at);
    expect(view([failed, partial])).toContain('<span class="warn">1 need attention</span> · 1 partial');
  });

  it('a failed last run stands out', () => {
    const failed = summarizeFeed(
      feed(hourly),
      { last: report({ outcome: 'failed' }) },
      new Date('2026-11-23T10:05:00Z'),
    );
    expect(failed).toMatchObject({ outcome: 'failed', stale: false, attention: true });
  });
});

describe('rejectionsCsv', () => {
  it('quotes what needs quoting and defuses spreadsheet formulas', () => {
    const csv = rejectionsCsv([
      {
        feedId: 'a',
        row: 3,
        index: 1,
        key: 'K',
        field: 'Bedrooms',
        value: 'three',
        reason: 'not_a_number',
        message: 'Row 3: "three", no',
      },
      { feedId: 'a', index: 4, value: '=HYPERLINK("x")', reason: 'missing', message: 'm' },
    ]);
    expect(csv).toBe(
      'row,key,field,value,reason,message\r\n3,K,Bedrooms,three,not_a_number,"Row 3: ""three"", no"\r\n,,,"\'=HYPERLINK(""x"")",missing,m\r\n',
    );
  });

  it("says every problem of a record, the first's message then the others", () => {
    const problems = [
      {
        field: 'SalePrice',
        value: '450.000',
        reason: 'not_a_number',
        message: 'SalePrice "450.000" could be read two ways',
      },
      {
        field: 'LotArea',
        value: '1.649',
        reason: 'not_a_number',
        message: 'LotArea "1.649" could be read two ways',
      },
    ];
    const csv = rejectionsCsv([
      {
        feedId: 'a',
        row: 2,
        index: 0,
        key: 'ES-1',
        field: 'SalePrice',
        value: '450.000',
        reason: 'not_a_number',
        message: 'Row 2: SalePrice "450.000" could be read two ways',
        problems,
      },
    ]);
    expect(csv.split('\r\n')[1]).toBe(
      '2,ES-1,SalePrice,450.000,not_a_number,"Row 2: SalePrice ""450.000"" could be read two ways; also LotArea ""1.649"" could be read two ways"',
    );
  });
});

describe('liveText', () => {
  it('says where a run is: phase, percent, counts, rate and ETA', () => {
    expect(liveText({ state: 'waiting' })).toBe('queued…');
    expect(
      liveText({
        state: 'active',
        progress: { phase: 'applying', done: 120, total: 360 },
        rate: '35/s · ETA 8s',
      }),
    ).toBe('applying 60% 120/360 · 35/s · ETA 8s');
    expect(liveText({ state: 'active', progress: { phase: 'snapshot', done: 0, total: 0 } })).toBe(
      'snapshot 25%',
    );
    expect(liveText({ state: 'active' })).toBe('running…');
  });
});
