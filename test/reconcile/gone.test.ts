import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvFeedConfig, csvRow, useCliFeed } from '../helpers/cli-feed.ts';

// Real CSV files through the real CLI, against the sandbox: what a listing that leaves the feed becomes.
const BOT = 'GONE-BOT';
const gone = (yaml: string) => (url: string) =>
  csvFeedConfig(url, { id: 'gone-feed', chatbot: BOT, feed: yaml });
const row = (n: number, price = 300_000) => csvRow(n, { price, host: 'gone.example' });
const rows = (ns: number[]) => ns.map((n) => row(n)).join('');
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** A well-formed row whose MLS number is not assigned yet (a coming-soon listing). */
const NO_KEY = ',Active,Condo,410000,3,2,1200,0,2024,0,1,https://gone.example/l/coming-soon\n';

describe('a row without a key holds nothing: listings that leave the feed leave the chatbot', () => {
  const t = useCliFeed(gone(''));
  const keys = () =>
    t.sandbox
      .listings(BOT)
      .map((l) => l.MLSNumber)
      .sort();

  it('a 46-listing feed with one keyless row deletes the three listings it dropped, and converges', async () => {
    await t.feed(rows(range(1, 46)));
    expect(await t.cli('sync', '--feed', 'gone-feed')).toBe(0);
    expect(keys()).toHaveLength(46);

    // Day 2: M-10, M-20 and M-30 sold and left the export; a coming-soon row has no MLS number yet.
    const kept = range(1, 46).filter((n) => ![10, 20, 30].includes(n));
    await t.feed(rows(kept) + NO_KEY);
    t.reset();
    // Exit 4: synced, one record rejected. Not 3: no guard holds the deletes.
    expect(await t.cli('sync', '--feed', 'gone-feed')).toBe(4);
    expect(t.out()).toContain('deleted 3');
    expect(t.out()).toMatch(/Row 45 of feed.csv: MLSNumber .*missing/);
    expect(t.out()).toContain(
      '1 rejected record(s) had no readable key: such a row, like a broken one, holds only the listings whose keys appear in its cells',
    );
    expect(t.out()).toContain('guard unkeyed-rejections: ok — 1 of 44 record(s) (2.3%) have no readable key');
    expect(t.out()).toContain('no reason to hold back deleting the 3 listing(s) gone from the feed');
    expect(keys()).toEqual(kept.map((n) => `M-${n}`).sort());

    // The next run writes nothing: the feed and the chatbot agree.
    t.reset();
    expect(await t.cli('sync', '--feed', 'gone-feed', '--json')).toBe(4);
    expect(JSON.parse(t.out())).toMatchObject({
      created: 0,
      updated: 0,
      deleted: 0,
      unchanged: 43,
      rejected: 1,
      rejectedWithoutKey: 1,
      heldDeletes: 0,
      outcome: 'ok',
    });
  });

  it('a file whose every key is blank deletes nothing', async () => {
    await t.feed(rows([1, 2, 3]));
    expect(await t.cli('sync', '--feed', 'gone-feed')).toBe(0);
    const before = t.sandbox.listings(BOT);
    await t.feed(rows([1, 2, 3]).replace(/^M-\d+/gm, ''));
    t.reset();
    expect(await t.cli('sync', '--feed', 'gone-feed')).toBe(3);
    expect(t.out()).toContain('guard empty-feed: TRIPPED');
    expect(t.sandbox.listings(BOT)).toEqual(before);
  });

  it('more keyless rows than maxDeleteShare of the file is a broken export: gone deletes wait', async () => {
    await t.feed(rows(range(1, 10)));
    expect(await t.cli('sync', '--feed', 'gone-feed')).toBe(0);
    // Six of the ten rows lost their MLS number and their URL: the export is broken, not six
    // listings sold.
    await t.feed(rows(range(1, 4)) + rows(range(5, 10)).replace(/M-\d+/g, ''));
    t.reset();
    expect(await t.cli('sync', '--feed', 'gone-feed')).toBe(3);
    expect(t.out()).toMatch(
      /guard unkeyed-rejections: TRIPPED — 6 of 10 record\(s\) \(60%\) have no readable key/,
    );
    expect(keys()).toHaveLength(10);
    // The key cell alone blank, the URL still naming each listing: each row holds its own, nothing
    // to delete (a tester: a blank MLS cell deleted the listing as gone).
    await t.feed(rows(range(1, 4)) + rows(range(5, 10)).replace(/^M-\d+/gm, ''));
    t.reset();
    expect(await t.cli('sync', '--feed', 'gone-feed')).toBe(4);
    expect(t.out()).toMatch(/key appears in row \d+ of feed\.csv, which has no MLSNumber/);
    expect(keys()).toHaveLength(10);
  });
});

describe('gone.afterDays: a listing missing from the feed is kept for its grace', () => {
  const t = useCliFeed(gone('maxDeleteShare: 0.5\n    gone: { afterDays: 3 }'));
  const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T09:00:00Z`;

  it('kept and reported for three days, back without a write, then deleted by the first run after', async () => {
    await t.feed(rows([1, 2, 3, 4]));
    expect(await t.cli('sync', '--feed', 'gone-feed', '--now', day(1))).toBe(0);
    const m4 = t.sandbox.listings(BOT).find((l) => l.MLSNumber === 'M-4');

    // Day 2: M-3 and M-4 missing. Both kept exactly as they are, reported with when they will go.
    await t.feed(rows([1, 2]));
    t.reset();
    expect(await t.cli('sync', '--feed', 'gone-feed', '--now', day(2), '--json')).toBe(0);
    const day2 = JSON.parse(t.out());
    expect(day2).toMatchObject({ deleted: 0, inGrace: 2, outcome: 'ok' });
    expect(day2.graceKeys).toEqual([
      expect.objectContaining({
        key: 'M-3',
        since: '2026-11-02T09:00:00.000Z',
        until: '2026-11-05T09:00:00.000Z',
      }),
      expect.objectContaining({ key: 'M-4', since: '2026-11-02T09:00:00.000Z', action: 'delete' }),
    ]);
    expect(t.sandbox.listings(BOT).find((l) => l.MLSNumber === 'M-4')).toEqual(m4);
    const state = JSON.parse(await readFile(join(t.dir, 'state.json'), 'utf8'));
    expect(JSON.stringify(state)).toContain('"M-4":"2026-11-02T09:00:00.000Z"');

    // Day 3: M-4 is back: nothing is written, it keeps its platform ID. `plan` shows M-3's grace.
    await t.feed(rows([1, 2, 4]));
    t.reset();
    expect(await t.cli('plan', '--feed', 'gone-feed', '--now', day(3))).toBe(0);
    expect(t.out()).toMatch(
      /⏳ grace {3}M-3 {2}\(ID \d+\): gone from the feed since 2026-11-02 09:00 UTC; deleted from 2026-11-05 09:00 UTC/,
    );
    expect(t.out()).toContain('Plan: 0 to create, 0 to update, 0 to delete, 3 unchanged');
    t.reset();
    expect(await t.cli('sync', '--feed', 'gone-feed', '--now', day(3), '--json')).toBe(0);
    expect(JSON.parse(t.out())).toMatchObject({ created: 0, updated: 0, deleted: 0, inGrace: 1 });
    expect(t.sandbox.listings(BOT).find((l) => l.MLSNumber === 'M-4')).toEqual(m4);

    // Day 5 at 09:00, three days after M-3 was first missed: the first run after the grace deletes it.
    t.reset();
    expect(await t.cli('sync', '--feed', 'gone-feed', '--now', day(5), '--json')).toBe(0);
    expect(JSON.parse(t.out())).toMatchObject({ deleted: 1, inGrace: 0 });
    expect(
      t.sandbox
        .listings(BOT)
        .map((l) => l.MLSNumber)
        .sort(),
    ).toEqual(['M-1', 'M-2', 'M-4']);
    const after = JSON.parse(await readFile(join(t.dir, 'state.json'), 'utf8'));
    expect(JSON.stringify(after)).not.toContain('goneSince');
    // A run at a --now of the user's records no compare time: scheduled runs are not told to skip.
    expect(JSON.stringify(after)).not.toContain('lastCompareAt');
  });
});

describe('gone.action: markSold', () => {
  const t = useCliFeed(gone('maxDeleteShare: 0.5\n    gone: { action: markSold }'));
  const stored = (key: string) => t.sandbox.listings(BOT).find((l) => l.MLSNumber === key);

  it('marks a listing that left the feed Sold once, nothing else changes; back in the feed it is Active again', async () => {
    await t.feed(rows([1, 2, 3]));
    expect(await t.cli('sync', '--feed', 'gone-feed', '--now', '2026-11-01')).toBe(0);
    const before = stored('M-3');
    expect(before?.Status).toBe('Active');

    await t.feed(rows([1, 2]));
    t.reset();
    expect(await t.cli('sync', '--feed', 'gone-feed', '--now', '2026-11-02')).toBe(0);
    expect(t.out()).toContain('1 listing(s) gone from the feed marked Sold');
    expect(stored('M-3')).toEqual({ ...before, Status: 'Sold' });
    t.reset();
    // Once: the next run writes nothing, the listing stays Sold for its 30 days.
    expect(await t.cli('sync', '--feed', 'gone-feed', '--now', '2026-11-03', '--json')).toBe(0);
    expect(JSON.parse(t.out())).toMatchObject({ updated: 0, deleted: 0, markedSold: 0, inGrace: 1 });

    await t.feed(rows([1, 2, 3]));
    t.reset();
    expect(await t.cli('sync', '--feed', 'gone-feed', '--now', '2026-11-04', '--json')).toBe(0);
    const back = JSON.parse(t.out());
    expect(back).toMatchObject({ updated: 1, deleted: 0, inGrace: 0 });
    expect(back.changes).toEqual([
      expect.objectContaining({
        key: 'M-3',
        op: 'update',
        fields: [{ field: 'Status', from: 'Sold', to: 'Active' }],
      }),
    ]);
    expect(stored('M-3')).toEqual(before);
  });

  it('a mark a guard holds back is not reported Sold, and its grace does not begin', async () => {
    await t.feed(rows([1, 2, 3, 4, 5]));
    await t.cli('sync', '--feed', 'gone-feed', '--now', '2026-11-01');
    // Three of five gone at once: 60%, above maxDeleteShare 0.5.
    await t.feed(rows([1, 2]));
    t.reset();
    expect(await t.cli('sync', '--feed', 'gone-feed', '--now', '2026-11-02', '--json')).toBe(3);
    const report = JSON.parse(t.out());
    expect(report).toMatchObject({ markedSold: 0, inGrace: 0, heldDeletes: 3, outcome: 'guarded' });
    expect(report.guards.find((g: { guard: string }) => g.guard === 'max-delete-share').message).toMatch(
      /^refusing: marking Sold 3 of 5 owned listings/,
    );
    expect(stored('M-3')?.Status).toBe('Active');
    const state = JSON.parse(await readFile(join(t.dir, 'state.json'), 'utf8'));
    expect(JSON.stringify(state)).not.toContain('goneSince');
    t.reset();
    await t.cli('plan', '--feed', 'gone-feed', '--now', '2026-11-02');
    expect(t.out()).toMatch(/! held {4}M-3 {2}\(ID \d+\): gone from the feed, mark Sold held by a guard/);
  });

  it('deletes the Sold listing after afterDays (30 by default)', async () => {
    await t.feed(rows([1, 2, 3]));
    await t.cli('sync', '--feed', 'gone-feed', '--now', '2026-11-01');
    await t.feed(rows([1, 2]));
    await t.cli('sync', '--feed', 'gone-feed', '--now', '2026-11-02');
    expect(stored('M-3')?.Status).toBe('Sold');
    t.reset();
    expect(await t.cli('sync', '--feed', 'gone-feed', '--now', '2026-12-01', '--json')).toBe(0);
    expect(JSON.parse(t.out())).toMatchObject({ deleted: 0, inGrace: 1 });
    t.reset();
    expect(await t.cli('sync', '--feed', 'gone-feed', '--now', '2026-12-02', '--json')).toBe(0);
    expect(JSON.parse(t.out())).toMatchObject({ deleted: 1, inGrace: 0 });
    expect(stored('M-3')).toBeUndefined();
  });
});
