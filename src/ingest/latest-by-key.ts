import { KeySet } from '../key-arena.ts';
import { int32s } from '../number-column.ts';
import type { HeldKey, RecordRef } from './types.ts';

/** What few keys have: a rejection (the key is held), unknown markers, or more than one record. */
export interface Rare {
  /** The key's last record was rejected: what a hold says of it (not the whole rejection). */
  held: HeldKey | undefined;
  /** Fields of the listing holding the unknown marker (a shared array). */
  unknown: readonly string[] | undefined;
  /** Every record with the key, once it repeats. */
  refs: RecordRef[] | undefined;
}

export const NOTHING_RARE: Rare = { held: undefined, unknown: undefined, refs: undefined };

/**
 * The last record of each key while a feed is read, in columns by slot (a slot per key: its id in
 * an arena of the keys' bytes): a listing (what `keep` made of it) or none (a removal, or a
 * rejection), where the key was first seen, when its last record came, and for the few keys that
 * need it the rest (`Rare`). No string or object is held per key (issue 23 §2): at 1M keys ~40 bytes
 * a key where a `Map` of key strings and number arrays took ~95.
 */
export class LatestByKey<T> {
  /** The keys: a key's id is its slot, in the order keys were first seen. */
  readonly #keys = new KeySet();
  readonly listings: (T | undefined)[] = [];
  /** Where the key was first seen, as numbers: a `RecordRef` per key would be ~60 bytes a listing. */
  readonly #indexes = int32s();
  /** Its row plus one, 0 for none. */
  readonly #rows = int32s();
  /** By slot, when its key's last record came (records remembered before it): the order of `forEach`. */
  readonly #last = int32s();
  #records = 0;
  /** Whether a key came twice: only then are keys in another order than their slots. */
  #repeated = false;
  readonly rare = new Map<number, Rare>();

  /** Last wins: a later record of a key replaces the earlier one and takes its place at the end of the order. */
  remember(
    key: string,
    listing: T | undefined,
    held: HeldKey | undefined,
    ref: RecordRef,
    unknown?: readonly string[],
  ): void {
    const slots = this.#keys.size;
    const slot = this.#keys.intern(key);
    this.#last.set(slot, this.#records++);
    if (slot === slots) {
      this.listings.push(listing);
      this.#indexes.set(slot, ref.index);
      this.#rows.set(slot, ref.row === undefined ? 0 : ref.row + 1);
      if (held !== undefined || unknown !== undefined)
        this.rare.set(slot, { held, unknown, refs: undefined });
      return;
    }
    this.#repeated = true;
    this.listings[slot] = listing;
    let refs = this.rare.get(slot)?.refs;
    if (refs === undefined) {
      const index = this.#indexes.get(slot);
      const row = this.#rows.get(slot) - 1;
      refs = [{ feedId: ref.feedId, index, ...(row !== -1 ? { row } : {}), key }];
    }
    refs.push(ref);
    this.rare.set(slot, { held, unknown, refs });
  }

  /** Keys remembered. */
  get size(): number {
    return this.#keys.size;
  }

  /** The key of a slot (a new string each time: for the few keys a result names). */
  keyAt(slot: number): string {
    return this.#keys.keyAt(slot);
  }

  /** Every slot, in the order of each key's last record. */
  forEachSlot(visit: (slot: number) => void): void {
    const size = this.#keys.size;
    if (!this.#repeated) {
      for (let slot = 0; slot < size; slot++) visit(slot);
      return;
    }
    // Slots by when their last record came: 4 bytes a record, for the moment it takes.
    const byLast = new Int32Array(this.#records).fill(-1);
    for (let slot = 0; slot < size; slot++) byLast[this.#last.get(slot)] = slot;
    for (const slot of byLast) if (slot !== -1) visit(slot);
  }
}
