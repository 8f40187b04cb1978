import { float64s, int32s } from './number-column.ts';
import type { DesiredListing } from './plan-types.ts';

/**
 * The feed's listings as a run holds them (issue 13): for each record of the run's `RecordStore`
 * (by its number, `ref`) the field mask and the digest, in typed arrays; and the record each key
 * keeps. About 12 bytes a record plus a map entry a key, where an object per listing in a map of
 * them took ~150 bytes. A `DesiredListing` is made only when asked for (`get`): for the plan's
 * creates and updates, never for an unchanged listing.
 */
export class DesiredIndex {
  readonly #masks = int32s();
  readonly #digests = float64s();
  /** The key of each record (trimmed once kept): what a remote listing of that key keeps. */
  #keys: string[] = [];
  #refs = 0;
  /** Records by key: an open-addressing hash table of record numbers (-1: empty slot). */
  #table = new Int32Array(0);
  /** The first record of each key, in the order keys were first kept: the order of `forEach`. */
  #order = new Int32Array(0);
  #size = 0;

  /** Note a digested record (`desiredOf`); returns its number. */
  add(desired: DesiredListing): number {
    const { ref } = desired;
    this.#masks.set(ref, desired.mask);
    this.#digests.set(ref, desired.digest);
    this.#keys[ref] = desired.key;
    if (ref >= this.#refs) this.#refs = ref + 1;
    return ref;
  }

  /**
   * Index the records the feed keeps (noted by `add`) by their trimmed key, the last of a key
   * winning. Called once. A hash table of record numbers (4 bytes a slot, at most two-thirds full)
   * rather than a `Map`: at 300k keys a `Map` takes ~50 bytes a key, most of it room to grow.
   */
  keep(refs: readonly number[]): this {
    if (this.#table.length > 0) throw new Error('the desired listings are already indexed');
    let slots = 16;
    while (slots < refs.length * 1.5) slots *= 2;
    this.#table = new Int32Array(slots).fill(-1);
    this.#order = new Int32Array(refs.length);
    for (const ref of refs) {
      const key = this.#keys[ref]?.trim();
      if (!key) continue;
      this.#keys[ref] = key;
      const slot = this.#slotOf(key);
      if (this.#table[slot] === -1) this.#order[this.#size++] = ref;
      this.#table[slot] = ref;
    }
    return this;
  }

  /** Keys indexed. */
  get size(): number {
    return this.#size;
  }

  /** One more than the highest record number noted: the size of an array by record. */
  get refCount(): number {
    return this.#refs;
  }

  /** The record a key keeps, or -1. */
  refOf(key: string): number {
    return this.#table.length === 0 ? -1 : (this.#table[this.#slotOf(key)] as number);
  }

  /** The key record `ref` is kept under (the one string of it the run holds). */
  keyAt(ref: number): string {
    return this.#keys[ref] ?? '';
  }

  has(key: string): boolean {
    return this.refOf(key) !== -1;
  }

  get(key: string): DesiredListing | undefined {
    const ref = this.refOf(key);
    return ref === -1 ? undefined : this.listingAt(key, ref);
  }

  /** The listing of `key` kept as record `ref` (a new object each time). */
  listingAt(key: string, ref: number): DesiredListing {
    return { key, mask: this.#masks.get(ref), digest: this.#digests.get(ref), ref };
  }

  /** Every key with its record, in the order keys were first indexed. */
  forEach(visit: (key: string, ref: number) => void): void {
    for (let i = 0; i < this.#size; i++) {
      const key = this.#keys[this.#order[i] as number] as string;
      visit(key, this.refOf(key));
    }
  }

  /** The slot of `key` in the table: where its record is, or the empty slot it would take. */
  #slotOf(key: string): number {
    const table = this.#table;
    const mask = table.length - 1;
    let slot = hashOf(key) & mask;
    for (;;) {
      const ref = table[slot] as number;
      if (ref === -1 || this.#keys[ref] === key) return slot;
      slot = (slot + 1) & mask;
    }
  }
}

/** FNV-1a over the UTF-16 units of a key: spreads short keys like `B-1234` over the table. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
