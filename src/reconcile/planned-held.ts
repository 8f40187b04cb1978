import type { HeldKey, HeldKeyList } from '../ingest/index.ts';
import { KeySet } from '../key-arena.ts';
import { float64s, int32s } from '../number-column.ts';
import type { HeldListing, PlanList } from './plan-types.ts';
import { placeIn } from './planned-creates.ts';

/**
 * The feed's held keys as a plan looks them up: each trimmed key once (the last hold of a key that
 * trims alike wins, as a map's would), by the hold's place in the feed's list. Keys in an arena, a
 * number a key: a feed whose every record is rejected holds every key.
 */
export class HeldIndex {
  readonly #source: HeldKeyList;
  readonly #keys = new KeySet();
  /** By id (a trimmed key), the place of its hold in `#source`. */
  readonly #places = int32s();

  constructor(source: HeldKeyList) {
    this.#source = source;
    for (let i = 0; i < source.length; i++) {
      const key = (source.keyAt === undefined ? (source.at(i) as HeldKey).key : source.keyAt(i)).trim();
      this.#places.set(this.#keys.intern(key), i);
    }
  }

  get size(): number {
    return this.#keys.size;
  }

  /** The id of a held (trimmed) key, or -1 when the key is not held. */
  find(key: string): number {
    return this.#keys.find(key);
  }

  keyAt(id: number): string {
    return this.#keys.keyAt(id);
  }

  compare(a: number, b: number): number {
    return this.#keys.compare(a, b);
  }

  /** The hold of id `id`, as the feed gave it. */
  holdAt(id: number) {
    return this.#source.at(this.#places.get(id));
  }
}

/**
 * A plan's held listings (`Plan.held`) in key order, then ID: every held key of the feed with the
 * owned remote listings it keeps (IDs in columns: the first a key has, and a map for a key with
 * more), merged with the listings a broken row holds (`extra`, objects: at most the keys a broken
 * row's cells name). Each `HeldListing` is made when read. A feed of a million records that all
 * came back rejected holds a million keys with a listing each: an object and an array each were
 * ~150 bytes a key on the heap.
 */
export class PlannedHeld implements PlanList<HeldListing> {
  readonly #index: HeldIndex;
  /** By id, the first remote ID the key keeps, and how many it keeps. */
  readonly #firstIds = float64s();
  readonly #counts = int32s();
  readonly #moreIds = new Map<number, number[]>();
  #extra: readonly HeldListing[] = [];
  /** Ids of `#index` (from 0) and places in `#extra` (-1 - place), in key order. */
  #order = new Int32Array(0);
  #onPlatform = 0;

  constructor(index: HeldIndex) {
    this.#index = index;
  }

  /** Held key `id` keeps remote listing `remoteId` (given in ascending ID order per key). */
  keep(id: number, remoteId: number): void {
    const count = this.#counts.get(id);
    this.#counts.set(id, count + 1);
    if (count === 0) {
      this.#firstIds.set(id, remoteId);
      this.#onPlatform++;
    } else {
      const more = this.#moreIds.get(id);
      if (more === undefined) this.#moreIds.set(id, [remoteId]);
      else more.push(remoteId);
    }
  }

  /**
   * Adds the listings broken rows hold (`extra`, put in order by `extraOrder`: key, then ID) and puts
   * all in key order; call once, after `keep`.
   */
  finish(extra: readonly HeldListing[], extraOrder: (a: HeldListing, b: HeldListing) => number): this {
    this.#extra = extra;
    const index = this.#index;
    const ids = new Int32Array(index.size);
    for (let id = 0; id < ids.length; id++) ids[id] = id;
    ids.sort((a, b) => index.compare(a, b));
    if (this.#extra.length === 0) {
      this.#order = ids;
      return this;
    }
    const places = extra.map((_, place) => place).sort((a, b) => extraOrder(extra[a]!, extra[b]!));
    const order = new Int32Array(ids.length + places.length);
    let i = 0;
    let j = 0;
    let k = 0;
    let key = i < ids.length ? index.keyAt(ids[i] as number) : '';
    while (i < ids.length || j < places.length) {
      const place = places[j];
      if (i < ids.length && (place === undefined || key <= (extra[place] as HeldListing).key)) {
        order[k++] = ids[i++] as number;
        if (i < ids.length) key = index.keyAt(ids[i] as number);
      } else {
        order[k++] = -1 - (place as number);
        j++;
      }
    }
    this.#order = order;
    for (const held of extra) if (held.ids.length > 0) this.#onPlatform++;
    return this;
  }

  get length(): number {
    return this.#order.length;
  }

  /** Held keys with at least one listing on the platform (the report's `heldOnPlatform`): no hold made. */
  get onPlatform(): number {
    return this.#onPlatform;
  }

  at(index: number): HeldListing | undefined {
    const i = placeIn(index, this.#order.length);
    return i === undefined ? undefined : this.#make(this.#order[i] as number);
  }

  *[Symbol.iterator](): Iterator<HeldListing> {
    for (const n of this.#order) yield this.#make(n);
  }

  /** Every held listing as an object: for a plan shown whole (`plan --json`, tests). */
  toJSON(): HeldListing[] {
    return [...this];
  }

  #make(n: number): HeldListing {
    if (n < 0) return this.#extra[-1 - n] as HeldListing;
    const hold = this.#index.holdAt(n);
    if (hold === undefined) throw new RangeError(`no hold for held key ${n}`);
    const count = this.#counts.get(n);
    const more = this.#moreIds.get(n);
    const ids =
      count === 0
        ? []
        : more === undefined
          ? [this.#firstIds.get(n)]
          : [this.#firstIds.get(n), ...more].sort((a, b) => a - b);
    return { ...hold, key: this.#index.keyAt(n), ids };
  }
}
