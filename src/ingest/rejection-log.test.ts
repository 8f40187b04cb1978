import { describe, expect, it } from 'vitest';
import { RejectionLog } from './rejection-log.ts';
import type { Rejection } from './types.ts';

const rejection = (index: number, field: string | undefined, reason: string, key?: string): Rejection => ({
  feedId: 'f',
  index,
  row: index + 2,
  reason,
  message: `Row ${index + 2}: ${field ?? 'record'} ${reason}`,
  ...(field !== undefined ? { field, problems: [{ field, reason, message: reason }] } : {}),
  ...(key !== undefined ? { key } : {}),
});

describe('RejectionLog', () => {
  it('counts every rejection and keeps the first of each field and reason, in feed order', () => {
    const log = new RejectionLog(2);
    const all: Rejection[] = [];
    for (let i = 0; i < 10; i++)
      all.push(rejection(i, i % 3 === 0 ? 'Beds' : 'Price', 'not_a_number', `K-${i}`));
    all.push(rejection(10, undefined, 'broken_row'));
    for (const r of all) log.add(r);
    expect(log.count).toBe(11);
    expect(log.withoutKey).toBe(1);
    // Beds: rows of 0, 3, 6, 9; Price: 1, 2, 4, 5, 7, 8; the record as a whole: 10.
    expect(log.kept.map((r) => r.index)).toEqual([0, 1, 2, 3, 10]);
    expect(log.counts()).toEqual([
      { field: 'Price', reason: 'not_a_number', count: 6 },
      { field: 'Beds', reason: 'not_a_number', count: 4 },
      { reason: 'broken_row', count: 1 },
    ]);
    expect(log.problems()).toEqual([
      { field: 'Price', reason: 'not_a_number', count: 6 },
      { field: 'Beds', reason: 'not_a_number', count: 4 },
      { field: '(record)', reason: 'broken_row', count: 1 },
    ]);
  });

  it('keeps the first N rejections of the feed whole, whatever N up to the bound per label', () => {
    const all = Array.from({ length: 200 }, (_, i) =>
      rejection(i, ['A', 'B', 'C'][i % 7 === 0 ? 0 : i % 2 ? 1 : 2], 'x'),
    );
    const log = new RejectionLog(20);
    for (const r of all) log.add(r);
    expect(log.kept.slice(0, 20)).toEqual(all.slice(0, 20));
    expect(log.kept).toHaveLength(60);
  });

  it('keeps them all unless bounded, and counts every problem of a record', () => {
    const log = new RejectionLog();
    for (let i = 0; i < 50; i++)
      log.add({
        ...rejection(i, 'Beds', 'not_a_number'),
        problems: [
          { field: 'Beds', reason: 'not_a_number', message: '' },
          { field: 'Year', reason: 'out_of_range', message: '' },
        ],
      });
    expect(log.kept).toHaveLength(50);
    expect(log.problems()).toEqual([
      { field: 'Beds', reason: 'not_a_number', count: 50 },
      { field: 'Year', reason: 'out_of_range', count: 50 },
    ]);
  });

  it('counts fields past the ten thousandth distinct one together, as (other)', () => {
    const log = new RejectionLog(1);
    for (let i = 0; i < 10_005; i++) log.add(rejection(i, `F${i}`, 'missing'));
    const counts = log.counts();
    expect(counts).toHaveLength(10_001);
    expect(counts[0]).toEqual({ field: '(other)', reason: '(other)', count: 5 });
    expect(counts.reduce((sum, c) => sum + c.count, 0)).toBe(10_005);
    // A rejection counted under (other) is kept only while (other) is under the bound.
    expect(log.kept).toHaveLength(10_001);
  });
});
