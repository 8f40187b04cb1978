import { describe, expect, it } from 'vitest';
import { UnchangedKeys } from './unchanged-keys.ts';

describe('UnchangedKeys', () => {
  const keys = ['MLS-3', 'MLS-1', 'Ünïcode-2', 'MLS-10'];
  const made = () => {
    const list = new UnchangedKeys((ref) => keys[ref] ?? '');
    for (const ref of [0, 1, 2, 3]) list.add(ref);
    return list;
  };

  it('counts, finds and lists the keys of the records noted, in key order, as the array it replaces', () => {
    const list = made();
    expect(list.length).toBe(4);
    expect(list.includes('MLS-10')).toBe(true);
    expect(list.includes('MLS-2')).toBe(false);
    expect([...list]).toEqual([...keys].sort());
    expect(JSON.parse(JSON.stringify({ unchanged: list }))).toEqual({ unchanged: [...keys].sort() });
  });

  it('with a comparison of records, iterates in the same order, making each key as it is read', () => {
    const made: string[] = [];
    const keyAt = (ref: number) => {
      const key = keys[ref] ?? '';
      made.push(key);
      return key;
    };
    const order = (a: number, b: number) => {
      const x = keys[a] ?? '';
      const y = keys[b] ?? '';
      return x < y ? -1 : x > y ? 1 : 0;
    };
    const list = new UnchangedKeys(keyAt, order);
    for (const ref of [0, 1, 2, 3]) list.add(ref);
    const iterator = list[Symbol.iterator]();
    expect(iterator.next().value).toBe('MLS-1');
    // One key made so far: the rest are made as they are read, not all at once.
    expect(made).toEqual(['MLS-1']);
    expect([...list]).toEqual([...keys].sort());
    expect(JSON.parse(JSON.stringify({ unchanged: list }))).toEqual({ unchanged: [...keys].sort() });
  });

  it('holds past one chunk of record numbers (a no-op of a large feed)', () => {
    const list = new UnchangedKeys((ref) => `K-${String(ref).padStart(6, '0')}`);
    for (let ref = 0; ref < 20_000; ref++) list.add(ref);
    expect(list.length).toBe(20_000);
    expect(list.includes('K-019999')).toBe(true);
    const all = [...list];
    expect(all[0]).toBe('K-000000');
    expect(all[19_999]).toBe('K-019999');
  });
});
