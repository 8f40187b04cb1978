import { int32s, uint32s } from './number-column.ts';

/** Bytes a chunk holds (64 KiB). */
const SHIFT = 16;
const CHUNK = 1 << SHIFT;
/** Bytes the first chunk holds before it grows: a worker runs dozens of small feeds at once. */
const FIRST = 256;
/** Units decoded at once by `keyAt` (`String.fromCharCode` takes them as arguments). */
const DECODE_AT_ONCE = 4096;

/**
 * Keys (MLS numbers, URLs) held as bytes rather than as one string each (issue 23 §2): the
 * characters of all keys in one growing run of 64 KiB chunks, and where each key ends in a column of
 * numbers. A key is a number, its id (`add`); its string is made again only when asked for
 * (`keyAt`), for the few keys a plan or a report shows. `KeyTable` finds ids by key; `KeySet` is
 * the two together, for keys that must be held once each.
 *
 * At 1M MLS numbers that is ~10 bytes of characters and 8 of its end and hash a key, where a string
 * took ~40 bytes on the heap and its slot 8 more; and nothing for the collector to trace. Each UTF-16
 * unit is kept as one byte below 0x80, else as two or three (UTF-8's form of the unit, lone
 * surrogates included, so every string comes back as it was): ASCII keys cost a byte a character,
 * and a key with `é` or `ü` is still one key.
 */
export class KeyArena {
  /** Node's `Buffer`s (byte arrays that also decode Latin-1 natively: `keyAt`'s fast way). */
  #chunks: Buffer[] = [Buffer.alloc(FIRST)];
  /** Whether a key with a byte above 0x7f was added: until then every key is its bytes in Latin-1. */
  #wide = false;
  /** Where the bytes of each key end (by id): key `id` starts where key `id - 1` ends. */
  readonly #ends = uint32s();
  /**
   * The hash of each key (`hashOf`), made as its bytes are written: 4 bytes a key that spare reading
   * them again to index a feed's keys or to grow a table (a third of the time of indexing 100k keys
   * in a process not warmed up yet, as a sync of them runs).
   */
  readonly #hashes = int32s();
  #bytes = 0;
  #size = 0;
  #asciiHash = 0;

  /** Keys held: ids run from 0 to `size - 1`, in the order keys were added. */
  get size(): number {
    return this.#size;
  }

  /** Adds `key` (also one already held: a `KeySet` holds each once); returns its id. */
  add(key: string): number {
    const id = this.#size++;
    this.#hashes.set(id, this.#write(key));
    this.#ends.set(id, this.#bytes);
    return id;
  }

  /** The key of `id`, a new string each time. */
  keyAt(id: number): string {
    if (id < 0 || id >= this.#size) throw new RangeError(`no key ${id} (${this.#size} held)`);
    const end = this.#ends.get(id);
    let p = this.#startOf(id);
    if (!this.#wide && p >>> SHIFT === (end - 1) >>> SHIFT) {
      // ASCII in one chunk (most keys): decoded natively, ~3× faster than by units for a URL.
      const from = p & (CHUNK - 1);
      return (this.#chunks[p >>> SHIFT] as Buffer).toString('latin1', from, from + end - p);
    }
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
    const length = key.length;
    // A key takes at least a byte a unit and at most three.
    if (end - p < length || end - p > length * 3) return false;
    if (end - p === length && p >>> SHIFT === (end - 1) >>> SHIFT) {
      // As many bytes as units, in one chunk: equal only if both are ASCII (the common case). A unit
      // of `key` from 0x80 to 0xff may equal a byte of a multi-byte form (`é` is C3 A9, `Ã©` is
      // U+00C3 U+00A9): `key` then needs more bytes than units, so it is not the key held.
      const chunk = this.#chunks[p >>> SHIFT] as Buffer;
      const from = p & (CHUNK - 1);
      for (let i = 0; i < length; i++) {
        const c = key.charCodeAt(i);
        if (c >= 0x80 || chunk[from + i] !== c) return false;
      }
      return true;
    }
    for (let i = 0; i < length; i++) {
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

  /**
   * Keys `a` and `b` in the order of their strings (`<` on UTF-16 units), without making them: each
   * unit is kept as UTF-8 keeps a code point, an order-preserving and prefix-free form, so the bytes
   * compare as the units do. Negative, 0 or positive.
   */
  compare(a: number, b: number): number {
    const endA = this.#ends.get(a);
    const endB = this.#ends.get(b);
    let p = this.#startOf(a);
    let q = this.#startOf(b);
    while (p < endA && q < endB) {
      const x = this.#byte(p++);
      const y = this.#byte(q++);
      if (x !== y) return x - y;
    }
    return endA - p - (endB - q);
  }

  /** Whether keys `a` and `b` are the same (their bytes are). */
  sameKeys(a: number, b: number): boolean {
    const endA = this.#ends.get(a);
    let p = this.#startOf(a);
    let q = this.#startOf(b);
    if (endA - p !== this.#ends.get(b) - q) return false;
    while (p < endA) if (this.#byte(p++) !== this.#byte(q++)) return false;
    return true;
  }

  /** The hash of key `id`: `hashOf` its string. */
  hashAt(id: number): number {
    return this.#hashes.get(id);
  }

  /** Appends the bytes of `key`; returns its hash. */
  #write(key: string): number {
    if (this.#writeAscii(key)) return this.#asciiHash;
    let length = 0;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      length += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    }
    if (length === 0) return FNV_OFFSET;
    if (length > key.length) this.#wide = true;
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
    return hashOf(key);
  }

  /**
   * Appends `key` a byte a unit when it is ASCII and fits in the chunk being filled (most keys), its
   * hash in `#asciiHash`; false when it did not.
   */
  #writeAscii(key: string): boolean {
    const length = key.length;
    const at = this.#bytes;
    const chunk = this.#chunks[at >>> SHIFT];
    const from = at & (CHUNK - 1);
    if (length === 0 || chunk === undefined || from + length > chunk.length) return false;
    let hash = FNV_OFFSET;
    for (let i = 0; i < length; i++) {
      const c = key.charCodeAt(i);
      // Bytes written so far are past the end: the next key writes over them.
      if (c >= 0x80) return false;
      chunk[from + i] = c;
      hash = Math.imul(hash ^ c, FNV_PRIME);
    }
    this.#bytes = at + length;
    this.#asciiHash = hash;
    return true;
  }

  /**
   * Room for bytes up to `end`: the first chunk doubles up to a full one (copies of at most 64 KiB),
   * then whole chunks are added, never copied. A key may run on from one chunk into the next.
   */
  #reserve(end: number): void {
    const first = this.#chunks[0] as Buffer;
    if (first.length < CHUNK && end > first.length) {
      let length = first.length;
      while (length < end && length < CHUNK) length *= 2;
      const grown = Buffer.alloc(length);
      grown.set(first);
      this.#chunks[0] = grown;
    }
    while ((end - 1) >>> SHIFT >= this.#chunks.length) this.#chunks.push(Buffer.alloc(CHUNK));
  }

  #startOf(id: number): number {
    return id === 0 ? 0 : this.#ends.get(id - 1);
  }

  #byte(p: number): number {
    return (this.#chunks[p >>> SHIFT] as Buffer)[p & (CHUNK - 1)] as number;
  }

  #put(p: number, b: number): void {
    (this.#chunks[p >>> SHIFT] as Buffer)[p & (CHUNK - 1)] = b;
  }
}

/**
 * Ids of keys of an arena by their hash: an open-addressing table, at most two-thirds full. In each
 * slot the key's id plus one (0: empty) in the low 24 bits and the top 8 bits of its hash above
 * them, so that a probe past another key compares its bytes only once in 256 times. 4 bytes a slot,
 * where a `Map` entry takes ~50 bytes a key.
 */
export class KeyTable {
  readonly #keys: KeyArena;
  #slots: Int32Array;
  #size = 0;

  /** A table for `keys`, with room for `expected` keys before it grows. */
  constructor(keys: KeyArena, expected = 0) {
    this.#keys = keys;
    let slots = 16;
    while (slots * 2 < expected * 3) slots *= 2;
    this.#slots = new Int32Array(slots);
  }

  /** The slot of `key` (of hash `hash`, `hashOf`): where its id is, or the empty slot it would take. */
  slotOf(key: string, hash: number): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const held = slots[slot] as number;
      if (held === 0 || (((held ^ hash) & TAG) === 0 && this.#keys.equals((held & ID) - 1, key))) return slot;
      slot = (slot + 1) & mask;
    }
  }

  /** The slot of key `id`'s bytes (of hash `hash`): where an id of the same key is, or the empty slot. */
  slotOfId(id: number, hash: number): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const held = slots[slot] as number;
      if (held === 0 || (((held ^ hash) & TAG) === 0 && this.#keys.sameKeys((held & ID) - 1, id)))
        return slot;
      slot = (slot + 1) & mask;
    }
  }

  /** The id in `slot`, -1 for none. */
  idIn(slot: number): number {
    return ((this.#slots[slot] as number) & ID) - 1;
  }

  /** Puts `id` (of hash `hash`) in the empty `slot` a `slotOf` gave; the table may grow (slots move). */
  fill(slot: number, id: number, hash: number): void {
    if (id >= MAX_KEYS) throw new RangeError(`more than ${MAX_KEYS} keys in one table`);
    this.#slots[slot] = (hash & TAG) | (id + 1);
    if (++this.#size * 3 > this.#slots.length * 2) this.#grow();
  }

  /** Twice the slots, each id placed again by its key's hash. */
  #grow(): void {
    const old = this.#slots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length - 1;
    for (const held of old) {
      if (held === 0) continue;
      let slot = this.#keys.hashAt((held & ID) - 1) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = held;
    }
    this.#slots = slots;
  }
}

/** Distinct keys: each held once in an arena, found by a table. */
export class KeySet {
  readonly #keys = new KeyArena();
  readonly #table = new KeyTable(this.#keys);

  /** Keys held: ids run from 0 to `size - 1`, in the order keys were first interned. */
  get size(): number {
    return this.#keys.size;
  }

  /** The id of `key`, adding it when it is new (the next id: `size - 1` after the call). */
  intern(key: string): number {
    const hash = hashOf(key);
    const slot = this.#table.slotOf(key, hash);
    const known = this.#table.idIn(slot);
    if (known !== -1) return known;
    const id = this.#keys.add(key);
    this.#table.fill(slot, id, hash);
    return id;
  }

  /** The id of `key`, or -1 when it was never interned. */
  find(key: string): number {
    return this.#table.idIn(this.#table.slotOf(key, hashOf(key)));
  }

  /** The key of `id`, a new string each time. */
  keyAt(id: number): string {
    return this.#keys.keyAt(id);
  }

  /** Keys `a` and `b` in the order of their strings, without making them (`KeyArena.compare`). */
  compare(a: number, b: number): number {
    return this.#keys.compare(a, b);
  }
}

/** A slot of a `KeyTable`: the id plus one below, the top of the key's hash above. */
const ID = 0xffffff;
const TAG = 0xff000000 | 0;
/** Keys a table holds: ids (plus one) take 24 bits of a slot. A feed of 16M listings is far off. */
const MAX_KEYS = ID - 1;

/** FNV-1a's offset as a 32-bit signed integer: hashes stay small integers (V8's fast numbers). */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * FNV-1a over the bytes `KeyArena` keeps of a key, computed from its string: spreads short keys like
 * `B-1234` over the table. For an ASCII key, the same hash as over its UTF-16 units.
 */
export function hashOf(key: string): number {
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
  return hash;
}

/** Units of the key `keyAt` is making (one buffer: keys are made one at a time). */
const scratch = new Uint16Array(DECODE_AT_ONCE);
