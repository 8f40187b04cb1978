import { describe, expect, it } from 'vitest';
import { float64s, int32s } from './number-column.ts';

describe('NumberColumn', () => {
  it('keeps every number across chunks, written in any order', () => {
    const digests = float64s();
    const refs = int32s();
    const n = 3 * 8192 + 5;
    for (let i = n - 1; i >= 0; i--) digests.set(i, 2 ** 52 + i);
    for (let i = 0; i < n; i += 2) digests.set(i, -i - 0.5);
    for (let i = 0; i < n; i++) refs.set(i, i - 1);
    for (let i = 0; i < n; i++) {
      const expected = i % 2 === 0 ? -i - 0.5 : 2 ** 52 + i;
      if (digests.get(i) !== expected || refs.get(i) !== i - 1)
        expect([i, digests.get(i), refs.get(i)]).toEqual([i, expected, i - 1]);
    }
  });

  it('a small column holds a small first chunk, grown as numbers come, unset ones reading 0', () => {
    const column = int32s();
    column.set(3, 7);
    expect([column.get(3), column.get(2), column.get(63)]).toEqual([7, 0, 0]);
    expect(column.get(500)).toBe(0);
    // Past every chunk, even before the first: a column by key id is read before any key is kept.
    expect([int32s().get(0), int32s().get(100_000), column.get(9 * 8192)]).toEqual([0, 0, 0]);
    column.set(500, 9);
    column.set(8191, 11);
    column.set(8192, 12);
    expect([column.get(3), column.get(500), column.get(8191), column.get(8192), column.get(700)]).toEqual([
      7, 9, 11, 12, 0,
    ]);
  });
});
