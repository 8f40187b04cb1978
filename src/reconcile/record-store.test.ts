import { describe, expect, it } from 'vitest';
import type { Listing } from '../normalize/index.ts';
import { changesIn, ReusedBuffer, spillBytes, spillRecords } from './record-store.ts';

const record = (i: number, description = `Listing ${i}`) =>
  ({ MLSNumber: `K-${i}`, Description: description, SalePrice: i * 1000 }) as unknown as Listing;

describe('spillRecords', () => {
  it('gives back every record as it was put, across many 1 MiB batches, before and after they are written', () => {
    const store = spillRecords();
    try {
      // ~3 MB of records: three batches written, the last still pending when the first gets are made.
      const text = 'é€ 🏠 '.repeat(40);
      for (let i = 0; i < 12_000; i++) expect(store.put(record(i, `${text}${i}`))).toBe(i);
      expect(store.size).toBe(12_000);
      for (const i of [11_999, 0, 5_000, 11_998, 1]) expect(store.get(i)).toEqual(record(i, `${text}${i}`));
      // And as the JSON text it was kept in, which a create sends as it is.
      for (const i of [11_999, 0, 5_000])
        expect(store.text(i)).toBe(JSON.stringify(record(i, `${text}${i}`)));
    } finally {
      store.close();
    }
  });

  it('reads front to back through its read-ahead, records cut at its edges, while more are put', () => {
    const store = spillRecords();
    try {
      const text = (i: number) => `${'é€ 🏠 '.repeat(i % 97)}${i}`;
      const big = 'ü'.repeat(200_000); // 400 KB of UTF-8: more than one read ahead
      const expected = (i: number) => record(i, i % 1_000 === 500 || i === 1_003 ? big : text(i));
      for (let i = 0; i < 6_000; i++) store.put(expected(i));
      // Front to back, skipping some (a plan's creates among unchanged listings), with records put
      // between the reads (after the read ahead was taken) and a record read elsewhere now and then.
      let added = 0;
      for (let i = 0; i < 6_000; i += 1 + (i % 3)) {
        expect(store.get(i)).toEqual(expected(i));
        if (i % 7 === 0) expect(store.get(5_999 - i)).toEqual(expected(5_999 - i));
        if (i % 5 === 0) expect(store.put(record(6_000 + added))).toBe(6_000 + added++);
      }
      expect(added).toBeGreaterThan(100);
      for (let n = 0; n < added; n++) expect(store.get(6_000 + n)).toEqual(record(6_000 + n));
    } finally {
      store.close();
    }
  });

  it('grows its batch for a record larger than the batch so far, keeping what it holds', () => {
    const store = spillRecords();
    try {
      const medium = 'ab€'.repeat(60_000); // ~300 KB of UTF-8: more than the first batch holds
      store.put(record(0));
      store.put(record(1, medium));
      store.put(record(2));
      expect(store.get(0)).toEqual(record(0));
      expect(store.get(1)).toEqual(record(1, medium));
      expect(store.get(2)).toEqual(record(2));
    } finally {
      store.close();
    }
  });

  it('keeps a record larger than a batch whole, between two ordinary ones', () => {
    const store = spillRecords();
    try {
      const huge = 'ü'.repeat(600_000); // 1.2 MB of UTF-8, more than a batch holds
      store.put(record(0));
      store.put(record(1, huge));
      store.put(record(2));
      expect(store.get(1)).toEqual(record(1, huge));
      expect(store.get(0)).toEqual(record(0));
      expect(store.get(2)).toEqual(record(2));
    } finally {
      store.close();
    }
  });

  it('reads records out of order into one buffer, each still its own text, whatever their sizes', () => {
    const store = spillRecords();
    try {
      // Sizes that grow the buffer it reads a record alone into, then shrink, then one past it.
      const sizes = [10, 5_000, 30, 70_000, 2, 200_000, 40, 300_000, 15];
      const description = (i: number) => `${String.fromCharCode(97 + i).repeat(sizes[i] as number)}é${i}`;
      for (let i = 0; i < sizes.length; i++) store.put(record(i, description(i)));
      // Backwards, then every other one: never front to back, so none comes from the read-ahead.
      const order = [8, 7, 6, 5, 4, 3, 2, 1, 0, 7, 5, 3, 1, 8, 6, 4, 2, 0];
      const texts = order.map((i) => store.text(i));
      // Every text read before is unchanged by the reads after it (strings, not views of the buffer).
      texts.forEach((text, n) => {
        const i = order[n] as number;
        expect(text).toBe(JSON.stringify(record(i, description(i))));
      });
      expect(store.get(5)).toEqual(record(5, description(5)));
    } finally {
      store.close();
    }
  });

  it('finds each record by the lengths before it, read in order, backwards or at random, across blocks', () => {
    const store = spillRecords();
    try {
      const description = (i: number) => `${'x'.repeat((i * 37) % 301)}${i % 7 === 0 ? 'ü€' : ''}${i}`;
      const n = 1_000;
      for (let i = 0; i < n; i++) store.put(record(i, description(i)));
      const expected = (i: number) => JSON.stringify(record(i, description(i)));
      const forwards = Array.from({ length: n }, (_, i) => i);
      // A fixed shuffle (a multiplier prime to n): every record once, far from the one before it.
      const shuffled = forwards.map((i) => (i * 389) % n);
      for (const order of [forwards, [...forwards].reverse(), shuffled, [63, 64, 65, 127, 128, 0, 999, 998]])
        for (const i of order) expect(store.text(i)).toBe(expected(i));
    } finally {
      store.close();
    }
  });

  it('refuses a record it never gave, and any use once closed', () => {
    const store = spillRecords();
    for (let i = 0; i < 100; i++) store.put(record(i));
    expect(() => store.get(100)).toThrow(RangeError);
    expect(store.get(0)).toEqual(record(0)); // reads ahead
    store.close();
    expect(() => store.put(record(1))).toThrow(/closed/);
    // Every read after closing says so, never a record from what was read ahead.
    for (const i of [0, 50, 50, 99]) expect(() => store.get(i)).toThrow(/closed/);
    store.close(); // idempotent
  });
});

describe('changesIn', () => {
  it("keeps a listing's changes beside the records and reads them back as they were", () => {
    const store = spillRecords();
    try {
      const record = store.put({ MLSNumber: 'A' } as Listing);
      const keeper = changesIn(store);
      const changes = [
        { field: 'SalePrice', from: 100, to: 120 },
        { field: 'City', from: undefined, to: 'Springfield' },
        { field: 'Images', from: ['a.jpg'], to: ['a.jpg', 'b.jpg'] },
      ];
      const ref = keeper.put(changes);
      expect(ref).not.toBe(record);
      expect(keeper.get(ref)).toEqual(changes);
      expect(keeper.get(ref)[1]?.from).toBeUndefined();
      expect(store.get(record)).toEqual({ MLSNumber: 'A' });
    } finally {
      store.close();
    }
  });
});

describe('spillBytes', () => {
  it('gives back a blob put whole or in pieces (one write of them all) as the bytes they make up', () => {
    const store = spillBytes();
    try {
      const big = Buffer.alloc(300_000, 7);
      const refs = [
        store.put(Buffer.from('whole')),
        store.put([Buffer.from('in '), Buffer.alloc(0), Buffer.from('pieces'), big]),
        store.put([Buffer.from('one piece')]),
        store.put([]),
        store.put(Buffer.from('after')),
      ];
      expect(refs).toEqual([0, 1, 2, 3, 4]);
      expect(store.get(0).toString()).toBe('whole');
      expect(store.get(1).equals(Buffer.concat([Buffer.from('in pieces'), big]))).toBe(true);
      expect(store.get(2).toString()).toBe('one piece');
      expect(store.get(3).length).toBe(0);
      expect(store.get(4).toString()).toBe('after');
    } finally {
      store.close();
    }
  });

  it("reads a blob into the caller's buffer when given one: a view of its length, the buffer used again", () => {
    const store = spillBytes();
    try {
      store.put(Buffer.from('first blob'));
      store.put([Buffer.from('sec'), Buffer.from('ond')]);
      const buffer = Buffer.alloc(64, 0x2a);
      const asked: number[] = [];
      const into = (length: number) => {
        asked.push(length);
        return buffer;
      };
      const first = store.get(0, into);
      expect(first.toString()).toBe('first blob');
      expect(first.buffer).toBe(buffer.buffer);
      const second = store.get(1, into);
      expect(second.toString()).toBe('second');
      // The same bytes: the first view now shows the second blob where they overlap.
      expect(first.subarray(0, 6).toString()).toBe('second');
      expect(asked).toEqual([10, 6]);
      // Without one, a buffer of its own.
      expect(store.get(0).buffer).not.toBe(buffer.buffer);
      expect(store.get(0).toString()).toBe('first blob');
    } finally {
      store.close();
    }
  });
});

describe('ReusedBuffer', () => {
  it('gives one buffer again while it is large enough, doubles it up to its bound, and a larger one of its own', () => {
    const reused = new ReusedBuffer(1_000);
    const first = reused.of(100);
    expect(first.length).toBe(100);
    expect(reused.of(60)).toBe(first);
    // Grown to twice the last, not to the length asked: fewer growths for lengths that creep up.
    const grown = reused.of(150);
    expect(grown.length).toBe(200);
    expect(reused.of(200)).toBe(grown);
    // Never past the bound; beyond it a buffer of its own, and the held one stays.
    expect(reused.of(900).length).toBe(900);
    const beyond = reused.of(5_000);
    expect(beyond.length).toBe(5_000);
    expect(reused.of(10)).not.toBe(beyond);
    expect(reused.of(10).length).toBe(900);
    reused.release();
    expect(reused.of(10).length).toBe(10);
  });
});
