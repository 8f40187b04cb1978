import { describe, expect, it } from 'vitest';
import { BATCH_RECORDS, batchOf } from './batch.ts';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('batchOf', () => {
  it.each([0, 1, BATCH_RECORDS - 1, BATCH_RECORDS, BATCH_RECORDS + 1, 3 * BATCH_RECORDS])(
    '%i items: every item once, in order, in batches of at most BATCH_RECORDS',
    (n) => {
      const batches = [...batchOf(range(n), (x) => x)];
      expect(batches.flat()).toEqual(range(n));
      expect(batches.every((b) => b.length > 0 && b.length <= BATCH_RECORDS)).toBe(true);
      expect(batches.length).toBe(Math.ceil(n / BATCH_RECORDS));
    },
  );

  it('leaves out what `read` makes nothing of', () => {
    expect([...batchOf(range(10), (x) => (x % 2 ? x : undefined))].flat()).toEqual([1, 3, 5, 7, 9]);
  });

  it('gives the items read before an error first, then the error', () => {
    const read = (x: number) => {
      if (x === BATCH_RECORDS + 3) throw new Error('broken record');
      return x;
    };
    const got: number[] = [];
    expect(() => {
      for (const batch of batchOf(range(200), read)) got.push(...batch);
    }).toThrow('broken record');
    expect(got).toEqual(range(BATCH_RECORDS + 3));
  });

  it('never hands out a batch twice, even when an error is thrown in at its yield', () => {
    const batches = batchOf(range(3 * BATCH_RECORDS), (x) => x);
    const first = batches.next().value;
    expect(() => batches.throw(new Error('consumer failed'))).toThrow('consumer failed');
    expect(first).toEqual(range(BATCH_RECORDS));
  });
});
