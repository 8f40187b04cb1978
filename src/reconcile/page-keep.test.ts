import { describe, expect, it } from 'vitest';
import { HeldBudget, PageKeep } from './page-keep.ts';
import { spillBytes } from './record-store.ts';

/** A page of `size` bytes in two pieces, told apart by `n`. */
const page = (n: number, size = 100) => [
  new Uint8Array(size / 2).fill(n),
  new Uint8Array(size / 2).fill(n + 100),
];
const bytesOf = (n: number, size = 100) => [...page(n, size)[0]!, ...page(n, size)[1]!];

describe('PageKeep', () => {
  it('holds the newest pages within its budget, spills the older ones, and reads back both whole', () => {
    const budget = new HeldBudget(250);
    const keep = new PageKeep(spillBytes(), budget);
    for (let n = 0; n < 5; n++) expect(keep.put(page(n))).toBe(n);
    expect(keep.size).toBe(5);
    // 500 bytes put, 250 held: pages 0–2 written, 3 and 4 held.
    expect(keep.spilled).toBe(3);
    expect(budget.bytes).toBe(200);
    for (let n = 0; n < 5; n++) expect([...keep.get(n)]).toEqual(bytesOf(n));
    keep.close();
    expect(budget.bytes).toBe(0);
  });

  it('never writes a page dropped while it is held, and says so when it is asked for', () => {
    const budget = new HeldBudget(250);
    const keep = new PageKeep(spillBytes(), budget);
    keep.put(page(0));
    keep.put(page(1));
    keep.drop([0]);
    for (let n = 2; n < 6; n++) keep.put(page(n));
    // Page 0 forgotten; 1, 2 and 3 written as the budget was passed; 4 and 5 held.
    expect(keep.spilled).toBe(3);
    expect(() => keep.get(0)).toThrow(/page 0 is not kept/);
    // A page dropped once written stays readable (nothing to undo); a held one dropped is gone.
    keep.drop([1, 5]);
    expect([...keep.get(1)]).toEqual(bytesOf(1));
    expect(() => keep.get(5)).toThrow(/page 5 is not kept/);
    expect([...keep.get(4)]).toEqual(bytesOf(4));
    expect(budget.bytes).toBe(100);
    // A page judged wanted is written at once, and gives its bytes back.
    keep.put(page(6));
    keep.write([6, 1]);
    expect(keep.spilled).toBe(4);
    expect(budget.bytes).toBe(100);
    expect([...keep.get(6)]).toEqual(bytesOf(6));
    keep.close();
  });

  it('bounds the pages of every run of the thread together, writing the oldest of any run', () => {
    const budget = new HeldBudget(250);
    const runs = [new PageKeep(spillBytes(), budget), new PageKeep(spillBytes(), budget)];
    for (let n = 0; n < 3; n++) for (const keep of runs) keep.put(page(n));
    // Six pages of 100 bytes put in turn: the four oldest (two of each run) written, 200 bytes held.
    expect(budget.bytes).toBe(200);
    expect(runs.map((keep) => keep.spilled)).toEqual([2, 2]);
    for (const keep of runs) for (let n = 0; n < 3; n++) expect([...keep.get(n)]).toEqual(bytesOf(n));
    // A page larger than the whole budget is written at once, the others held left held.
    expect(runs[0]!.put(page(7, 400))).toBe(3);
    expect(runs.map((keep) => keep.spilled)).toEqual([3, 2]);
    expect(budget.bytes).toBe(200);
    expect([...runs[0]!.get(3)]).toEqual(bytesOf(7, 400));
    // A run that ends gives its held bytes back to the others.
    runs[1]!.close();
    expect(budget.bytes).toBe(100);
    runs[0]!.close();
    expect(budget.bytes).toBe(0);
  });
});
