import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MEMO_HEADER_BYTES } from '../ingest/index.ts';
import {
  encodePageEntry,
  PAGE_MEMO_HEADER_BYTES,
  PageMemoIndex,
  pageHash,
  pageKey,
  pageMemoHeader,
  pageMemoId,
  pageMemoSalt,
} from './page-memo.ts';
import { decodePage, PAGE_SPAN } from './remote-page.ts';

const TAGS = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
const SALT = pageMemoSalt('stamp-1', 'node 24', 'MLSNumber', TAGS);

/** A page as the platform answers one: numbers as text, tags in ExtensionColumn, one Sold, one untagged. */
function pageText(count: number, virtualCount = count, price = 300_000): string {
  const list = Array.from({ length: count }, (_, i) => ({
    ID: 100 + i,
    MLSNumber: `MLS-${i}`,
    Status: i === 1 ? 'Sold' : 'Active',
    SaleType: 'For Sale',
    PropertyType: 'Condo',
    SalePrice: String(price + i),
    Bedrooms: String(i % 4),
    Bathrooms: '1.5',
    City: 'Springfield',
    Url: `https://memo.example/${i}`,
    LATITUDE: i === 2 ? '40.1' : null,
    LONGITUDE: null,
    ExtensionColumn:
      i === 3
        ? ''
        : JSON.stringify([
            { Key: 'Agent', value: `Agent ${i}` },
            { Key: 'feed-sync:feed', value: i === 4 ? 'other' : 'acme' },
            { Key: 'feed-sync:hash', value: 'abcdef012345' },
          ]),
  }));
  return JSON.stringify({
    Data: { List: list, VirtualCount: virtualCount },
    Success: true,
    Code: 200,
    Message: '',
  });
}

/** A memo file as the store keeps it: its header, then its entries. */
function memoOf(texts: string[], salt = SALT): Buffer {
  const entries = texts.map((text, page) =>
    encodePageEntry(pageHash(Buffer.from(text)), decodePage(text, 'MLSNumber', TAGS, page)),
  );
  const bytes = entries.reduce((n, e) => n + e.byteLength, 0);
  return Buffer.concat([pageMemoHeader(salt, entries.length, bytes), ...entries]);
}

const plain = <T extends object>(page: T) =>
  JSON.parse(JSON.stringify(page, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as never) : v)));

describe('the page memo', () => {
  it('gives back a page exactly as decodePage makes it, numbered as this run numbers it', () => {
    const texts = [pageText(7), pageText(5, 12, 410_000)];
    const index = PageMemoIndex.parse(memoOf(texts), SALT);
    expect(index?.size).toBe(2);
    for (const [i, text] of texts.entries()) {
      // Kept as page 9 this run: its records' places follow (refs), all else is the page's.
      const known = index?.get(pageHash(Buffer.from(text)), 9);
      const decoded = decodePage(text, 'MLSNumber', TAGS, 9);
      expect(plain({ ...known, known: undefined })).toEqual(plain(decoded));
      expect(known?.known).toBe(true);
      expect(known?.refs[1]).toBe(9 * PAGE_SPAN + 1);
      expect(i === 0 ? known?.sold[1] : known?.virtualCount).toBe(i === 0 ? 1 : 12);
    }
    expect(index?.get(pageHash(Buffer.from(pageText(7, 7, 300_001))), 0)).toBeUndefined();
  });

  it('gives back keys and owners of any text exactly (not Latin-1, a lone surrogate, empty), and no count', () => {
    const page = (keys: string[], owners: string[], virtualCount: number | undefined) => ({
      length: keys.length,
      virtualCount,
      ids: Float64Array.from(keys, (_, i) => 2 ** 40 + i),
      masks: Int32Array.from(keys, (_, i) => -1 - i),
      digests: Float64Array.from(keys, (_, i) => (i + 0.5) * 2 ** 30),
      refs: Float64Array.from(keys, (_, i) => i),
      sold: Uint8Array.from(keys, (_, i) => i % 2),
      keys,
      owners,
    });
    const cases = [
      page(['MLS-1', 'Zürich-7', '', 'MLS-1'], ['acme', '', 'acme', 'other'], 4),
      page(['北京-1', 'a\ud800b', '😀'], ['オーナー', 'acme', '\udfff'], undefined),
      page([], [], 0),
    ];
    cases.forEach((written, i) => {
      const hash = pageHash(Buffer.from(`page ${i}`));
      const entry = encodePageEntry(hash, written);
      const memo = Buffer.concat([pageMemoHeader(SALT, 1, entry.byteLength), entry]);
      const read = PageMemoIndex.parse(memo, SALT)?.get(hash, 0);
      expect(plain({ ...read, known: undefined })).toEqual(plain(written));
      expect(read?.virtualCount).toBe(written.virtualCount);
    });
  });

  it('reads an entry that is not exactly the layout written as none, its CRC-32 right or not', () => {
    const text = pageText(4);
    const hash = pageHash(Buffer.from(text));
    const entry = Buffer.from(encodePageEntry(hash, decodePage(text, 'MLSNumber', TAGS, 0)));
    const BODY = 20 + 8;
    const n = 4;
    /** The entry with `change` made to its body and its CRC-32 made right again, read back. */
    const read = (change: (body: Buffer) => void) => {
      const copy = Buffer.from(entry);
      const body = copy.subarray(BODY);
      change(body);
      copy.writeUInt32LE(crc32(body), 24);
      const memo = Buffer.concat([pageMemoHeader(SALT, 1, copy.length), copy]);
      return PageMemoIndex.parse(memo, SALT)?.get(hash, 0);
    };
    expect(read(() => {})?.keys).toEqual(['MLS-0', 'MLS-1', 'MLS-2', 'MLS-3']);
    expect(read((b) => b.writeUInt32LE(n + 1, 0))).toBeUndefined(); // more listings than bytes
    expect(read((b) => b.writeUInt32LE(4, 16))).toBeUndefined(); // a flag no writer sets
    expect(read((b) => b.writeUInt32LE(1, 20))).toBeUndefined(); // padding not zero
    expect(read((b) => b.writeUInt32LE(1, 16))).toBeUndefined(); // Latin-1 keys read as UTF-16
    const keyEnds = 32 + 20 * n;
    expect(
      read((b) => b.writeUInt32LE(b.readUInt32LE(keyEnds + 4 * (n - 1)) - 1, keyEnds + 4 * (n - 1))),
    ).toBeUndefined();
    expect(read((b) => b.writeUInt32LE(3, keyEnds + 4))).toBeUndefined(); // ends out of order
    expect(read((b) => b.writeUInt32LE(7, 32 + 24 * n))).toBeUndefined(); // an owner that is not there
    // UTF-16 text of an odd count of bytes, its end where decoding would stop short: refused too.
    const one = {
      length: 1,
      virtualCount: 1,
      ids: Float64Array.of(1),
      masks: Int32Array.of(1),
      digests: Float64Array.of(1),
      refs: Float64Array.of(0),
      sold: Uint8Array.of(0),
      keys: ['abc'],
      owners: ['o'],
    };
    const odd = Buffer.from(encodePageEntry(hash, one));
    const body = odd.subarray(BODY);
    const good = Buffer.concat([pageMemoHeader(SALT, 1, odd.length), odd]);
    expect(PageMemoIndex.parse(good, SALT)?.get(hash, 0)?.keys).toEqual(['abc']);
    body.writeUInt32LE(1, 16); // the keys' 3 bytes read as UTF-16: one code unit, and a byte left over
    body.writeUInt32LE(1, 32 + 20); // the key's end: that one unit
    odd.writeUInt32LE(crc32(body), 24);
    expect(
      PageMemoIndex.parse(Buffer.concat([pageMemoHeader(SALT, 1, odd.length), odd]), SALT)?.get(hash, 0),
    ).toBeUndefined();
  });

  it('is no memo for other code or settings, torn, grown, or with an entry changed on disk', () => {
    const memo = memoOf([pageText(3), pageText(4)]);
    expect(PageMemoIndex.parse(memo, pageMemoSalt('stamp-2', 'node 24', 'MLSNumber', TAGS))).toBeUndefined();
    expect(PageMemoIndex.parse(memo, pageMemoSalt('stamp-1', 'node 26', 'MLSNumber', TAGS))).toBeUndefined();
    expect(PageMemoIndex.parse(memo, pageMemoSalt('stamp-1', 'node 24', 'Url', TAGS))).toBeUndefined();
    expect(
      PageMemoIndex.parse(memo, pageMemoSalt('stamp-1', 'node 24', 'MLSNumber', { ...TAGS, ownerKey: 'x' })),
    ).toBeUndefined();
    expect(PageMemoIndex.parse(memo.subarray(0, memo.length - 1), SALT)).toBeUndefined();
    expect(PageMemoIndex.parse(Buffer.concat([memo, Buffer.from('x')]), SALT)).toBeUndefined();
    expect(PageMemoIndex.parse(Buffer.alloc(0), SALT)).toBeUndefined();
    // A byte of the first entry's digests flipped: its CRC no longer agrees, so its page is decoded
    // instead (after the memo's header, the entry's hash, length and CRC, its body's head, 3 ids).
    const flipped = Buffer.from(memo);
    const at = 32 + 20 + 8 + 32 + 3 * 8 + 2;
    flipped[at] = (flipped[at] as number) ^ 0x10;
    const index = PageMemoIndex.parse(flipped, SALT);
    expect(index?.size).toBe(2);
    expect(index?.get(pageHash(Buffer.from(pageText(3))), 0)).toBeUndefined();
    expect(index?.get(pageHash(Buffer.from(pageText(4))), 1)?.length).toBe(4);
  });

  it('keys a page by its bytes less its VirtualCount (every page carries it), written as digits alone', () => {
    const a = pageKey(Buffer.from(pageText(4, 10)));
    const b = pageKey(Buffer.from(pageText(4, 11)));
    expect(Buffer.from(a.hash).equals(Buffer.from(b.hash))).toBe(true);
    expect([a.count, b.count]).toEqual([10, 11]);
    // Quoted digits alike; a listing changed is another key.
    const quoted = (count: string) =>
      Buffer.from(pageText(4, 10).replace('"VirtualCount":10', `"VirtualCount":"${count}"`));
    expect(pageKey(quoted('12'))).toMatchObject({ count: 12 });
    expect(Buffer.from(pageKey(quoted('12')).hash).equals(Buffer.from(pageKey(quoted('13')).hash))).toBe(
      true,
    );
    expect(Buffer.from(pageKey(Buffer.from(pageText(4, 10, 300_001))).hash).equals(Buffer.from(a.hash))).toBe(
      false,
    );
    // Any other count: the whole page is the key, and the memo's count stands.
    for (const count of ['-1', '1.5', '007', 'null', '"x"']) {
      const body = Buffer.from(pageText(4, 10).replace('"VirtualCount":10', `"VirtualCount":${count}`));
      expect(pageKey(body)).toEqual({ hash: pageHash(body) });
    }
    const none = Buffer.from(pageText(4, 10).replace(',"VirtualCount":10', ''));
    expect(pageKey(none)).toEqual({ hash: pageHash(none) });
  });

  it('keys a page in the pieces it arrived in as it keys it whole, wherever the pieces were cut', () => {
    const bodies = [
      pageText(6, 123_456),
      pageText(3, 10).replace('"VirtualCount":10', '"VirtualCount": "10" '),
      pageText(3, 10).replace('"VirtualCount":10', '"VirtualCount":1.5'),
      pageText(3, 10).replace(',"VirtualCount":10', ''),
    ].map((text) => Buffer.from(text));
    for (const body of bodies) {
      const whole = pageKey(body);
      const at = body.lastIndexOf('"VirtualCount"');
      // Every cut around the count (in the key, in its digits, after them), and some elsewhere.
      const cuts = new Set([1, 7, body.length >> 1, body.length - 1]);
      for (let i = Math.max(1, at - 2); at >= 0 && i < Math.min(body.length, at + 24); i++) cuts.add(i);
      for (const cut of cuts) {
        for (const pieces of [
          [body.subarray(0, cut), body.subarray(cut)],
          [body.subarray(0, cut >> 1), body.subarray(cut >> 1, cut), body.subarray(cut)],
          [body.subarray(0, cut), Buffer.alloc(0), body.subarray(cut, cut + 1), body.subarray(cut + 1)],
        ]) {
          const key = pageKey(pieces);
          expect(Buffer.from(key.hash).equals(Buffer.from(whole.hash)), `cut at ${cut}`).toBe(true);
          expect(key.count).toBe(whole.count);
        }
      }
      expect(
        Buffer.from(pageHash([body.subarray(0, 5), body.subarray(5)])).equals(Buffer.from(pageHash(body))),
      ).toBe(true);
    }
  });

  it("gives a known page's entry back as it was written, for the memo the run leaves", () => {
    const texts = [pageText(5), pageText(4, 9)];
    const index = PageMemoIndex.parse(memoOf(texts), SALT);
    const hex = (text: string) => Buffer.from(pageHash(Buffer.from(text))).toString('hex');
    texts.forEach((text, page) => {
      const hash = pageHash(Buffer.from(text));
      const entry = index?.entriesOf([hex(text)]);
      expect(entry && Buffer.from(entry)).toEqual(
        Buffer.from(encodePageEntry(hash, decodePage(text, 'MLSNumber', TAGS, page))),
      );
      // Its own buffer: it is handed to another thread.
      expect(entry?.byteLength).toBe(entry?.buffer.byteLength);
    });
    // Both, one after the other; a page the memo does not know adds nothing.
    const both = index?.entriesOf([hex(texts[0]!), hex(pageText(2)), hex(texts[1]!)]);
    const each = texts.map((text, page) =>
      Buffer.from(encodePageEntry(pageHash(Buffer.from(text)), decodePage(text, 'MLSNumber', TAGS, page))),
    );
    expect(both && Buffer.from(both)).toEqual(Buffer.concat(each));
    expect(index?.entriesOf([hex(pageText(2))]).byteLength).toBe(0);
  });

  it("has the record memo store's header size, and an id no feed's record memo has", () => {
    expect(PAGE_MEMO_HEADER_BYTES).toBe(MEMO_HEADER_BYTES);
    expect(pageMemoHeader(SALT, 1, 2)).toHaveLength(MEMO_HEADER_BYTES);
    expect(pageMemoId('acme')).toBe('acme\u0000pages');
  });
});
