import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import { crc32 } from 'node:zlib';
import type { TagKeys } from './ownership.ts';
import { PAGE_SPAN, type RemotePage } from './remote-page.ts';

/**
 * The page memo: what the last run's decoding made of each page of the chatbot's listings, by the
 * page's bytes. The platform answers an unchanged chatbot's pages with the same bytes run after
 * run; a page whose key (`pageKey`: the SHA-1 of its bytes less its VirtualCount, which is read from
 * the page itself) the memo holds is not parsed, canonicalized and digested again (~12 µs a
 * listing, ~10 ms a page of 1000, in the decode thread), its columns are read back (~0.1 ms). A page
 * whose other bytes changed in any way (a listing edited, one more on it, a server that stamps its
 * answers) is decoded as before: the memo can only say what these very bytes decode to.
 *
 * Kept beside the record memo, one per feed (`MemoStore`, `<feed>%00pages.memo`), written by each
 * run that read its pages (not a dry run, not `plan`), whole or not at all (the store's rename).
 * Seeded (`pageMemoSalt`) with the code's stamp, the runtime, the key field and the tag keys: a
 * memo of other code or settings is not used. Bounded (`PAGE_MEMO_MAX_BYTES`): a chatbot too large
 * for it keeps none, so a million-listing run holds no more memory than before. A run that reuses
 * its feed's last reading (`feed-reading.ts`) reads and maps no record, and holds a memo up to
 * `PAGE_MEMO_REUSED_MAX_BYTES` instead: a million listings' pages.
 */

/**
 * Bumped when what an entry means or how it is written changes (the columns, the digest, their
 * layout); the columns are in this machine's byte order, so a memo moved to another is none.
 */
const VERSION = `page-memo 2 ${endianness()}`;
const MAGIC = 'FSPAGES1';
/** The most a page memo holds (~750k listings, counted at 44 bytes each): read, written and held. */
export const PAGE_MEMO_MAX_BYTES = 32 * 1024 * 1024;
/**
 * The most a page memo holds in a run that reads no record of its feed (its last reading reused):
 * ~2.5M listings with MLS numbers as keys (a million take 37 MB).
 */
export const PAGE_MEMO_REUSED_MAX_BYTES = 96 * 1024 * 1024;
/**
 * An entry's bytes a listing, about, by key field (for deciding up front that a chatbot is too
 * large): ~37 with MLS numbers as keys and tags; URLs as keys, ~100 characters, ~140.
 */
export const PAGE_MEMO_BYTES_PER_LISTING = { MLSNumber: 44, Url: 160 } as const;
const HASH_BYTES = 20;
/**
 * The header's size: the record memo's (`MEMO_HEADER_BYTES`, where the memo store writes rows
 * from; a test holds them equal), not imported, so the decode thread loads no ingest module.
 */
export const PAGE_MEMO_HEADER_BYTES = 32;

/**
 * What a memo's entries depend on besides the page's bytes: the code (`stamp`), the runtime (Node's
 * and ICU's versions: case folding and trimming follow their Unicode tables), the key field and the
 * tag keys.
 */
export function pageMemoSalt(
  stamp: string,
  runtime: string,
  keyField: 'MLSNumber' | 'Url',
  tags: TagKeys,
): string {
  return [VERSION, stamp, runtime, keyField, tags.ownerKey, tags.hashKey].join('\n');
}

/** The id of a feed's page memo in the memo store (a feed id has no NUL: no feed's record memo). */
export function pageMemoId(feedId: string): string {
  return `${feedId}\u0000pages`;
}

/** SHA-1 of all of a page's bytes: the memo's key of a page whose count is not digits alone. */
export function pageHash(body: Uint8Array | readonly Uint8Array[]): Uint8Array {
  const sha1 = createHash('sha1');
  for (const piece of piecesOf(body)) sha1.update(piece);
  return sha1.digest();
}

/** A page's bytes as the pieces they arrived in (one when whole). */
function piecesOf(body: Uint8Array | readonly Uint8Array[]): readonly Buffer[] {
  const pieces = body instanceof Uint8Array ? [body] : body;
  return pieces.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength));
}

/**
 * Where the last `needle` starts in the bytes the pieces make up, as one offset (-1: nowhere). An
 * occurrence that straddles two pieces is found too; the pieces are not joined.
 */
function lastIndexAcross(pieces: readonly Buffer[], needle: Buffer): number {
  let end = pieces.reduce((total, piece) => total + piece.length, 0);
  for (let i = pieces.length - 1; i >= 0; i--) {
    const piece = pieces[i] as Buffer;
    const start = end - piece.length;
    const inside = piece.lastIndexOf(needle);
    if (inside >= 0) return start + inside;
    // Across this piece's start: the needle.length - 1 bytes before it and as many from it.
    if (i > 0 && needle.length > 1) {
      const from = Math.max(0, start - (needle.length - 1));
      const across = bytesAt(pieces, from, start + needle.length - 1 - from).lastIndexOf(needle);
      if (across >= 0) return from + across;
    }
    end = start;
  }
  return -1;
}

/** Up to `length` of the pieces' bytes from offset `at` on, as one buffer. */
function bytesAt(pieces: readonly Buffer[], at: number, length: number): Buffer {
  const parts: Buffer[] = [];
  let start = 0;
  for (const piece of pieces) {
    const end = start + piece.length;
    if (end > at && start < at + length)
      parts.push(piece.subarray(Math.max(0, at - start), Math.min(piece.length, at + length - start)));
    start = end;
  }
  return Buffer.concat(parts);
}

/** The list answer's count key, as its bytes. */
export const VIRTUAL_COUNT = Buffer.from('"VirtualCount"');
const COUNT_LEFT_OUT = Buffer.from('feed-sync: VirtualCount left out\u0000');
/** Bytes after a page's `"VirtualCount"` its count is looked for in (`pageKey`). */
const COUNT_WINDOW = 4096;

/**
 * A page's memo key, and its VirtualCount when the key leaves it out. Every page carries the
 * chatbot's count, so one listing created or deleted anywhere changes every page's bytes: the key
 * is the SHA-1 of the page without the count's digits, and the count is read from the page itself
 * (`count`). Only a count written as digits alone, bare or quoted, then `,` or `}` (what the list
 * schema reads as `Number` of those digits, and a key never found inside a string: a string's
 * quotes are escaped); any other page is keyed by all its bytes, its count then the memo's.
 */
export function pageKey(body: Uint8Array | readonly Uint8Array[]): { hash: Uint8Array; count?: number } {
  // In the pieces the page arrived in, not joined: a page the memo knows is never joined at all.
  const pieces = piecesOf(body);
  const last = lastVirtualCount(pieces);
  if (last === undefined) return { hash: pageHash(pieces) };
  const { at, near } = last;
  const found = countSpan(near, VIRTUAL_COUNT.length);
  if (found === undefined) return { hash: pageHash(pieces) };
  const span = { start: at + found.start, end: at + found.end };
  const sha1 = createHash('sha1').update(COUNT_LEFT_OUT);
  let offset = 0;
  for (const piece of pieces) {
    const from = offset;
    offset += piece.length;
    // The piece less whatever of the digits' span falls in it.
    if (offset <= span.start || from >= span.end) sha1.update(piece);
    else {
      if (span.start > from) sha1.update(piece.subarray(0, span.start - from));
      if (span.end < offset) sha1.update(piece.subarray(span.end - from));
    }
  }
  return { hash: sha1.digest(), count: Number(near.toString('latin1', found.start, found.end)) };
}

/**
 * Where a page's last `"VirtualCount"` key starts, and its bytes with up to 4 KiB after them (a run
 * of JSON white space longer than that reads as no count), from the pieces the page arrived in.
 */
export function lastVirtualCount(
  body: Uint8Array | readonly Uint8Array[],
): { at: number; near: Buffer } | undefined {
  const pieces = piecesOf(body);
  const at = lastIndexAcross(pieces, VIRTUAL_COUNT);
  return at < 0 ? undefined : { at, near: bytesAt(pieces, at, VIRTUAL_COUNT.length + COUNT_WINDOW) };
}

/** The digits of the count after `"VirtualCount"` (at `from`), if it is written as digits alone. */
function countSpan(bytes: Buffer, from: number): { start: number; end: number } | undefined {
  const digits = countDigitsAt(bytes, from);
  if (digits === undefined) return undefined;
  const { start, end, next } = digits;
  if (end === start || end - start > 15) return undefined;
  // Bare, `007` is no JSON number (its page fails to parse): keyed by all its bytes.
  if (!digits.quoted && end - start > 1 && bytes[start] === 0x30) return undefined;
  const after = skipSpace(bytes, next);
  return bytes[after] === 0x2c || bytes[after] === 0x7d ? { start, end } : undefined;
}

/**
 * The digits of the value after a `"VirtualCount"` key that ends at `from`: its colon, JSON
 * whitespace, an optional quote (then a closing one); `next`, where the value ends. Undefined when
 * no colon follows, or a quote is not closed after the digits. There may be no digit at all.
 */
export function countDigitsAt(
  bytes: Buffer,
  from: number,
): { start: number; end: number; quoted: boolean; next: number } | undefined {
  let i = skipSpace(bytes, from);
  if (bytes[i++] !== 0x3a) return undefined;
  i = skipSpace(bytes, i);
  const quoted = bytes[i] === 0x22;
  if (quoted) i++;
  const start = i;
  while (i < bytes.length && (bytes[i] as number) >= 0x30 && (bytes[i] as number) <= 0x39) i++;
  const end = i;
  if (quoted && bytes[i++] !== 0x22) return undefined;
  return { start, end, quoted, next: i };
}

/** The index of the first byte at or after `i` that is not JSON whitespace. */
function skipSpace(bytes: Buffer, from: number): number {
  let i = from;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  )
    i++;
  return i;
}

/**
 * An entry's body, after its hash, length and CRC-32: a head of `BODY_HEAD_BYTES` (n, the distinct
 * owners, the keys' and the owners' bytes, how their text is written, VirtualCount or NaN), then
 * the columns as the typed arrays hold them (ids, digests, masks), each key's end and each
 * listing's owner (an index into the owners), the owners' ends, Sold, and the keys' and owners'
 * text. Read back with a copy per column (~0.1 µs a listing where JSON took ~1 µs, and ~35 bytes a
 * listing where it took ~55). Text is Latin-1 when every code unit fits a byte, else UTF-16: either
 * gives back every string exactly, a lone surrogate too.
 */
const BODY_HEAD_BYTES = 32;
const UTF16_KEYS = 1;
const UTF16_OWNERS = 2;

/** A string as bytes that give it back exactly, and whether they are UTF-16. */
function textBytes(text: string): { bytes: Buffer; utf16: boolean } {
  const utf16 = /[^\x00-\xff]/.test(text);
  return { bytes: Buffer.from(text, utf16 ? 'utf16le' : 'latin1'), utf16 };
}

/** The bytes of a typed array (a view, not a copy). */
const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** The page's columns as one entry: its hash, its body's length and CRC-32, then its body (above). */
export function encodePageEntry(hash: Uint8Array, page: RemotePage): Uint8Array {
  const n = page.length;
  const keyEnds = new Uint32Array(n);
  let end = 0;
  for (let i = 0; i < n; i++) {
    end += (page.keys[i] as string).length;
    keyEnds[i] = end;
  }
  const ownerIds = new Map<string, number>();
  const ownerOf = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const owner = page.owners[i] as string;
    let id = ownerIds.get(owner);
    if (id === undefined) {
      id = ownerIds.size;
      ownerIds.set(owner, id);
    }
    ownerOf[i] = id;
  }
  const owners = [...ownerIds.keys()];
  const ownerEnds = new Uint32Array(owners.length);
  end = 0;
  for (const [i, owner] of owners.entries()) {
    end += owner.length;
    ownerEnds[i] = end;
  }
  const keys = textBytes(page.keys.join(''));
  const ownerText = textBytes(owners.join(''));
  const columns = [
    bytesOf(page.ids),
    bytesOf(page.digests),
    bytesOf(page.masks),
    bytesOf(keyEnds),
    bytesOf(ownerOf),
    bytesOf(ownerEnds),
    bytesOf(page.sold),
    keys.bytes,
    ownerText.bytes,
  ];
  const length = BODY_HEAD_BYTES + columns.reduce((sum, c) => sum + c.byteLength, 0);
  // Never a slice of Node's pool of small buffers: the entry's buffer is handed to another thread.
  const entry = Buffer.allocUnsafeSlow(HASH_BYTES + 8 + length);
  entry.set(hash, 0);
  entry.writeUInt32LE(length, HASH_BYTES);
  const body = HASH_BYTES + 8;
  entry.writeUInt32LE(n, body);
  entry.writeUInt32LE(owners.length, body + 4);
  entry.writeUInt32LE(keys.bytes.length, body + 8);
  entry.writeUInt32LE(ownerText.bytes.length, body + 12);
  entry.writeUInt32LE((keys.utf16 ? UTF16_KEYS : 0) | (ownerText.utf16 ? UTF16_OWNERS : 0), body + 16);
  entry.writeUInt32LE(0, body + 20);
  entry.writeDoubleLE(page.virtualCount ?? Number.NaN, body + 24);
  let at = body + BODY_HEAD_BYTES;
  for (const column of columns) {
    entry.set(column, at);
    at += column.byteLength;
  }
  entry.writeUInt32LE(crc32(entry.subarray(body)), HASH_BYTES + 4);
  return new Uint8Array(entry.buffer, entry.byteOffset, entry.length);
}

/** The memo's header (`PAGE_MEMO_HEADER_BYTES`): its magic, its salt's digest, its entries and bytes. */
export function pageMemoHeader(salt: string, entries: number, bytes: number): Uint8Array {
  const header = Buffer.alloc(PAGE_MEMO_HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  createHash('sha256').update(salt).digest().copy(header, 8, 0, 16);
  header.writeUInt32LE(entries, 24);
  header.writeUInt32LE(bytes, 28);
  return header;
}

/** A memo read back: each entry's place by its page's hash. */
export class PageMemoIndex {
  readonly #bytes: Buffer;
  readonly #at = new Map<string, { start: number; length: number; crc: number }>();

  private constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }

  /**
   * Let the memo's bytes go now (its run ended, or was abandoned): up to 96 MB a run that reuses its
   * feed's reading holds, given back at once rather than at the thread's next full collection.
   * Asked after, the memo knows no page.
   */
  release(): void {
    this.#at.clear();
    const { buffer } = this.#bytes;
    if (buffer instanceof ArrayBuffer && !buffer.detached && this.#bytes.byteLength === buffer.byteLength)
      buffer.transfer(0);
  }

  /**
   * The memo in `bytes` if it is one of this salt, whole (its header's count and length agree with
   * its entries); else undefined.
   */
  static parse(memo: Uint8Array, salt: string): PageMemoIndex | undefined {
    const bytes = Buffer.from(memo.buffer, memo.byteOffset, memo.byteLength);
    const most = Math.max(PAGE_MEMO_MAX_BYTES, PAGE_MEMO_REUSED_MAX_BYTES);
    if (bytes.length < PAGE_MEMO_HEADER_BYTES || bytes.length > PAGE_MEMO_HEADER_BYTES + most) return;
    const expected = pageMemoHeader(salt, bytes.readUInt32LE(24), bytes.length - PAGE_MEMO_HEADER_BYTES);
    if (!bytes.subarray(0, PAGE_MEMO_HEADER_BYTES).equals(expected)) return;
    const index = new PageMemoIndex(bytes);
    let at = PAGE_MEMO_HEADER_BYTES;
    let entries = 0;
    while (at < bytes.length) {
      if (at + HASH_BYTES + 8 > bytes.length) return;
      const length = bytes.readUInt32LE(at + HASH_BYTES);
      const crc = bytes.readUInt32LE(at + HASH_BYTES + 4);
      const start = at + HASH_BYTES + 8;
      if (start + length > bytes.length) return;
      index.#at.set(bytes.toString('hex', at, at + HASH_BYTES), { start, length, crc });
      at = start + length;
      entries++;
    }
    return entries === bytes.readUInt32LE(24) ? index : undefined;
  }

  /** The entries of the pages whose hashes (hex) are given, one after another, in a buffer of its own. */
  entriesOf(hashes: Iterable<string>): Uint8Array {
    const places = [...hashes].map((hex) => this.#at.get(hex)).filter((p) => p !== undefined);
    const out = new Uint8Array(places.reduce((sum, p) => sum + HASH_BYTES + 8 + p.length, 0));
    let at = 0;
    for (const place of places) {
      const entry = this.#bytes.subarray(place.start - HASH_BYTES - 8, place.start + place.length);
      out.set(entry, at);
      at += entry.length;
    }
    return out;
  }

  /** Entries held. */
  get size(): number {
    return this.#at.size;
  }

  /**
   * The page whose bytes hash to `hash`, as `decodePage` made it, numbered `page` (its records'
   * places, `refs`); undefined when the memo does not hold it or its entry does not read back whole
   * (its CRC-32, its columns' lengths).
   */
  get(hash: Uint8Array, page: number): RemotePage | undefined {
    const place = this.#at.get(Buffer.from(hash).toString('hex'));
    if (place === undefined) return undefined;
    try {
      return readEntry(this.#bytes.subarray(place.start, place.start + place.length), place.crc, page);
    } catch {
      // Whatever went wrong reading it (memory, say) costs this page's decoding, never the run.
      return undefined;
    }
  }
}

/** An entry's body read back (`encodePageEntry`), or undefined when it is not one, whole and exact. */
function readEntry(body: Buffer, crc: number, page: number): RemotePage | undefined {
  // An entry whose bytes changed on disk is no entry (its page is decoded).
  if (body.length < BODY_HEAD_BYTES || crc32(body) !== crc) return undefined;
  const n = body.readUInt32LE(0);
  const ownerCount = body.readUInt32LE(4);
  const keyBytes = body.readUInt32LE(8);
  const ownerBytes = body.readUInt32LE(12);
  const flags = body.readUInt32LE(16);
  const vc = body.readDoubleLE(24);
  const size = BODY_HEAD_BYTES + n * (8 + 8 + 4 + 4 + 4 + 1) + ownerCount * 4 + keyBytes + ownerBytes;
  // Exactly the layout written: no other flag, the padding zero, UTF-16 text in whole code units.
  if (n >= PAGE_SPAN || size !== body.length || flags > (UTF16_KEYS | UTF16_OWNERS)) return undefined;
  if (body.readUInt32LE(20) !== 0) return undefined;
  if ((flags & UTF16_KEYS && keyBytes % 2 !== 0) || (flags & UTF16_OWNERS && ownerBytes % 2 !== 0))
    return undefined;
  let at = BODY_HEAD_BYTES;
  /** The next `count` elements of `Type`, copied out (aligned, and the memo's bytes can go). */
  const column = <T extends ArrayBufferView>(
    Type: { new (count: number): T },
    count: number,
    width: number,
  ): T => {
    const out = new Type(count);
    bytesOf(out).set(body.subarray(at, at + count * width));
    at += count * width;
    return out;
  };
  const ids = column(Float64Array, n, 8);
  const digests = column(Float64Array, n, 8);
  const masks = column(Int32Array, n, 4);
  const keyEnds = column(Uint32Array, n, 4);
  const ownerOf = column(Uint32Array, n, 4);
  const ownerEnds = column(Uint32Array, ownerCount, 4);
  const sold = column(Uint8Array, n, 1);
  const keyText = body.toString(flags & UTF16_KEYS ? 'utf16le' : 'latin1', at, at + keyBytes);
  at += keyBytes;
  const ownerText = body.toString(flags & UTF16_OWNERS ? 'utf16le' : 'latin1', at, at + ownerBytes);
  const owners = spans(ownerText, ownerEnds);
  const keys = spans(keyText, keyEnds);
  if (owners === undefined || keys === undefined) return undefined;
  const ownerColumn = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const owner = owners[ownerOf[i] as number];
    if (owner === undefined) return undefined;
    ownerColumn[i] = owner;
  }
  const refs = new Float64Array(n);
  for (let i = 0; i < n; i++) refs[i] = page * PAGE_SPAN + i;
  return {
    length: n,
    virtualCount: Number.isNaN(vc) ? undefined : vc,
    ids,
    masks,
    digests,
    refs,
    sold,
    keys,
    owners: ownerColumn,
    known: true,
  };
}

/** `text` cut at `ends` (each string's end), or undefined when they do not cut it whole. */
function spans(text: string, ends: Uint32Array): string[] | undefined {
  const out = new Array<string>(ends.length);
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i] as number;
    if (end < start || end > text.length) return undefined;
    out[i] = text.slice(start, end);
    start = end;
  }
  return start === text.length ? out : undefined;
}
