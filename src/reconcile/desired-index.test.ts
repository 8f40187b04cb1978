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

  it('knows no key before it is indexed, and indexes once', () => {
    const index = new DesiredIndex();
    const ref = noted(index, 'a', 0);
    expect(index.refOf('a')).toBe(-1);
    index.keep([ref]);
    expect(() => index.keep([ref])).toThrow(/already/);
  });
});
