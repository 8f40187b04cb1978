import { describe, expect, it } from 'vitest';
import { LatestByKey } from './latest-by-key.ts';
import type { HeldKey, RecordRef } from './types.ts';

const ref = (index: number, key?: string): RecordRef => ({
  feedId: 'f',
  index,
  row: index + 2,
  ...(key ? { key } : {}),
});

/** Each key with what it kept, in the order `forEachSlot` gives. */
function rows<T>(byKey: LatestByKey<T>): [string, T | undefined][] {
  const seen: [string, T | undefined][] = [];
  byKey.forEachSlot((slot) => {
    seen.push([byKey.keyAt(slot), byKey.listings[slot]]);
  });
  return seen;
}

describe('LatestByKey', () => {
  it('keeps keys in the order they came while none repeats', () => {
    const byKey = new LatestByKey<number>();
    ['c', 'a', 'b'].forEach((key, i) => {
      byKey.remember(key, i, undefined, ref(i));
    });
    expect(rows(byKey)).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 2],
    ]);
    expect(byKey.rare.size).toBe(0);
  });

  it("keeps a key's last record, and moves the key to where its last record came", () => {
    const byKey = new LatestByKey<number>();
    const keys = ['a', 'b', 'a', 'c', 'b', 'a', 'd'];
    keys.forEach((key, i) => {
      byKey.remember(key, i, undefined, ref(i, key));
    });
    expect(byKey.size).toBe(4);
    expect(rows(byKey)).toEqual([
      ['c', 3],
      ['b', 4],
      ['a', 5],
      ['d', 6],
    ]);
    // Every record of a repeated key, the first as where the key was first seen.
    const refsOf = (key: string) => {
      let found: RecordRef[] | undefined;
      byKey.forEachSlot((slot) => {
        if (byKey.keyAt(slot) === key) found = byKey.rare.get(slot)?.refs;
      });
      return found?.map((r) => [r.index, r.row]);
    };
    expect(refsOf('a')).toEqual([
      [0, 2],
      [2, 4],
      [5, 7],
    ]);
    expect(refsOf('b')).toEqual([
      [1, 3],
      [4, 6],
    ]);
    expect(refsOf('c')).toBeUndefined();
  });

  it('a later record replaces a rejection or a removal of its key, and the other way round', () => {
    const byKey = new LatestByKey<string>();
    const held: HeldKey = { key: 'b', index: 1, reason: 'invalid', message: 'no' };
    byKey.remember('a', 'first a', undefined, ref(0));
    byKey.remember('b', undefined, held, ref(1));
    byKey.remember('a', undefined, undefined, ref(2));
    byKey.remember('b', 'valid b', undefined, ref(3));
    expect(rows(byKey)).toEqual([
      ['a', undefined],
      ['b', 'valid b'],
    ]);
    byKey.forEachSlot((slot) => {
      expect(byKey.isHeld(slot)).toBe(false);
    });
  });

  it('lists the first keys to repeat with their records, counts every repeated record', () => {
    const byKey = new LatestByKey<string>(2);
    for (const [i, key] of ['a', 'b', 'c', 'a', 'b', 'c', 'c'].entries())
      byKey.remember(key, key, undefined, ref(i));
    expect(byKey.duplicates).toBe(4);
    expect(byKey.unlisted).toBe(true);
    const refs = (key: string) => {
      let found: number[] | undefined;
      byKey.forEachSlot((slot) => {
        if (byKey.keyAt(slot) === key) found = byKey.rare.get(slot)?.refs?.map((r) => r.index);
      });
      return found;
    };
    expect([refs('a'), refs('b'), refs('c')]).toEqual([[0, 3], [1, 4], undefined]);
    // Nothing kept for a key that needs nothing: no hold, no markers, no refs.
    expect(byKey.rare.size).toBe(2);
  });

  it('keeps the first records of a key and its last, counting those between', () => {
    const byKey = new LatestByKey<number>();
    for (let i = 0; i < 30; i++) byKey.remember('k', i, undefined, ref(i));
    const rare = byKey.rare.get(0);
    expect(rare?.refs?.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 29]);
    expect(rare?.omitted).toBe(19);
    expect(byKey.duplicates).toBe(29);
    expect(byKey.unlisted).toBe(false);
    expect(rows(byKey)).toEqual([['k', 29]]);
  });

  it('tells keys apart by every character, non-ASCII included, across many keys', () => {
    const byKey = new LatestByKey<number>();
    const keys = ['Müllerstraße-7', 'Mullerstrasse-7', 'café', 'cafe\u0301', '東京-3LDK', 'B-1', 'B-1 '];
    for (let i = 0; i < 30_000; i++) keys.push(`https://example.com/listing/${i}`);
    keys.forEach((key, i) => {
      byKey.remember(key, i, undefined, ref(i));
    });
    byKey.remember('café', -1, undefined, ref(keys.length));
    expect(byKey.size).toBe(keys.length);
    const seen = rows(byKey);
    expect(seen.length).toBe(keys.length);
    expect(seen.at(-1)).toEqual(['café', -1]);
    expect(seen.slice(0, 6)).toEqual([
      ['Müllerstraße-7', 0],
      ['Mullerstrasse-7', 1],
      ['cafe\u0301', 3],
      ['東京-3LDK', 4],
      ['B-1', 5],
      ['B-1 ', 6],
    ]);
    expect(seen[30_005]).toEqual(['https://example.com/listing/29999', 30_006]);
  });
});
