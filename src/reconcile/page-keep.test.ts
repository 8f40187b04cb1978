import { describe, expect, it } from 'vitest';
import { PageKeep } from './page-keep.ts';
import { spillBytes } from './record-store.ts';

const page = (n: number, size = 100) => [
  new Uint8Array(size / 2).fill(n),
  new Uint8Array(size / 2).fill(n + 100),
];
const bytesOf = (n: number, size = 100) => [
  ...new Uint8Array(size / 2).fill(n),
  ...new Uint8Array(size / 2).fill(n + 100),
];

describe('PageKeep', () => {
  it('holds the newest pages up to its bound, spills the older ones, and reads back both whole', () => {
    const keep = new PageKeep(spillBytes(), 250);
    for (let n = 0; n < 5; n++) expect(keep.put(page(n))).toBe(n);
    expect(keep.size).toBe(5);
    // 500 bytes put, 250 held: pages 0–2 written, 3 and 4 held.
    expect(keep.spilled).toBe(3);
    for (let n = 0; n < 5; n++) expect([...keep.get(n)]).toEqual(bytesOf(n));
    keep.close();
  });

  it('never writes a page dropped while it is held, and says so when it is asked for', () => {
    const keep = new PageKeep(spillBytes(), 250);
    keep.put(page(0));
    keep.put(page(1));
    keep.drop([0]);
    for (let n = 2; n < 6; n++) keep.put(page(n));
    // Page 0 forgotten; 1, 2 and 3 written as the bound was passed; 4 and 5 held.
    expect(keep.spilled).toBe(3);
    expect(() => keep.get(0)).toThrow(/page 0 is not kept/);
    // A page dropped once written stays readable (nothing to undo); a held one dropped is gone.
    keep.drop([1, 5]);
    expect([...keep.get(1)]).toEqual(bytesOf(1));
    expect(() => keep.get(5)).toThrow(/page 5 is not kept/);
    expect([...keep.get(4)]).toEqual(bytesOf(4));
    keep.close();
  });
});
