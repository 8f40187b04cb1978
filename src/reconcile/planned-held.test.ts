import { describe, expect, it } from 'vitest';
import { type HeldKey, HeldKeyColumns, HeldKeys } from '../ingest/index.ts';
import type { HeldListing } from './plan-types.ts';
import { HeldIndex, PlannedHeld } from './planned-held.ts';

const hold = (key: string, index = 0): HeldKey => ({
  key,
  index,
  reason: 'not_a_number',
  message: `${key} bad`,
});
/** As the plan orders the listings broken rows hold: by key (each key once). */
const byKeyThenId = (a: HeldListing, b: HeldListing) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

describe('HeldIndex', () => {
  it('finds held keys trimmed, the last hold of a key winning, from an array or columns alike', () => {
    const holds = [hold(' K-1 ', 0), hold('K-2', 1), hold('K-1', 2)];
    const columns = new HeldKeyColumns();
    for (const h of holds) columns.add(h);
    for (const source of [holds, new HeldKeys(columns, Int32Array.from([0, 1, 2]))]) {
      const index = new HeldIndex(source);
      expect(index.size).toBe(2);
      expect(index.find('K-1')).not.toBe(-1);
      expect(index.find(' K-1 ')).toBe(-1);
      expect(index.find('K-3')).toBe(-1);
      expect(index.holdAt(index.find('K-1'))?.index).toBe(2);
      expect(index.keyAt(index.find('K-2'))).toBe('K-2');
    }
  });
});

describe('PlannedHeld', () => {
  it('lists every held key in key order with the IDs it keeps, merged with the listings broken rows hold', () => {
    const index = new HeldIndex(['M-3', 'M-1', 'M-5', 'M-2'].map((k) => hold(k)));
    const held = new PlannedHeld(index);
    held.keep(index.find('M-3'), 7);
    held.keep(index.find('M-1'), 2);
    held.keep(index.find('M-1'), 9);
    held.keep(index.find('M-1'), 4);
    const broken = (key: string, id: number): HeldListing => ({
      key,
      index: 0,
      reason: 'in_broken_row',
      message: 'key appears in the shifted row 4 of f.csv',
      ids: [id],
    });
    held.finish([broken('M-4', 11), broken('M-0', 10), broken('M-9', 12)], byKeyThenId);
    expect([...held].map((h) => [h.key, h.ids])).toEqual([
      ['M-0', [10]],
      ['M-1', [2, 4, 9]],
      ['M-2', []],
      ['M-3', [7]],
      ['M-4', [11]],
      ['M-5', []],
      ['M-9', [12]],
    ]);
    expect(held.length).toBe(7);
    expect(held.onPlatform).toBe(5);
    expect(held.at(1)).toEqual({ ...hold('M-1'), ids: [2, 4, 9] });
    expect(held.at(-1)?.key).toBe('M-9');
    expect(held.at(7)).toBeUndefined();
    expect(JSON.parse(JSON.stringify(held))).toEqual([...held]);
  });

  it('is empty for a feed with nothing held', () => {
    const held = new PlannedHeld(new HeldIndex([])).finish([], byKeyThenId);
    expect([held.length, held.onPlatform, [...held]]).toEqual([0, 0, []]);
  });
});
