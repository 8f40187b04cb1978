import type { RawFields } from '../normalize/index.ts';

/**
 * The record memo (issue 23 §3): what a run learned of each valid record of a feed, kept for the
 * next run, so an unchanged record is not mapped, checked, tagged, hashed and digested again.
 *
 * A record is known by a fingerprint of its raw fields (names and values, exactly as the source
 * gave them), seeded with everything else its listing depends on (`memoSeed`: the feed's config,
 * the mapping the run compiled, feed-sync's code, the tags, and the day when a `daysSince` rule
 * reads the clock). A record whose fingerprint the last run saw has the listing key, field mask and
 * digest that run computed; any other record is mapped as usual. So the memo is a pure cache of a
 * pure function: it can be lost, stale or from another version without changing any result; only a
 * record it answers for is spared the work.
 */

/** One record's listing, as the run keeps it (`DesiredIndex`): its key, field mask and digest. */
export interface MemoEntry {
  key: string;
  mask: number;
  digest: number;
}

/** The file's first 8 bytes. A change of layout or of what a fingerprint covers changes them. */
const MAGIC = Buffer.from('FSMEMO01', 'latin1');
/** Magic, seed (float64), count (uint32), 4 bytes of padding: the columns start 8-byte aligned. */
const HEADER_BYTES = 24;
/** Bytes an entry takes besides its key: fingerprint, digest (float64), mask (int32), key end (uint32). */
const ENTRY_BYTES = 24;
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

/** A seed as the two lanes' start: a 53-bit number from `memoSeed`. */
function start(seed: number): void {
  h1 = (seed % 4294967296) ^ 0xdeadbeef;
  h2 = Math.floor(seed / 4294967296) ^ 0x41c6ce57;
}

function finish(): number {
  let a = h1;
  let b = h2;
  a = Math.imul(a ^ (a >>> 16), 2246822507);
  a ^= Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507);
  b ^= Math.imul(a ^ (a >>> 13), 3266489909);
  return 4294967296 * (2097151 & b) + (a >>> 0);
}

/**
 * A record's fingerprint: a 53-bit hash of its fields' names and values, in the order the source
 * gave them, and of the seed. NaN for a record it cannot cover (a value that is not text, number,
 * boolean, null, list or plain object): such a record is mapped every run.
 */
export function fingerprintOf(fields: RawFields, seed: number): number {
  start(seed);
  if (!mixFields(fields, 0)) return Number.NaN;
  return finish();
}

/** A seed from the texts a record's listing depends on besides its fields (see `memoSeed`). */
export function seedOf(parts: readonly string[]): number {
  start(0);
  for (const part of parts) {
    mixString(part);
    mix(END);
  }
  return finish();
}

/** The memo a run read: fingerprint → entry, in typed arrays and one buffer of keys. */
export class RecordMemo {
  readonly seed: number;
  readonly #fps: Float64Array;
  readonly #digests: Float64Array;
  readonly #masks: Int32Array;
  readonly #keyEnds: Uint32Array;
  readonly #keys: Buffer;
  /** Open addressing on the fingerprint's low bits: an entry's number plus one, 0 for an empty slot. */
  readonly #slots: Int32Array;

  private constructor(
    seed: number,
    fps: Float64Array,
    digests: Float64Array,
    masks: Int32Array,
    keyEnds: Uint32Array,
    keys: Buffer,
  ) {
    this.seed = seed;
    this.#fps = fps;
    this.#digests = digests;
    this.#masks = masks;
    this.#keyEnds = keyEnds;
    this.#keys = keys;
    let size = 16;
    while (size < fps.length * 2) size *= 2;
    this.#slots = new Int32Array(size);
    const mask = size - 1;
    for (let i = 0; i < fps.length; i++) {
      let slot = ((fps[i] as number) % size) & mask;
      while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
      this.#slots[slot] = i + 1;
    }
  }

  /** The memo in `bytes` (`memoBytes`), or undefined when they are not one whole memo. */
  static fromBytes(bytes: Uint8Array): RecordMemo | undefined {
    if (bytes.length < HEADER_BYTES || !MAGIC.equals(bytes.subarray(0, 8))) return undefined;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const seed = view.getFloat64(8, true);
    const count = view.getUint32(16, true);
    if (count > MAX_ENTRIES || bytes.length < HEADER_BYTES + count * ENTRY_BYTES) return undefined;
    // Views on the file's bytes (a large file is read into a buffer of its own, at offset 0); copies
    // when their offset does not suit a Float64Array.
    const aligned = bytes.byteOffset % 8 === 0;
    const column = (at: number, width: number): ArrayBuffer | [ArrayBufferLike, number, number] =>
      aligned
        ? [bytes.buffer, bytes.byteOffset + at, count]
        : Uint8Array.prototype.slice.call(bytes, at, at + count * width).buffer;
    const fps = typedOf(Float64Array, column(HEADER_BYTES, 8));
    const digests = typedOf(Float64Array, column(HEADER_BYTES + 8 * count, 8));
    const masks = typedOf(Int32Array, column(HEADER_BYTES + 16 * count, 4));
    const keyEnds = typedOf(Uint32Array, column(HEADER_BYTES + 20 * count, 4));
    const keys = Buffer.from(
      bytes.buffer,
      bytes.byteOffset + HEADER_BYTES + ENTRY_BYTES * count,
      bytes.length - HEADER_BYTES - ENTRY_BYTES * count,
    );
    let previous = 0;
    for (let i = 0; i < count; i++) {
      const end = keyEnds[i] as number;
      const fp = fps[i] as number;
      if (end < previous || !(fp >= 0 && fp <= Number.MAX_SAFE_INTEGER)) return undefined;
      previous = end;
    }
    if (previous !== keys.length) return undefined;
    return new RecordMemo(seed, fps, digests, masks, keyEnds, keys);
  }

  get size(): number {
    return this.#fps.length;
  }

  /** The entry a fingerprint has, or undefined. */
  get(fp: number): MemoEntry | undefined {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let slot = (fp % slots.length) & mask;
    for (let found = slots[slot] as number; found !== 0; found = slots[slot] as number) {
      const i = found - 1;
      if (this.#fps[i] === fp) {
        const from = i === 0 ? 0 : (this.#keyEnds[i - 1] as number);
        return {
          key: this.#keys.toString('utf8', from, this.#keyEnds[i]),
          mask: this.#masks[i] as number,
          digest: this.#digests[i] as number,
        };
      }
      slot = (slot + 1) & mask;
    }
    return undefined;
  }
}

function typedOf<T>(
  Type: { new (buffer: ArrayBufferLike, offset?: number, length?: number): T },
  column: ArrayBuffer | [ArrayBufferLike, number, number],
): T {
  return Array.isArray(column) ? new Type(column[0], column[1], column[2]) : new Type(column);
}

/**
 * A memo as bytes (`RecordMemo.fromBytes` reads them, joined): `count` entries, each from `at(i)`.
 * In parts, written one after another: no copy of the whole (~35 MB at a million records).
 */
export function memoBytes(
  seed: number,
  count: number,
  at: (i: number) => MemoEntry & { fp: number },
): Buffer[] {
  const fps = new Float64Array(count);
  const digests = new Float64Array(count);
  const masks = new Int32Array(count);
  const keyEnds = new Uint32Array(count);
  // The keys written one after another into one buffer, grown as needed: no buffer per key.
  let keys = Buffer.allocUnsafe(Math.max(1024, count * 16));
  let end = 0;
  for (let i = 0; i < count; i++) {
    const entry = at(i);
    fps[i] = entry.fp;
    digests[i] = entry.digest;
    masks[i] = entry.mask;
    const most = entry.key.length * 3;
    if (end + most > keys.length) {
      const grown = Buffer.allocUnsafe(Math.max(keys.length * 2, end + most));
      keys.copy(grown, 0, 0, end);
      keys = grown;
    }
    end += keys.write(entry.key, end, 'utf8');
    keyEnds[i] = end;
  }
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeDoubleLE(seed, 8);
  header.writeUInt32LE(count, 16);
  const bytesOf = (a: Float64Array | Int32Array | Uint32Array) =>
    Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  return [header, bytesOf(fps), bytesOf(digests), bytesOf(masks), bytesOf(keyEnds), keys.subarray(0, end)];
}
