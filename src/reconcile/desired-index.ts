import { hashOf, KeyArena, KeyTable } from '../key-arena.ts';
import { float64s, int32s } from '../number-column.ts';
import { MARKER_MASK } from './digest.ts';
import type { DesiredListing } from './plan-types.ts';

/**
 * The feed's listings as a run holds them (issue 13): for each record of the run's `RecordStore`
 * (by its number, `ref`) the field mask and the digest, in typed arrays; and the record each key
 * keeps. About 12 bytes a record, and its key as bytes in an arena (issue 23 §2: ~30 bytes a key at
 * 1M, where a string and its slot took ~48), where an object per listing in a map of them took ~150
 * bytes. A `DesiredListing` is made only when asked for (`get`): for the plan's creates and updates,
 * never for an unchanged listing; a key's string only when a plan names it.
 */
export class DesiredIndex {
  readonly #masks = int32s();
  readonly #digests = float64s();
  /** The trimmed key of each record noted, as bytes. */
  readonly #keys = new KeyArena();
  /** The key of each record, by its number: the key's id plus one (0: none, a blank key). */
  readonly #keyIds = int32s();
  /** The record each key keeps, by the id of the key of its first record: its number plus one. */
  readonly #refsByKey = int32s();
  #refs = 0;
  /** Keys kept by their bytes, once indexed (`keep`). */
  #table: KeyTable | undefined;
  /** The ids of the keys kept, in the order keys were first kept: the order of `forEach`. */
  #order = new Int32Array(0);
  #size = 0;
  /** The fields some record sets (the masks' union). */
  #union = 0;
  readonly #clearUnset: boolean;

  /**
   * `clearUnset: false` (`feeds[].unsetFields: keep`): a value the feed stops sending stays.
   * `fieldsSet`: fields the feed sets on listings not noted here (a plan of one key).
   */
  constructor(options: { clearUnset?: boolean; fieldsSet?: number } = {}) {
    this.#clearUnset = options.clearUnset ?? true;
    this.#union = options.fieldsSet ?? 0;
  }

  /**
   * The fields a value the platform holds is cleared in where a listing of the feed leaves them
   * unset: those it sets on some listing (a price, a photo), and the prices its mapping maps
   * (`clearAlso`), so a value it stops sending leaves the chatbot. A field the feed never sets is
   * not its to clear.
   * Bit i: `RETURNED_FIELDS[i]`.
   */
  clearable(): number {
    // Under `keep`, a marker field the feed sets still takes its 0 (`MARKER_MASK`): 0 is a value an
    // update can send, as it always was; only a field the feed never sets is left to the platform.
    return this.#clearUnset ? this.#union : this.#union & MARKER_MASK;
  }

  /** Fields the feed may set though no record noted sets them (its mapping's prices: `mappedPricesMask`). */
  clearAlso(fields: number): void {
    this.#union |= fields;
  }

  /** The fields the records noted set (and `fieldsSet`'s): what a run keeps for incremental ones (`FeedState.fieldsSet`). */
  fieldsSet(): number {
    return this.#union;
  }

  /** Note a digested record (`desiredOf`); returns its number. */
  add(desired: DesiredListing): number {
    const { ref } = desired;
    this.#union |= desired.mask;
    this.#masks.set(ref, desired.mask);
    this.#digests.set(ref, desired.digest);
    // Keys are compared trimmed; the record's own copy of the key is dropped with the record.
    const key = desired.key.trim();
    this.#keyIds.set(ref, key ? this.#keys.add(key) + 1 : 0);
    if (ref >= this.#refs) this.#refs = ref + 1;
    return ref;
  }

  /**
   * Index the records the feed keeps (noted by `add`) by their trimmed key, the last of a key
   * winning. Called once. A hash table of key ids (4 bytes a slot, at most two-thirds full, sized
   * once for the records), each key's record in a column by id, rather than a `Map`: at 300k keys a
   * `Map` takes ~50 bytes a key.
   */
  keep(refs: readonly number[]): this {
    if (this.#table !== undefined) throw new Error('the desired listings are already indexed');
    const table = new KeyTable(this.#keys, refs.length);
    this.#table = table;
    this.#order = new Int32Array(refs.length);
    for (const ref of refs) {
      const id = this.#keyIds.get(ref) - 1;
      if (id === -1) continue;
      const hash = this.#keys.hashAt(id);
      const slot = table.slotOfId(id, hash);
      let first = table.idIn(slot);
      if (first === -1) {
        table.fill(slot, id, hash);
        this.#order[this.#size++] = id;
        first = id;
      }
      this.#refsByKey.set(first, ref + 1);
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
    const table = this.#table;
    if (table === undefined) return -1;
    const id = table.idIn(table.slotOf(key, hashOf(key)));
    return id === -1 ? -1 : this.#refsByKey.get(id) - 1;
  }

  /** The trimmed key of record `ref` ('' for none): a new string each time, made from the arena. */
  keyAt(ref: number): string {
    const id = this.#keyIds.get(ref) - 1;
    return id === -1 ? '' : this.#keys.keyAt(id);
  }

  /** The field mask of record `ref`. */
  maskAt(ref: number): number {
    return this.#masks.get(ref);
  }

  /** The digest of record `ref`. */
  digestAt(ref: number): number {
    return this.#digests.get(ref);
  }

  /** Records `a` and `b` in the order of their keys (`keyAt`, compared by `<`), no string made. */
  compareKeys(a: number, b: number): number {
    const x = this.#keyIds.get(a) - 1;
    const y = this.#keyIds.get(b) - 1;
    if (x === -1 || y === -1) return (x === -1 ? 0 : 1) - (y === -1 ? 0 : 1);
    return this.#keys.compare(x, y);
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

  /**
   * Every record a key keeps, in the order keys were first indexed, with its key's string made only
   * when `keyOf` is called (never blank).
   */
  forEachRef(visit: (ref: number, keyOf: () => string) => void): void {
    for (let i = 0; i < this.#size; i++) {
      const id = this.#order[i] as number;
      visit(this.#refsByKey.get(id) - 1, () => this.#keys.keyAt(id));
    }
  }

  /** Every key with its record, in the order keys were first indexed. */
  forEach(visit: (key: string, ref: number) => void): void {
    for (let i = 0; i < this.#size; i++) {
      const id = this.#order[i] as number;
      visit(this.#keys.keyAt(id), this.#refsByKey.get(id) - 1);
    }
  }
}
