import { hash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { MARKER_FIELDS, type RawFields } from '../normalize/index.ts';

/**
 * The record memo (issue 23 §3): what a run learned of each valid record of a feed, kept for the
 * next run, so an unchanged record is not mapped, checked, tagged, hashed and digested again.
 *
 * A record is known by a fingerprint of its raw fields (names and values, exactly as the source
 * gave them: 64 bits), seeded with everything else its listing depends on (`memoSeed`: the feed's
 * config, the mapping the run compiled, feed-sync's code and runtime, the tags, and the day when a
 * `daysSince` rule reads the clock). A record whose fingerprint the last run saw has the listing
 * key, field mask and digest that run computed; any other record is mapped as usual. So the memo
 * is a cache of a pure function: it can be lost, stale or from another version without changing
 * any result; only a record it answers for is spared the work. A memo is rebuilt from scratch at
 * least once a day (`MEMO_MAX_AGE_MS`), and a run that finds it wrong about a record deletes it.
 */

/** One record's listing, as the run keeps it (`DesiredIndex`): its key, field mask and digest. */
export interface MemoEntry {
  key: string;
  mask: number;
  digest: number;
  /** The fields its record lacked, filled with the unknown marker (`unknownMaskOf`): the report counts them. */
  unknown: number;
}

/** A record's fingerprint: 53 bits (`fp`, the table's key) and 32 more (`check`). */
export interface Fingerprint {
  fp: number;
  check: number;
}

/** A memo is used for at most this long after it was first built; then a run maps every record again. */
export const MEMO_MAX_AGE_MS = 24 * 3_600_000;

/** The file's first 8 bytes. A change of layout or of what a fingerprint covers changes them. */
const MAGIC = Buffer.from('FSMEMO03', 'latin1');
/** Magic, seed (float64), count, built at (seconds), CRC-32 of the rest (uint32 each), 4 bytes free. */
const HEADER_BYTES = 32;
/** Bytes before a memo's first row: where its header goes once the rows are written (`MemoWriter.finish`). */
export const MEMO_HEADER_BYTES = HEADER_BYTES;
/** A row: fp, digest (float64), mask (int32), check, unknown (uint32), key length (uint16), then the key's UTF-8. */
const ROW_BYTES = 30;
/** Keys longer than this (UTF-8 bytes) are not memoized. */
const MAX_KEY_BYTES = 0xffff;
/** A memo larger than this is not read (a feed of 50M records is beyond any run's bounds). */
const MAX_ENTRIES = 50_000_000;
/** Nesting a fingerprint follows (XML, RESO); a deeper record is not memoized. */
const MAX_DEPTH = 32;

const M1 = 2654435761;
const M2 = 1597334677;
/** Marks no UTF-16 unit can be: they separate names, values and their types. */
const NAME_END = 0x1_0001;
const TEXT = 0x1_0002;
const NUMBER = 0x1_0003;
const TRUE = 0x1_0004;
const FALSE = 0x1_0005;
const NULL = 0x1_0006;
const LIST = 0x1_0008;
const OBJECT = 0x1_0009;
const END = 0x1_000a;

/** See digest.ts: `charCodeAt` called through the function stays monomorphic on every kind of string. */
const charCodeAt = String.prototype.charCodeAt;

let h1 = 0;
let h2 = 0;

function mix(code: number): void {
  h1 = Math.imul(h1 ^ code, M1);
  h2 = Math.imul(h2 ^ code, M2);
}

function mixString(s: string): void {
  let a = h1;
  let b = h2;
  for (let i = 0; i < s.length; i++) {
    const c = charCodeAt.call(s, i);
    a = Math.imul(a ^ c, M1);
    b = Math.imul(b ^ c, M2);
  }
  h1 = a ^ s.length;
  h2 = b;
}

/**
 * False for a value no fingerprint covers, so that its record is mapped every run: a value a JSON
 * round trip would not give back as it was (undefined, NaN, -0, a Date, a Buffer) or nesting too deep.
 */
function mixValue(value: unknown, depth: number): boolean {
  if (typeof value === 'string') {
    mix(TEXT);
    mixString(value);
    return true;
  }
  if (typeof value === 'number') {
    // Only what a JSON round trip keeps (a known record's fields are spilled as JSON).
    if (!Number.isFinite(value) || Object.is(value, -0)) return false;
    mix(NUMBER);
    mixString(String(value));
    return true;
  }
  if (typeof value === 'boolean' || value === null) {
    mix(value === null ? NULL : value ? TRUE : FALSE);
    return true;
  }
  if (depth >= MAX_DEPTH || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    mix(LIST);
    for (const item of value) if (!mixValue(item, depth + 1)) return false;
    mix(END);
    return true;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  mix(OBJECT);
  if (!mixFields(value as RawFields, depth + 1)) return false;
  mix(END);
  return true;
}

function mixFields(fields: RawFields, depth: number): boolean {
  for (const name in fields) {
    mixString(name);
    mix(NAME_END);
    if (!mixValue(fields[name], depth)) return false;
  }
  return true;
}

/** The second half of the last fingerprint (`fingerprintOf`): 32 bits more to tell two records apart. */
let lastCheck = 0;

/**
 * A record's fingerprint: a hash of its fields' names and values, in the order the source gave
 * them, and of the seed. Returns its first 53 bits (`fingerprintCheck` gives 32 more), or NaN for
 * a record it cannot cover (a value that is not text, number, boolean, null, list or plain object):
 * such a record is mapped every run.
 */
export function fingerprintOf(fields: RawFields, seed: number): number {
  h1 = (seed % 4294967296) ^ 0xdeadbeef;
  h2 = Math.floor(seed / 4294967296) ^ 0x41c6ce57;
  if (!mixFields(fields, 0)) return Number.NaN;
  let a = h1;
  let b = h2;
  a = Math.imul(a ^ (a >>> 16), 2246822507);
  a ^= Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507);
  b ^= Math.imul(a ^ (a >>> 13), 3266489909);
  // The check: the two lanes mixed once more the other way round, so it is not the fp's bits.
  lastCheck = (Math.imul(a ^ (b >>> 15), 2654435761) ^ Math.imul(b, 1597334677)) >>> 0;
  return 4294967296 * (2097151 & b) + (a >>> 0);
}

/** The 32 bits beyond the 53 that the last `fingerprintOf` returned. */
export function fingerprintCheck(): number {
  return lastCheck;
}

/**
 * A seed from the texts a record's listing depends on besides its fields (see `memoSeed`): SHA-256,
 * 53 bits of it (the feed's config can hold credentials: the seed, kept in the memo, is no cheap
 * hash of them).
 */
export function seedOf(parts: readonly string[]): number {
  const digest = Buffer.from(hash('sha256', parts.join('\u0000'), 'hex'), 'hex');
  return (digest.readUInt32LE(0) & 0x1fffff) * 4294967296 + digest.readUInt32LE(4);
}

/** The memo a run read: fingerprint → entry, read from its bytes where they lie (no copy). */
export class RecordMemo {
  readonly seed: number;
  /** When the memo was first built (ms): it is used for at most `MEMO_MAX_AGE_MS` after. */
  readonly builtAt: number;
  readonly size: number;
  readonly #bytes: Buffer;
  readonly #view: DataView;
  /** Open addressing on the fingerprint's low bits: a row's offset plus one, 0 for an empty slot. */
  readonly #slots: Int32Array;

  private constructor(bytes: Buffer, seed: number, builtAt: number, size: number, slots: Int32Array) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.seed = seed;
    this.builtAt = builtAt;
    this.size = size;
    this.#slots = slots;
  }

  /** The memo in `bytes` (`MemoWriter`), or undefined when they are not one whole memo. */
  static fromBytes(input: Uint8Array): RecordMemo | undefined {
    const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    if (bytes.length < HEADER_BYTES || !MAGIC.equals(bytes.subarray(0, 8))) return undefined;
    const seed = bytes.readDoubleLE(8);
    const count = bytes.readUInt32LE(16);
    const builtAt = bytes.readUInt32LE(20) * 1000;
    if (count > MAX_ENTRIES || bytes.length < HEADER_BYTES + count * ROW_BYTES) return undefined;
    if (crc32(bytes.subarray(HEADER_BYTES)) !== bytes.readUInt32LE(24)) return undefined;
    let size = 16;
    while (size < count * 2) size *= 2;
    const slots = new Int32Array(size);
    const mask = size - 1;
    let at = HEADER_BYTES;
    for (let i = 0; i < count; i++) {
      if (at + ROW_BYTES > bytes.length) return undefined;
      const fp = bytes.readDoubleLE(at);
      if (!(fp >= 0 && fp <= Number.MAX_SAFE_INTEGER)) return undefined;
      let slot = (fp % size) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = at + 1;
      at += ROW_BYTES + bytes.readUInt16LE(at + 28);
    }
    if (at !== bytes.length) return undefined;
    return new RecordMemo(bytes, seed, builtAt, count, slots);
  }

  /**
   * Let the memo's bytes go now rather than at a full collection: the feed's last record was looked
   * up, or the memo was let go. ~46 MB at a million records, freed before the run indexes the feed
   * (the 1M no-op's peak). Asked after, the memo knows nothing.
   */
  release(): void {
    this.#released = true;
    freeNow(this.#bytes);
    freeNow(this.#slots);
  }

  #released = false;

  /** The entry a fingerprint has (both its halves), or undefined. */
  get(fp: number, check: number): MemoEntry | undefined {
    if (this.#released) return undefined;
    const slots = this.#slots;
    const view = this.#view;
    const mask = slots.length - 1;
    let slot = (fp % slots.length) & mask;
    for (let found = slots[slot] as number; found !== 0; found = slots[slot] as number) {
      const at = found - 1;
      if (view.getFloat64(at, true) === fp && view.getUint32(at + 20, true) === check) {
        const length = view.getUint16(at + 28, true);
        return {
          key: this.#bytes.toString('utf8', at + ROW_BYTES, at + ROW_BYTES + length),
          mask: view.getInt32(at + 16, true),
          digest: view.getFloat64(at + 8, true),
          unknown: view.getUint32(at + 24, true),
        };
      }
      slot = (slot + 1) & mask;
    }
    return undefined;
  }
}

/** A memo's header (`MemoWriter.finish`): what a feed reading names its memo by (`feed-reading.ts`). */
export interface MemoHeader {
  seed: number;
  /** When the memo was first built (ms). */
  builtAt: number;
  /** Its rows. */
  count: number;
  /** CRC-32 of its rows. */
  crc: number;
}

/** The header of a memo's bytes (its magic checked, nothing else), or undefined. */
export function memoHeaderOf(bytes: Uint8Array): MemoHeader | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < HEADER_BYTES || !MAGIC.equals(b.subarray(0, 8))) return undefined;
  return {
    seed: b.readDoubleLE(8),
    count: b.readUInt32LE(16),
    builtAt: b.readUInt32LE(20) * 1000,
    crc: b.readUInt32LE(24),
  };
}

/**
 * Each row of a whole memo in the order it was written (for a run that noted every listing of its
 * feed, the feed's listings in order): its header, or undefined, with no row visited, when the bytes
 * are not one whole memo (the checks of `RecordMemo.fromBytes`) or `accept` refuses its header. The
 * bytes are the caller's, and freed once read (as `RecordMemo.release` does).
 */
export function forEachMemoRow(
  input: Uint8Array,
  visit: (key: string, mask: number, digest: number, unknown: number) => void,
  accept: (header: MemoHeader) => boolean = () => true,
): MemoHeader | undefined {
  const header = memoHeaderOf(input);
  if (header === undefined || header.count > MAX_ENTRIES || !accept(header)) return undefined;
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (bytes.length < HEADER_BYTES + header.count * ROW_BYTES) return undefined;
  if (crc32(bytes.subarray(HEADER_BYTES)) !== header.crc) return undefined;
  let at = HEADER_BYTES;
  for (let i = 0; i < header.count; i++) {
    if (at + ROW_BYTES > bytes.length) return undefined;
    at += ROW_BYTES + bytes.readUInt16LE(at + 28);
  }
  if (at !== bytes.length) return undefined;
  at = HEADER_BYTES;
  for (let i = 0; i < header.count; i++) {
    const length = bytes.readUInt16LE(at + 28);
    visit(
      bytes.toString('utf8', at + ROW_BYTES, at + ROW_BYTES + length),
      bytes.readInt32LE(at + 16),
      bytes.readDoubleLE(at + 8),
      bytes.readUInt32LE(at + 24),
    );
    at += ROW_BYTES + length;
  }
  freeNow(input);
  return header;
}

/**
 * Free a view's memory now: its buffer detached (`ArrayBuffer.prototype.transfer`), so the allocator
 * gets it back at once instead of at the garbage collection that finds it unreachable. Only a view
 * of a whole buffer of its own: a slice of Node's pool (a small file read) shares its buffer.
 */
function freeNow(view: ArrayBufferView): void {
  const { buffer } = view;
  if (!(buffer instanceof ArrayBuffer) || buffer.detached) return;
  if (view.byteOffset !== 0 || view.byteLength !== buffer.byteLength) return;
  buffer.transfer(0);
}

/** Whether a key can be memoized: well-formed text (UTF-8 gives it back as it was), not too long. */
export function memoizableKey(key: string): boolean {
  return key.length <= MAX_KEY_BYTES / 3 && key.isWellFormed();
}

/**
 * A memo written as it is made, a row at a time, in chunks of about 1 MiB (`flush` hands each to
 * the caller): no memo is held whole (~35 MB at a million records with short keys). `finish`
 * gives the header, to be written at the file's start.
 */
export class MemoWriter {
  readonly #flush: (chunk: Buffer) => void;
  #chunk = Buffer.allocUnsafe(1 << 20);
  #at = 0;
  #count = 0;
  #crc = 0;

  constructor(flush: (chunk: Buffer) => void) {
    this.#flush = flush;
  }

  /** One entry (`unknown` apart: no object made per record); a key that cannot be memoized (`memoizableKey`) is left out. */
  add(fp: number, check: number, entry: Omit<MemoEntry, 'unknown'>, unknown: number): void {
    if (!memoizableKey(entry.key)) return;
    const most = ROW_BYTES + entry.key.length * 3;
    if (this.#at + most > this.#chunk.length) {
      this.#emit();
      if (most > this.#chunk.length) this.#chunk = Buffer.allocUnsafe(most);
    }
    const chunk = this.#chunk;
    const at = this.#at;
    chunk.writeDoubleLE(fp, at);
    chunk.writeDoubleLE(entry.digest, at + 8);
    chunk.writeInt32LE(entry.mask, at + 16);
    chunk.writeUInt32LE(check, at + 20);
    chunk.writeUInt32LE(unknown, at + 24);
    const length = chunk.write(entry.key, at + ROW_BYTES, 'utf8');
    chunk.writeUInt16LE(length, at + 28);
    this.#at = at + ROW_BYTES + length;
    this.#count++;
  }

  /** Flush what is left; the header (count, CRC, seed, built at) to write at offset 0. */
  finish(seed: number, builtAt: number): Buffer {
    this.#emit();
    const header = Buffer.alloc(HEADER_BYTES);
    MAGIC.copy(header, 0);
    header.writeDoubleLE(seed, 8);
    header.writeUInt32LE(this.#count, 16);
    header.writeUInt32LE(Math.floor(builtAt / 1000), 20);
    header.writeUInt32LE(this.#crc, 24);
    return header;
  }

  #emit(): void {
    if (this.#at === 0) return;
    const chunk = this.#chunk.subarray(0, this.#at);
    this.#crc = crc32(chunk, this.#crc);
    this.#flush(chunk);
    this.#at = 0;
  }
}

/** A memo as one buffer (tests): the header, then the rows. */
export function memoBytes(seed: number, builtAt: number, entries: Iterable<MemoEntry & Fingerprint>): Buffer {
  const chunks: Buffer[] = [];
  const writer = new MemoWriter((chunk) => chunks.push(Buffer.from(chunk)));
  for (const { fp, check, ...entry } of entries) writer.add(fp, check, entry, entry.unknown);
  return Buffer.concat([writer.finish(seed, builtAt), ...chunks]);
}

/**
 * Each marker field's bit in an entry's `unknown`, in the order the mapping marks them
 * (`MARKER_FIELDS`): a known record's fields come back as the mapping gave them, so the report's
 * counts are in the same order with the memo as without.
 */
const UNKNOWN_BIT = new Map<string, number>(MARKER_FIELDS.map((field, i) => [field, i]));

/** The fields a record lacked as bits (`MemoEntry.unknown`); -1 for one no bit stands for (not memoized). */
export function unknownMaskOf(fields: readonly string[] | undefined): number {
  let mask = 0;
  for (const field of fields ?? []) {
    const bit = UNKNOWN_BIT.get(field);
    if (bit === undefined) return -1;
    mask |= 1 << bit;
  }
  return mask >>> 0;
}

const NO_FIELDS: readonly string[] = [];

/** The fields of an `unknown` mask, in `MARKER_FIELDS` order. */
export function unknownFieldsOf(mask: number): readonly string[] {
  if (mask === 0) return NO_FIELDS;
  const fields: string[] = [];
  for (const [field, bit] of UNKNOWN_BIT) if ((mask >>> bit) & 1) fields.push(field);
  return fields;
}
