import { describe, expect, it } from 'vitest';
import { hashOf, KeyArena, KeySet, KeyTable } from './key-arena.ts';

const NON_ASCII = [
  'Müllerstraße-7',
  'Mullerstrasse-7',
  'café',
  'cafe\u0301', // the same word, decomposed: a different key
  'ÿ', // one unit, two bytes
  'Ā', // the next unit: also two bytes, differs from 'ÿ' in both
  '東京-3LDK',
  'house-🏠', // a surrogate pair
  'lone-\ud800', // a lone surrogate is kept too
  'é'.repeat(3), // six bytes, as long as 'abcdef'
  'abcdef',
  'https://example.com/listing/%C3%A9',
  '',
];

describe('KeyArena', () => {
  it('gives back every key as it was, with non-ASCII characters, and tells look-alikes apart', () => {
    const arena = new KeyArena();
    NON_ASCII.forEach((key, i) => {
      expect(arena.add(key)).toBe(i);
    });
    expect(arena.size).toBe(NON_ASCII.length);
    NON_ASCII.forEach((key, id) => {
      expect(arena.keyAt(id)).toBe(key);
      expect(arena.hashAt(id)).toBe(hashOf(key));
      NON_ASCII.forEach((other, j) => {
        expect([id, j, arena.equals(id, other)]).toEqual([id, j, id === j]);
        expect([id, j, arena.sameKeys(id, j)]).toEqual([id, j, id === j]);
      });
    });
    expect(arena.equals(0, 'Müllerstrasse-7')).toBe(false);
    expect(arena.equals(7, 'house-\ud83c')).toBe(false);
    expect(arena.equals(9, 'éé')).toBe(false);
    expect(() => arena.keyAt(NON_ASCII.length)).toThrow(RangeError);
  });

  it('holds the same key twice when added twice (a set holds it once)', () => {
    const arena = new KeyArena();
    expect([arena.add('B-1'), arena.add('B-1')]).toEqual([0, 1]);
    expect(arena.sameKeys(0, 1)).toBe(true);
    expect(arena.equals(1, 'B-1')).toBe(true);
  });

  it('holds keys across the chunks it grows into, one running on from a chunk into the next', () => {
    const arena = new KeyArena();
    // 64 KiB chunks: keys of 1000 bytes put key 65 across the first boundary, and so on.
    const keyOf = (i: number) => `${i}-`.padEnd(1000, String.fromCharCode(97 + (i % 26)));
    for (let i = 0; i < 300; i++) arena.add(keyOf(i));
    // Read while every key is ASCII (decoded as Latin-1), and again below once one is not.
    for (let i = 0; i < 300; i++) expect(arena.keyAt(i)).toBe(keyOf(i));
    // A key longer than a chunk, then short ones after it.
    const long = 'é'.repeat(40_000);
    arena.add(long);
    arena.add('after');
    for (let i = 0; i < 300; i++) {
      expect(arena.keyAt(i)).toBe(keyOf(i));
      expect(arena.equals(i, keyOf(i))).toBe(true);
      expect(arena.hashAt(i)).toBe(hashOf(keyOf(i)));
    }
    expect(arena.equals(65, keyOf(64))).toBe(false);
    expect(arena.keyAt(300)).toBe(long);
    expect(arena.equals(300, long)).toBe(true);
    expect(arena.equals(300, `${long.slice(1)}e`)).toBe(false);
    expect(arena.keyAt(301)).toBe('after');
  });
});

describe('KeyArena.compare', () => {
  it("orders keys as their strings' < does: non-ASCII, surrogates, prefixes, the empty key", () => {
    const keys = [
      ...NON_ASCII,
      'Müllerstraße',
      'a',
      'ab',
      'B-10',
      'B-9',
      '\uffff',
      '\ue000',
      'house-\ud7ff',
      'Z',
    ];
    const arena = new KeyArena();
    for (const k of keys) arena.add(k);
    for (let a = 0; a < keys.length; a++)
      for (let b = 0; b < keys.length; b++) {
        const x = keys[a] as string;
        const y = keys[b] as string;
        expect([x, y, Math.sign(arena.compare(a, b))]).toEqual([x, y, x < y ? -1 : x > y ? 1 : 0]);
      }
  });
});

describe('KeySet', () => {
  it('gives each distinct key one id, in the order keys were first interned', () => {
    const set = new KeySet();
    expect([set.intern('B-1'), set.intern('B-2'), set.intern('B-1'), set.intern('')]).toEqual([0, 1, 0, 2]);
    expect(set.size).toBe(3);
    expect([set.keyAt(0), set.keyAt(1), set.keyAt(2)]).toEqual(['B-1', 'B-2', '']);
    expect([set.find('B-2'), set.find(''), set.find('B-3')]).toEqual([1, 2, -1]);
  });

  it('tells keys apart that differ only in length, case, white space or accents', () => {
    const set = new KeySet();
    const keys = ['B-1', 'B-12', 'B-', 'b-1', ' B-1', 'B-1 ', ...NON_ASCII];
    for (const key of keys) set.intern(key);
    for (const key of keys) set.intern(key);
    expect(set.size).toBe(keys.length);
    expect(keys.map((key) => set.find(key))).toEqual(keys.map((_, i) => i));
    expect(keys.map((_, i) => set.keyAt(i))).toEqual(keys);
  });

  it('finds every key among many, through the table growing and keys sharing slots', () => {
    const set = new KeySet();
    for (let i = 0; i < 20_000; i++) expect(set.intern(`K${i}`)).toBe(i);
    for (let i = 0; i < 20_000; i++) expect(set.find(`K${i}`)).toBe(i);
    for (let i = 20_000; i < 20_100; i++) expect(set.find(`K${i}`)).toBe(-1);
    expect(set.intern('K19999')).toBe(19_999);
    expect(set.size).toBe(20_000);
  });
});

describe('KeyTable', () => {
  it('never takes a key for the Latin-1 reading of another one’s UTF-8 bytes (é is not Ã©), even on one hash', () => {
    const arena = new KeyArena();
    // Each held key has as many bytes as the look-alike has units, and the same bytes as its units.
    const pairs = [
      ['Café-12', 'CafÃ©-12'],
      ['MLS-97-é', 'MLS-97-Ã©'],
      ['ü', 'Ã¼'],
      ['€', 'â\u0082¬'],
    ];
    for (const [held, lookAlike] of pairs) {
      const id = arena.add(held as string);
      expect(arena.equals(id, lookAlike as string), `${held} vs ${lookAlike}`).toBe(false);
      expect(arena.equals(id, held as string)).toBe(true);
    }
    // Through a table, with both keys on one made-up hash: two keys, two ids.
    const keys = new KeyArena();
    const table = new KeyTable(keys, 4);
    for (const key of ['Café-12', 'CafÃ©-12']) {
      const slot = table.slotOf(key, 0x5a00_0003);
      expect(table.idIn(slot), key).toBe(-1);
      table.fill(slot, keys.add(key), 0x5a00_0003);
    }
    expect(keys.keyAt(table.idIn(table.slotOf('CafÃ©-12', 0x5a00_0003)))).toBe('CafÃ©-12');
    expect(keys.keyAt(table.idIn(table.slotOf('Café-12', 0x5a00_0003)))).toBe('Café-12');
  });

  it('finds keys whose hashes share a first slot and a tag, by their bytes', () => {
    const arena = new KeyArena();
    const table = new KeyTable(arena, 4);
    // Keys of one made-up hash (the table has room for them: it does not grow, which would place
    // them by their own): the table can only tell them apart by their bytes.
    const put = (key: string, hash: number) => {
      const slot = table.slotOf(key, hash);
      expect(table.idIn(slot)).toBe(-1);
      table.fill(slot, arena.add(key), hash);
    };
    for (const key of ['a', 'b', 'c', 'd']) put(key, 0x5a00_0003);
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries())
      expect(table.idIn(table.slotOf(key, 0x5a00_0003))).toBe(i);
    expect(table.idIn(table.slotOf('e', 0x5a00_0003))).toBe(-1);
    // The same bytes under another id: found as the first one.
    const again = arena.add('c');
    expect(table.idIn(table.slotOfId(again, 0x5a00_0003))).toBe(2);
  });
});
