import { describe, expect, it } from 'vitest';
import { BrokenRowIndex } from './broken-rows.ts';
import { decideGone, keepsClock, type Leaving } from './gone-policy.ts';
import type { RemoteEntries } from './plan-types.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-10T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** Remote entries where the listing at position i is Active (markable) unless in `sold`. */
function remote(sold: number[] = []): RemoteEntries {
  return {
    length: 10,
    idAt: (i) => 100 + i,
    keyAt: (i) => `K${i}`,
    ownerAt: () => 'acme',
    refAt: () => -1,
    changesAt: () => undefined,
    differsAt: () => {
      throw new Error('not compared');
    },
    soldAt: (i) => (sold.includes(i) ? undefined : { ref: 1000 + i, from: 'Active' }),
  };
}
const leaving = (i: number, reason: Leaving['reason'] = 'gone'): Leaving => ({
  key: `K${i}`,
  id: 100 + i,
  position: i,
  reason,
});
const none = new BrokenRowIndex([]);

describe('decideGone', () => {
  it('delete, afterDays 0: every listing leaving is deleted now, and no clock is kept for a full feed', () => {
    const d = decideGone([leaving(1), leaving(2, 'removed')], {
      policy: { action: 'delete', afterDays: 0 },
      since: {},
      now: NOW,
      remote: remote(),
      brokenRows: none,
      keepsClock: keepsClock({ action: 'delete', afterDays: 0 }, 'full'),
    });
    expect(Array.from(d.deletes).map((x) => `${x.key} ${x.reason}`)).toEqual(['K1 gone', 'K2 removed']);
    expect(Array.from(d.grace)).toEqual([]);
    expect(d.goneSince).toEqual({});
  });

  it('afterDays 3: kept from the first run that misses it until three days later, then deleted', () => {
    const policy = { action: 'delete' as const, afterDays: 3 };
    const input = { policy, now: NOW, remote: remote(), brokenRows: none, keepsClock: true };
    const first = decideGone([leaving(1)], { ...input, since: {} });
    expect(Array.from(first.deletes)).toEqual([]);
    expect(Array.from(first.grace)).toEqual([
      { key: 'K1', id: 101, reason: 'gone', since: iso(NOW), until: iso(NOW + 3 * DAY), action: 'delete' },
    ]);
    expect(first.goneSince).toEqual({ K1: iso(NOW) });
    const almost = decideGone([leaving(1)], { ...input, since: { K1: iso(NOW - 3 * DAY + 1) } });
    expect(Array.from(almost.deletes)).toEqual([]);
    const over = decideGone([leaving(1)], { ...input, since: { K1: iso(NOW - 3 * DAY) } });
    expect(Array.from(over.deletes)).toEqual([
      { key: 'K1', id: 101, reason: 'gone', since: iso(NOW - 3 * DAY) },
    ]);
    expect(over.goneSince).toEqual({ K1: iso(NOW - 3 * DAY) });
  });

  it('markSold: marked once (status only) while in grace, not again once Sold, deleted after afterDays', () => {
    const policy = { action: 'markSold' as const, afterDays: 30 };
    const input = { policy, now: NOW, brokenRows: none, keepsClock: true, since: {} };
    const active = decideGone([leaving(1)], { ...input, remote: remote() });
    expect(active.markSold.map((n) => active.deletes.markUpdateAt(n))).toEqual([
      {
        key: 'K1',
        id: 101,
        desired: { ref: 1001 },
        changes: [{ field: 'Status', from: 'Active', to: 'Sold' }],
        adopt: false,
        markSold: true,
      },
    ]);
    expect(active.grace.at(0)).toMatchObject({ action: 'markSold', until: iso(NOW + 30 * DAY) });
    const alreadySold = decideGone([leaving(1)], { ...input, remote: remote([1]) });
    expect(alreadySold.markSold).toEqual([]);
    expect(alreadySold.grace).toHaveLength(1);
    const over = decideGone([leaving(1)], { ...input, remote: remote(), since: { K1: iso(NOW - 30 * DAY) } });
    expect(over.markSold).toEqual([]);
    expect(Array.from(over.deletes).map((x) => x.key)).toEqual(['K1']);
  });

  it('a listing whose key appears in a broken row is held, its clock neither started nor reset', () => {
    const rows = new BrokenRowIndex([
      { index: 4, row: 6, where: 'the shifted row 6 of f.csv', cells: ['K1', 'x'] },
    ]);
    const d = decideGone([leaving(1), leaving(2)], {
      policy: { action: 'delete', afterDays: 0 },
      since: { K1: iso(NOW - DAY) },
      now: NOW,
      remote: remote(),
      brokenRows: rows,
      keepsClock: false,
    });
    expect(Array.from(d.deletes).map((x) => x.key)).toEqual(['K2']);
    expect(d.held).toEqual([
      {
        key: 'K1',
        index: 4,
        row: 6,
        reason: 'in_broken_row',
        message: 'key appears in the shifted row 6 of f.csv',
        ids: [101],
      },
    ]);
    expect(d.goneSince).toEqual({ K1: iso(NOW - DAY) });
    // A removal names its key: a broken row cannot be it.
    const removed = decideGone([leaving(1, 'removed')], {
      policy: { action: 'delete', afterDays: 0 },
      since: {},
      now: NOW,
      remote: remote(),
      brokenRows: rows,
      keepsClock: false,
    });
    expect(Array.from(removed.deletes).map((x) => x.key)).toEqual(['K1']);
  });
});

describe('keepsClock', () => {
  it('only a grace, a mark or an incremental feed needs the clock kept between runs', () => {
    expect(keepsClock({ action: 'delete', afterDays: 0 }, 'full')).toBe(false);
    expect(keepsClock({ action: 'delete', afterDays: 0 }, 'incremental')).toBe(true);
    expect(keepsClock({ action: 'delete', afterDays: 2 }, 'full')).toBe(true);
    expect(keepsClock({ action: 'markSold', afterDays: 0 }, 'full')).toBe(true);
  });
});
