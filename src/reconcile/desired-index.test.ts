import { describe, expect, it } from 'vitest';
import { DesiredIndex } from './desired-index.ts';

const noted = (index: DesiredIndex, key: string, ref: number) =>
  index.add({ key, mask: ref + 1, digest: 2 ** 52 + ref, ref });

describe('DesiredIndex', () => {
  it('finds every kept record by its trimmed key, the last record of a key winning', () => {
    const index = new DesiredIndex();
    const refs = Array.from({ length: 5000 }, (_, i) => noted(index, `B-${i}`, i));
    refs.push(noted(index, ' B-7 ', 5000), noted(index, '   ', 5001));
    index.keep(refs);
    expect(index.size).toBe(5000);
    expect(index.refCount).toBe(5002);
    for (let i = 0; i < 5000; i++) if (i !== 7) expect(index.refOf(`B-${i}`)).toBe(i);
    expect(index.get('B-7')).toEqual({ key: 'B-7', mask: 5001, digest: 2 ** 52 + 5000, ref: 5000 });
    expect(index.keyAt(5000)).toBe('B-7');
    expect(index.refOf('B-5000')).toBe(-1);
    expect(index.has(' B-7 ')).toBe(false);
    expect(index.get('nope')).toBeUndefined();
  });

  it('visits each key once, in the order keys were first kept, with its last record', () => {
    const index = new DesiredIndex();
    index.keep([noted(index, 'b', 0), noted(index, 'a', 1), noted(index, 'b', 2)]);
    const seen: [string, number][] = [];
    index.forEach((key, ref) => {
      seen.push([key, ref]);
    });
    expect(seen).toEqual([
      ['b', 2],
      ['a', 1],
    ]);
  });

  it('holds keys with non-ASCII characters and URLs as they were, trimmed, the last record of a key winning', () => {
    const index = new DesiredIndex();
    const keys = ['Müllerstraße-7', 'Mullerstrasse-7', '東京-3LDK', 'https://example.com/a?b=é&c=🏠', 'café'];
    const refs = keys.map((key, i) => noted(index, ` ${key}\t`, i));
    refs.push(noted(index, 'café', 5), noted(index, '', 6));
    index.keep(refs);
    expect(index.size).toBe(5);
    keys.forEach((key, i) => {
      expect(index.refOf(key)).toBe(key === 'café' ? 5 : i);
      expect(index.keyAt(i)).toBe(key);
    });
    expect(index.refOf('Mullerstraße-7')).toBe(-1);
    expect(index.refOf('cafe\u0301')).toBe(-1);
    expect(index.keyAt(6)).toBe('');
    expect(index.keyAt(99)).toBe('');
    const seen: [string, number][] = [];
    index.forEach((key, ref) => {
      seen.push([key, ref]);
    });
    expect(seen).toEqual(keys.map((key, i) => [key, key === 'café' ? 5 : i]));
  });

  it('keeps only the records it is given, the last of each key, whatever their numbers', () => {
    const index = new DesiredIndex();
    // Records 10 and 12 share a key; record 11 is noted but not kept (a later record replaced it).
    index.keep([noted(index, 'a', 10), noted(index, 'b', 12), noted(index, 'a', 13)]);
    noted(index, 'c', 11);
    expect([index.refOf('a'), index.refOf('b'), index.refOf('c')]).toEqual([13, 12, -1]);
    expect(index.size).toBe(2);
    expect(index.refCount).toBe(14);
  });

  it('orders records by their keys as the strings would be, without making them', () => {
    const keys = ['B-9', '', 'B-10', 'Müllerstraße-7', 'Mullerstrasse-7', '東京-3', 'house-🏠', 'b-1'];
    const index = new DesiredIndex();
    const refs = keys.map((key, ref) => index.add({ key, mask: 0, digest: 0, ref }));
    const byCompare = [...refs].sort((a, b) => index.compareKeys(a, b)).map((r) => index.keyAt(r));
    expect(byCompare).toEqual([...keys].sort());
  });

  it('knows no key before it is indexed, and indexes once', () => {
    const index = new DesiredIndex();
    const ref = noted(index, 'a', 0);
    expect(index.refOf('a')).toBe(-1);
    index.keep([ref]);
    expect(() => index.keep([ref])).toThrow(/already/);
  });
});
