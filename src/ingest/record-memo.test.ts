import { describe, expect, it } from 'vitest';
import {
  fingerprintCheck,
  fingerprintOf,
  forEachMemoRow,
  memoBytes,
  memoizableKey,
  RecordMemo,
  seedOf,
} from './record-memo.ts';

const row = { MLS: 'M-1', Price: '$300,000', Beds: '3', Remarks: 'Quiet street' };
const seed = seedOf(['feed acme', '{"fields":{}}']);

describe('fingerprintOf', () => {
  it('is the same for the same fields and seed, and 53 bits', () => {
    const fp = fingerprintOf(row, seed);
    expect(fingerprintOf({ ...row }, seed)).toBe(fp);
    expect(Number.isSafeInteger(fp)).toBe(true);
    expect(fp).toBeGreaterThan(0);
  });

  it('changes with any value, any name, the order, or the seed', () => {
    const fp = fingerprintOf(row, seed);
    const others = [
      fingerprintOf({ ...row, Price: '$300,001' }, seed),
      fingerprintOf({ ...row, Remarks: 'Quiet street ' }, seed),
      fingerprintOf({ MLS: 'M-1', Price: '$300,000', Baths: '3', Remarks: 'Quiet street' }, seed),
      fingerprintOf({ Price: '$300,000', MLS: 'M-1', Beds: '3', Remarks: 'Quiet street' }, seed),
      // A value moved across the boundary between two fields.
      fingerprintOf({ ...row, Beds: '3Q', Remarks: 'uiet street' }, seed),
      fingerprintOf(row, seedOf(['feed acme', '{"fields":{"Beds":"Beds"}}'])),
    ];
    for (const other of others) expect(other).not.toBe(fp);
    expect(new Set(others).size).toBe(others.length);
  });

  it('tells text from numbers, booleans and null, and follows nested records (XML, RESO)', () => {
    const fps = [
      { a: '1' },
      { a: 1 },
      { a: true },
      { a: 'true' },
      { a: null },
      { a: ['1'] },
      { a: { b: '1' } },
      { a: [{ b: '1' }, { b: '2' }] },
      { a: [{ b: '1' }, { b: '3' }] },
    ].map((fields) => fingerprintOf(fields, seed));
    expect(new Set(fps).size).toBe(fps.length);
    expect(fps.every((fp) => Number.isSafeInteger(fp))).toBe(true);
  });

  it('is NaN for a record a JSON round trip would not give back as it was: that record is mapped every run', () => {
    for (const value of [undefined, Number.NaN, -0, new Date(0), Buffer.from('x'), [undefined]])
      expect(fingerprintOf({ a: value }, seed)).toBeNaN();
    let deep: Record<string, unknown> = { a: '1' };
    for (let i = 0; i < 40; i++) deep = { a: deep };
    expect(fingerprintOf(deep, seed)).toBeNaN();
  });
});

describe('RecordMemo', () => {
  const entries = Array.from({ length: 1000 }, (_, i) => {
    const fp = fingerprintOf({ ...row, MLS: `M-${i}` }, seed);
    return {
      fp,
      check: fingerprintCheck(),
      key: i === 7 ? 'Ünïcødé-7' : `M-${i}`,
      mask: i % 31,
      digest: i * 1_000_003 + 0.5,
      unknown: i % 5 === 0 ? 0b1010 : 0,
    };
  });
  const builtAt = Date.UTC(2026, 10, 29, 12);
  const bytes = memoBytes(seed, builtAt, entries);

  it('gives back each entry by its fingerprint, both halves, and nothing for another', () => {
    const memo = RecordMemo.fromBytes(bytes)!;
    expect(memo.seed).toBe(seed);
    expect(memo.builtAt).toBe(builtAt);
    expect(memo.size).toBe(1000);
    for (const { fp, check, ...entry } of entries) expect(memo.get(fp, check)).toEqual(entry);
    expect(memo.get(fingerprintOf({ ...row, MLS: 'M-1000' }, seed), fingerprintCheck())).toBeUndefined();
    // The same 53 bits with other 32: another record.
    expect(memo.get(entries[3]!.fp, (entries[3]!.check + 1) >>> 0)).toBeUndefined();
  });

  it('reads a memo at any offset in its buffer (a small file is read into a pooled one)', () => {
    const shifted = Buffer.concat([Buffer.from('xyz'), bytes]).subarray(3);
    expect(RecordMemo.fromBytes(shifted)?.get(entries[7]!.fp, entries[7]!.check)).toEqual({
      key: 'Ünïcødé-7',
      mask: 7,
      digest: 7 * 1_000_003 + 0.5,
      unknown: 0,
    });
  });

  it('frees bytes of its own once released, and then knows nothing; a buffer it shares is left alone', () => {
    const own = Buffer.from(bytes);
    const memo = RecordMemo.fromBytes(own)!;
    expect(memo.get(entries[1]!.fp, entries[1]!.check)?.key).toBe('M-1');
    memo.release();
    expect(own.buffer.detached).toBe(true);
    expect(memo.get(entries[1]!.fp, entries[1]!.check)).toBeUndefined();
    // A slice of a larger buffer (Node's pool holds other files' bytes beside it): not detached.
    const shared = Buffer.concat([Buffer.from('xyz'), bytes]);
    const slice = RecordMemo.fromBytes(shared.subarray(3))!;
    slice.release();
    expect(shared.buffer.detached).toBe(false);
    expect(shared.subarray(0, 3).toString()).toBe('xyz');
  });

  it('is no memo when the bytes are torn, grown, changed or not a memo', () => {
    expect(RecordMemo.fromBytes(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
    expect(RecordMemo.fromBytes(Buffer.concat([bytes, Buffer.from('x')]))).toBeUndefined();
    expect(RecordMemo.fromBytes(bytes.subarray(0, 30))).toBeUndefined();
    expect(RecordMemo.fromBytes(Buffer.from('{"not":"a memo"}'))).toBeUndefined();
    const other = Buffer.from(bytes);
    other.write('FSMEMO99', 0, 'latin1');
    expect(RecordMemo.fromBytes(other)).toBeUndefined();
    // One digest's byte changed (a disk that lost a write): the checksum says so.
    const flipped = Buffer.from(bytes);
    flipped[32 + 9] = (flipped[32 + 9]! + 1) & 0xff;
    expect(RecordMemo.fromBytes(flipped)).toBeUndefined();
  });

  it('leaves out a key UTF-8 would not give back as it was (a lone surrogate)', () => {
    const lone = memoBytes(seed, builtAt, [
      { fp: 1, check: 2, key: 'MLS-1\ud800', mask: 1, digest: 1, unknown: 0 },
    ]);
    expect(RecordMemo.fromBytes(lone)?.size).toBe(0);
    expect(memoizableKey('MLS-1\ud800')).toBe(false);
    expect(memoizableKey('MLS-1 😀')).toBe(true);
  });

  it('an empty memo is a memo', () => {
    const memo = RecordMemo.fromBytes(memoBytes(seed, builtAt, []));
    expect(memo?.size).toBe(0);
    expect(memo?.get(entries[0]!.fp, entries[0]!.check)).toBeUndefined();
  });
});

describe('forEachMemoRow', () => {
  const entries = [
    { fp: 11, check: 1, key: 'M-2', mask: 3, digest: 0.5, unknown: 0 },
    { fp: 7, check: 2, key: 'M-1', mask: 5, digest: 0.25, unknown: 1 },
    { fp: 9, check: 3, key: 'Ünïcode', mask: 9, digest: 0.125, unknown: 0 },
  ];

  it('visits the rows in the order they were written, and frees the bytes it was given', () => {
    const bytes = new Uint8Array(memoBytes(seed, 1_000_000, entries));
    const seen: unknown[] = [];
    const header = forEachMemoRow(bytes, (key, mask, digest, unknown) =>
      seen.push([key, mask, digest, unknown]),
    );
    expect(seen).toEqual(entries.map((e) => [e.key, e.mask, e.digest, e.unknown]));
    expect(header).toMatchObject({ seed, count: 3, builtAt: 1_000_000 });
    expect(bytes.byteLength).toBe(0);
  });

  it('visits no row of bytes that are not one whole memo', () => {
    const whole = memoBytes(seed, 1_000_000, entries);
    const seen: string[] = [];
    const torn = new Uint8Array(whole.subarray(0, whole.length - 2));
    expect(forEachMemoRow(torn, (key) => seen.push(key))).toBeUndefined();
    const changed = new Uint8Array(whole);
    changed[changed.length - 1] = (changed[changed.length - 1] as number) ^ 1;
    expect(forEachMemoRow(changed, (key) => seen.push(key))).toBeUndefined();
    expect(seen).toEqual([]);
  });
});
