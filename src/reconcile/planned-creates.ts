import type { CreateList, ListingBrief, PlanList, PlannedCreate } from './plan-types.ts';

export type { CreateList };

/**
 * The listings a plan creates, held as the feed's record numbers (4 bytes a create) in key order,
 * each create made only when read (`at`, iteration) with its key read from the feed's index. An
 * initial sync of a million listings creates every one: an object, a reference and a key string
 * per create took ~115 bytes (~115 MB at 1M, held until the last create was sent), which issue 23
 * §2 asks a run not to hold. Briefs (what plans and reports show) are kept for the first few only.
 */
export class PlannedCreates implements CreateList {
  readonly #refs: Int32Array;
  readonly #keyAt: (ref: number) => string;
  readonly #briefs: readonly ListingBrief[];

  private constructor(refs: Int32Array, keyAt: (ref: number) => string, briefs: readonly ListingBrief[]) {
    this.#refs = refs;
    this.#keyAt = keyAt;
    this.#briefs = briefs;
  }

  /**
   * The creates of these records, put in key order (keys are unique: one record a key), by
   * `compare` (two records by their keys, `DesiredIndex.compareKeys`: no string made), else by their
   * keys made once for the sort: a million key strings were ~40 MB of the heap at once.
   */
  static inKeyOrder(
    refs: ArrayLike<number>,
    keyAt: (ref: number) => string,
    compare?: (a: number, b: number) => number,
  ): PlannedCreates {
    const sorted = Int32Array.from(refs);
    if (compare) return new PlannedCreates(sorted.sort(compare), keyAt, []);
    const keys = Array.from(refs, keyAt);
    const order = Int32Array.from({ length: keys.length }, (_, i) => i);
    order.sort((a, b) => {
      const x = keys[a] as string;
      const y = keys[b] as string;
      return x < y ? -1 : x > y ? 1 : 0;
    });
    for (let i = 0; i < order.length; i++) sorted[i] = refs[order[i] as number] as number;
    return new PlannedCreates(sorted, keyAt, []);
  }

  get length(): number {
    return this.#refs.length;
  }

  /** The create at `index` in key order (a new object each time), or undefined past the end. */
  at(index: number): PlannedCreate | undefined {
    const i = placeIn(index, this.#refs.length);
    if (i === undefined) return undefined;
    const ref = this.#refs[i] as number;
    const brief = this.#briefs[i];
    return brief === undefined
      ? { key: this.#keyAt(ref), desired: { ref } }
      : { key: this.#keyAt(ref), desired: { ref }, brief };
  }

  /**
   * The creates in the order their records were kept (the feed's order): what applying them reads
   * from the run's record store, front to back, instead of jumping about it in key order.
   */
  *inStoreOrder(): Generator<PlannedCreate> {
    const refs = Int32Array.from(this.#refs).sort();
    for (const ref of refs) yield { key: this.#keyAt(ref), desired: { ref } };
  }

  /** The same creates with a brief on the first `count` (`withBriefs`). */
  withBriefs(count: number, briefOf: (ref: number) => ListingBrief): PlannedCreates {
    const briefs = Array.from(this.#refs.subarray(0, Math.min(count, this.#refs.length)), briefOf);
    return new PlannedCreates(this.#refs, this.#keyAt, briefs);
  }

  *[Symbol.iterator](): Iterator<PlannedCreate> {
    for (let i = 0; i < this.#refs.length; i++) yield this.at(i) as PlannedCreate;
  }

  /** Every create as an object: for a plan shown whole (`plan --json`, tests). */
  toJSON(): PlannedCreate[] {
    return [...this];
  }
}

/** Where `at(index)` reads in a list of `length`, as `Array.prototype.at` (negative: from the end). */
export function placeIn(index: number, length: number): number | undefined {
  const i = index < 0 ? length + index : index;
  return i >= 0 && i < length ? i : undefined;
}

/** Items `from` to `from + count` of a plan's list, as objects (a batch to send, the first few a report keeps). */
export function itemsOf<T>(list: PlanList<T>, from: number, count: number): T[] {
  const items: T[] = [];
  for (let i = from; i < Math.min(list.length, from + count); i++) items.push(list.at(i) as T);
  return items;
}

/** A plan's creates in the order their records were kept (`PlannedCreates.inStoreOrder`), for applying them. */
export function inStoreOrder(creates: CreateList): Iterable<PlannedCreate> {
  if (creates instanceof PlannedCreates) return creates.inStoreOrder();
  return [...creates].sort((a, b) => a.desired.ref - b.desired.ref);
}

/** Whether the plan creates a listing with this key (`explain`): a pass, no key kept. */
export function createsKey(creates: CreateList, key: string): boolean {
  for (const c of creates) if (c.key === key) return true;
  return false;
}
