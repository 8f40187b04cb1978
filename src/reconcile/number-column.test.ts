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
});
