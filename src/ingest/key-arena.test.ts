import { describe, expect, it } from 'vitest';
import { KeyArena } from './key-arena.ts';

describe('KeyArena', () => {
  it('gives each distinct key one id, in the order keys were first interned', () => {
    const arena = new KeyArena();
    expect([arena.intern('B-1'), arena.intern('B-2'), arena.intern('B-1'), arena.intern('')]).toEqual([
      0, 1, 0, 2,
    ]);
    expect(arena.size).toBe(3);
    expect([arena.keyAt(0), arena.keyAt(1), arena.keyAt(2)]).toEqual(['B-1', 'B-2', '']);
    expect(arena.find('B-2')).toBe(1);
    expect(arena.find('')).toBe(2);
    expect(arena.find('B-3')).toBe(-1);
    expect(() => arena.keyAt(3)).toThrow(RangeError);
  });

  it('tells keys apart that differ only in length, case or white space', () => {
    const arena = new KeyArena();
    const keys = ['B-1', 'B-12', 'B-', 'b-1', ' B-1', 'B-1 '];
    for (const key of keys) arena.intern(key);
    expect(keys.map((key) => arena.find(key))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(arena.equals(0, 'B-1')).toBe(true);
    expect(arena.equals(0, 'B-12')).toBe(false);
    expect(arena.equals(1, 'B-1')).toBe(false);
  });

  it('keeps keys with non-ASCII characters as they were, and apart from their look-alikes', () => {
    const arena = new KeyArena();
    const keys = [
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
    ];
    for (const key of keys) arena.intern(key);
    expect(arena.size).toBe(keys.length);
    keys.forEach((key, id) => {
      expect(arena.keyAt(id)).toBe(key);
      expect(arena.find(key)).toBe(id);
      expect(arena.equals(id, key)).toBe(true);
    });
    expect(arena.find('Müllerstrasse-7')).toBe(-1);
    expect(arena.find('house-\ud83c')).toBe(-1);
    expect(arena.equals(9, 'éé')).toBe(false);
  });

  it('finds every key among many that share the table, whatever the table size', () => {
    // Ten thousand keys in a table of 2^14 slots: many share a first slot and are found past it.
    const arena = new KeyArena();
    for (let i = 0; i < 10_000; i++) expect(arena.intern(`K${i}`)).toBe(i);
    for (let i = 0; i < 10_000; i++) expect(arena.find(`K${i}`)).toBe(i);
    for (let i = 10_000; i < 10_100; i++) expect(arena.find(`K${i}`)).toBe(-1);
    expect(arena.size).toBe(10_000);
  });

  it('holds keys across the chunks it grows into, one running on from a chunk into the next', () => {
    const arena = new KeyArena();
    // 64 KiB chunks: keys of 1000 bytes put key 65 across the first boundary, and so on.
    const keyOf = (i: number) => `${i}-`.padEnd(1000, String.fromCharCode(97 + (i % 26)));
    for (let i = 0; i < 300; i++) arena.intern(keyOf(i));
    // A key longer than a chunk, then short ones after it.
    const long = 'é'.repeat(40_000);
    arena.intern(long);
    arena.intern('after');
    for (let i = 0; i < 300; i++) {
      expect(arena.keyAt(i)).toBe(keyOf(i));
      expect(arena.find(keyOf(i))).toBe(i);
    }
    expect(arena.keyAt(300)).toBe(long);
    expect(arena.find(long)).toBe(300);
    expect(arena.find('after')).toBe(301);
    expect(arena.keyAt(301)).toBe('after');
  });
});
