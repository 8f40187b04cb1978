import { uint32s } from '../reconcile/number-column.ts';

/** Bytes a chunk holds (64 KiB). */
const SHIFT = 16;
const CHUNK = 1 << SHIFT;
/** Bytes the first chunk holds before it grows: a worker runs dozens of small feeds at once. */
const FIRST = 256;
/** Units decoded at once by `keyAt` (`String.fromCharCode` takes them as arguments). */
const DECODE_AT_ONCE = 4096;

/**
 * Distinct keys (MLS numbers, URLs) held as bytes rather than as one string each (issue 23 §2): the
 * characters of all keys in one growing run of 64 KiB chunks, where each key ends in a column of
 * numbers, and an open-addressing hash table of key ids. A key is a number (`intern`, `find`); its
 * string is made again only when asked for (`keyAt`), for the few keys a plan or a report shows.
 *
 * At 1M MLS numbers that is ~10 bytes of characters, 4 of its end and ~6 of table a key, where a
 * string took ~40 bytes on the heap and a `Map` entry ~50 more; and nothing for the collector to
 * trace. Each UTF-16 unit is kept as one byte below 0x80, else as two or three (UTF-8's form of the
 * unit, lone surrogates included, so every string comes back as it was): ASCII keys cost a byte a
 * character, and a key with `é` or `ü` is still one key.
 */
export class KeyArena {
  #chunks: Uint8Array[] = [new Uint8Array(FIRST)];
  /** Where the bytes of each key end (by id): key `id` starts where key `id - 1` ends. */
  readonly #ends = uint32s();
  #bytes = 0;
  #size = 0;
  /** Key ids by hash, -1 for an empty slot; at most two-thirds full. */
  #table = new Int32Array(16).fill(-1);

  /** Keys held: ids run from 0 to `size - 1`, in the order keys were first interned. */
  get size(): number {
    return this.#size;
  }

  /** The id of `key`, adding it when it is new (the next id: `size - 1` after the call). */
  intern(key: string): number {
    const slot = this.#slotOf(key);
    const known = this.#table[slot] as number;
    if (known !== -1) return known;
    const id = this.#size++;
    this.#write(key);
    this.#ends.set(id, this.#bytes);
    this.#table[slot] = id;
    if (this.#size * 3 > this.#table.length * 2) this.#grow();
    return id;
  }

  /** The id of `key`, or -1 when it was never interned. */
  find(key: string): number {
    return this.#table[this.#slotOf(key)] as number;
  }

  /** The key of `id`, a new string each time. */
  keyAt(id: number): string {
    if (id < 0 || id >= this.#size) throw new RangeError(`no key ${id} (${this.#size} held)`);
    const end = this.#ends.get(id);
    let p = this.#startOf(id);
    let units = 0;
    let key = '';
    while (p < end) {
      const b = this.#byte(p);
      let unit = b;
      if (b < 0x80) p++;
      else if (b < 0xe0) {
        unit = ((b & 0x1f) << 6) | (this.#byte(p + 1) & 0x3f);
        p += 2;
      } else {
        unit = ((b & 0x0f) << 12) | ((this.#byte(p + 1) & 0x3f) << 6) | (this.#byte(p + 2) & 0x3f);
        p += 3;
      }
      scratch[units++] = unit;
      if (units === DECODE_AT_ONCE) {
        key += String.fromCharCode.apply(null, scratch as unknown as number[]);
        units = 0;
      }
    }
    return key + String.fromCharCode.apply(null, scratch.subarray(0, units) as unknown as number[]);
  }

  /** Whether key `id` is `key`, without making a string of it. */
  equals(id: number, key: string): boolean {
    const end = this.#ends.get(id);
    let p = this.#startOf(id);
    // A key takes at least a byte a unit and at most three.
    if (end - p < key.length || end - p > key.length * 3) return false;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (c < 0x80) {
        if (p >= end || this.#byte(p++) !== c) return false;
      } else if (c < 0x800) {
        if (p + 2 > end || this.#byte(p++) !== (0xc0 | (c >> 6)) || this.#byte(p++) !== (0x80 | (c & 0x3f)))
          return false;
      } else if (
        p + 3 > end ||
        this.#byte(p++) !== (0xe0 | (c >> 12)) ||
        this.#byte(p++) !== (0x80 | ((c >> 6) & 0x3f)) ||
        this.#byte(p++) !== (0x80 | (c & 0x3f))
      )
        return false;
    }
    return p === end;
  }

  /** The slot of `key` in the table: where its id is, or the empty slot it would take. */
  #slotOf(key: string): number {
    const table = this.#table;
    const mask = table.length - 1;
    let slot = hashOf(key) & mask;
    for (;;) {
      const id = table[slot] as number;
      if (id === -1 || this.equals(id, key)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  /** Twice the slots, each id placed again by the hash of its bytes (the same as of its string). */
  #grow(): void {
    const table = new Int32Array(this.#table.length * 2).fill(-1);
    const mask = table.length - 1;
    for (let id = 0; id < this.#size; id++) {
      let slot = this.#hashAt(id) & mask;
      while (table[slot] !== -1) slot = (slot + 1) & mask;
      table[slot] = id;
    }
    this.#table = table;
  }

  #hashAt(id: number): number {
    const end = this.#ends.get(id);
    let hash = FNV_OFFSET;
    for (let p = this.#startOf(id); p < end; p++) hash = Math.imul(hash ^ this.#byte(p), FNV_PRIME);
    return hash >>> 0;
  }

  /** Appends the bytes of `key`. */
  #write(key: string): void {
    let length = 0;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      length += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    }
    if (length === 0) return;
    this.#reserve(this.#bytes + length);
    let p = this.#bytes;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (c < 0x80) this.#put(p++, c);
      else if (c < 0x800) {
        this.#put(p++, 0xc0 | (c >> 6));
        this.#put(p++, 0x80 | (c & 0x3f));
      } else {
        this.#put(p++, 0xe0 | (c >> 12));
        this.#put(p++, 0x80 | ((c >> 6) & 0x3f));
        this.#put(p++, 0x80 | (c & 0x3f));
      }
    }
    this.#bytes = p;
  }

  /**
   * Room for bytes up to `end`: the first chunk doubles up to a full one (copies of at most 64 KiB),
   * then whole chunks are added, never copied. A key may run on from one chunk into the next.
   */
  #reserve(end: number): void {
    const first = this.#chunks[0] as Uint8Array;
    if (first.length < CHUNK && end > first.length) {
      let length = first.length;
      while (length < end && length < CHUNK) length *= 2;
      const grown = new Uint8Array(length);
      grown.set(first);
      this.#chunks[0] = grown;
    }
    while ((end - 1) >>> SHIFT >= this.#chunks.length) this.#chunks.push(new Uint8Array(CHUNK));
  }

  #startOf(id: number): number {
    return id === 0 ? 0 : this.#ends.get(id - 1);
  }

  #byte(p: number): number {
    return (this.#chunks[p >>> SHIFT] as Uint8Array)[p & (CHUNK - 1)] as number;
  }

  #put(p: number, b: number): void {
    (this.#chunks[p >>> SHIFT] as Uint8Array)[p & (CHUNK - 1)] = b;
  }
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * FNV-1a over the bytes `KeyArena` keeps of a key, computed from its string: spreads short keys like
 * `B-1234` over the table. For an ASCII key, the same hash as over its UTF-16 units.
 */
function hashOf(key: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x80) hash = Math.imul(hash ^ c, FNV_PRIME);
    else if (c < 0x800) {
      hash = Math.imul(hash ^ (0xc0 | (c >> 6)), FNV_PRIME);
      hash = Math.imul(hash ^ (0x80 | (c & 0x3f)), FNV_PRIME);
    } else {
      hash = Math.imul(hash ^ (0xe0 | (c >> 12)), FNV_PRIME);
      hash = Math.imul(hash ^ (0x80 | ((c >> 6) & 0x3f)), FNV_PRIME);
      hash = Math.imul(hash ^ (0x80 | (c & 0x3f)), FNV_PRIME);
    }
  }
  return hash >>> 0;
}

/** Units of the key `keyAt` is making (one buffer: keys are made one at a time). */
const scratch = new Uint16Array(DECODE_AT_ONCE);
