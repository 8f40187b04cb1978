import { KeySet } from '../key-arena.ts';
import { int32s } from '../number-column.ts';
import { HeldKeyColumns, HeldKeys } from './held-keys.ts';
import type { HeldKey, RecordRef } from './types.ts';

/** What few keys have: unknown markers, or more than one record (a hold is in columns: `heldOf`). */
export interface Rare {
  /** Fields of the listing holding the unknown marker (a shared array). */
  unknown: readonly string[] | undefined;
  /** The records with the key, once it repeats: the first `REFS_PER_KEY` and the last. */
  refs: RecordRef[] | undefined;
  /** Records of the key between those in `refs`. */
  omitted?: number;
}

/** Records of one repeated key remembered (the first ones and the last; the rest are counted). */
export const REFS_PER_KEY = 10;

export const NOTHING_RARE: Rare = { unknown: undefined, refs: undefined };

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
  /** Records whose key came before (a key's second, third… record). */
  #duplicates = 0;
  /** Keys whose every record is remembered (`refs`): the first `refsKept` keys to repeat. */
  readonly #refsKept: number;
  #keysWithRefs = 0;
  /** A key repeated past the first `refsKept`: counted, not listed. */
  #unlisted = false;
  readonly rare = new Map<number, Rare>();
  /** The holds of rejected records (a key's last record rejected: held), in columns. */
  readonly #holds = new HeldKeyColumns();
  /** By slot, its hold's number in `#holds` plus one (0: its last record is not rejected). */
  readonly #heldBySlot = int32s();

  /**
   * `refsKept`: how many repeated keys keep every record's ref (for a report that lists duplicates);
   * the rest are counted only. A feed read twice over (an export appended to itself) repeats every
   * key: a ref per record was ~200 bytes a key, and ran 300k keys out of the image's heap.
   */
  constructor(refsKept = Number.POSITIVE_INFINITY) {
    this.#refsKept = refsKept;
  }

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
      if (held !== undefined) this.#heldBySlot.set(slot, this.#holds.add(held) + 1);
      if (unknown !== undefined) this.rare.set(slot, { unknown, refs: undefined });
      return;
    }
    this.#repeated = true;
    this.#duplicates++;
    this.listings[slot] = listing;
    // The last record wins: a hold an earlier record left goes with it.
    if (held !== undefined) this.#heldBySlot.set(slot, this.#holds.add(held) + 1);
    else if (this.#heldBySlot.get(slot) !== 0) this.#heldBySlot.set(slot, 0);
    const rare = this.rare.get(slot);
    let refs = rare?.refs;
    let omitted = rare?.omitted ?? 0;
    if (refs === undefined && this.#keysWithRefs < this.#refsKept) {
      this.#keysWithRefs++;
      const index = this.#indexes.get(slot);
      const row = this.#rows.get(slot) - 1;
      refs = [{ feedId: ref.feedId, index, ...(row !== -1 ? { row } : {}), key }];
    } else if (refs === undefined) this.#unlisted = true;
    // One key on a million rows keeps a few refs: the first ones, and the last in place of the one
    // before it.
    if (refs !== undefined && refs.length > REFS_PER_KEY) {
      refs[refs.length - 1] = ref;
      omitted++;
    } else refs?.push(ref);
    // The last record wins: markers an earlier one left go with it.
    if (unknown === undefined && refs === undefined) this.rare.delete(slot);
    else this.rare.set(slot, { unknown, refs, ...(omitted > 0 ? { omitted } : {}) });
  }

  /** Whether the last record of a slot's key was rejected (its listing is held). */
  isHeld(slot: number): boolean {
    return this.#heldBySlot.get(slot) !== 0;
  }

  /** The hold of each slot `visit`ed that is held (`isHeld`), in the order given: the result's `held`. */
  heldOf(slots: readonly number[]): HeldKeys {
    const order = new Int32Array(slots.length);
    for (let i = 0; i < slots.length; i++) order[i] = this.#heldBySlot.get(slots[i] as number) - 1;
    return new HeldKeys(this.#holds, order);
  }

  /** Whether some repeated key has no refs (more keys repeated than `refsKept`). */
  get unlisted(): boolean {
    return this.#unlisted;
  }

  /** Records whose key came before, all of them (whether or not their refs are kept). */
  /** Whether a key came again: `forEachSlot` then visits the slots by their last record, not in order. */
  get repeated(): boolean {
    return this.#repeated;
  }

  get duplicates(): number {
    return this.#duplicates;
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
