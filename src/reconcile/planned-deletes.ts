import { KeyArena } from '../key-arena.ts';
import { float64s, int32s } from '../number-column.ts';
import type {
  DeleteList,
  DeleteReason,
  GonePolicy,
  GraceList,
  GraceListing,
  PlannedDelete,
  PlannedUpdate,
} from './plan-types.ts';
import { placeIn } from './planned-creates.ts';

export type { DeleteList, GraceList };

const REASONS: readonly DeleteReason[] = ['gone', 'removed', 'duplicate'];
const REASON_NUMBER: Readonly<Record<DeleteReason, number>> = { gone: 0, removed: 1, duplicate: 2 };
/** Added to a kind's reason number for a mark (`action: 'markSold'`) rather than a delete. */
const MARK = 4;

/**
 * The deletes a plan finds (duplicates, listings gone from the feed or removed, and the marks Sold
 * the guards count as losses), as columns in the order they were found: a key's characters in an
 * arena, the ID, the reason and mark, and the grace clock's start (`since`, interned: one per run
 * that found listings gone). About 41 bytes a delete, where an object and a key string took ~94 (measured):
 * a feed of a million listings that came back half empty held half a million of them, twice (as the
 * listings leaving, then as deletes), with the guard holding them all. A delete is made only when
 * read (`at`); the guards and the plan read the columns (`reasonAt`, `isMark`, `idAt`, `keyAt`).
 */
export class DeleteColumns implements Iterable<PlannedDelete> {
  readonly #keys = new KeyArena();
  readonly #ids = float64s();
  readonly #kinds = int32s();
  /** The `since` of each: its number in `#times` plus one (0: none). */
  readonly #since = int32s();
  readonly #times: string[] = [];
  readonly #timeNumbers = new Map<string, number>();
  /** A mark's record that marks the listing Sold (`desired.ref`), and the number of its status now. */
  readonly #markRefs = int32s();
  readonly #markFrom = int32s();
  readonly #statuses: unknown[] = [];
  readonly #statusNumbers = new Map<unknown, number>();
  length = 0;

  /**
   * Adds a delete, or with `mark` a mark Sold (the record that marks it, in the run's store, and the
   * status it has now); returns its number.
   */
  add(
    key: string,
    id: number,
    reason: DeleteReason,
    since?: string,
    mark?: { ref: number; from: unknown },
  ): number {
    const i = this.length++;
    this.#keys.add(key);
    this.#ids.set(i, id);
    this.#kinds.set(i, REASON_NUMBER[reason] + (mark ? MARK : 0));
    if (since !== undefined) this.#since.set(i, this.#timeNumber(since) + 1);
    if (mark !== undefined) {
      this.#markRefs.set(i, mark.ref);
      this.#markFrom.set(i, this.#statusNumber(mark.from));
    }
    return i;
  }

  /** Mark `i` as the update that makes it (`Status` to Sold, its record in the run's store). */
  markUpdateAt(i: number): PlannedUpdate {
    if (!this.isMark(i)) throw new RangeError(`entry ${i} is a delete, not a mark`);
    const from = this.#statuses[this.#markFrom.get(i)];
    return {
      key: this.keyAt(i),
      id: this.idAt(i),
      desired: { ref: this.#markRefs.get(i) },
      changes: [{ field: 'Status', from, to: 'Sold' }],
      adopt: false,
      markSold: true,
    };
  }

  keyAt(i: number): string {
    return this.#keys.keyAt(i);
  }
  /** Entries `a` and `b` in the order of their keys (`KeyArena.compare`: as `<` orders the strings). */
  compareKeys(a: number, b: number): number {
    return this.#keys.compare(a, b);
  }
  idAt(i: number): number {
    return this.#ids.get(i);
  }
  reasonAt(i: number): DeleteReason {
    return REASONS[this.#kinds.get(i) & (MARK - 1)] as DeleteReason;
  }
  /** Whether it is a mark Sold, not a delete. */
  isMark(i: number): boolean {
    return (this.#kinds.get(i) & MARK) !== 0;
  }

  /** Delete `i` as an object (a new one each time). */
  at(i: number): PlannedDelete {
    const since = this.sinceAt(i);
    return {
      key: this.keyAt(i),
      id: this.idAt(i),
      reason: this.reasonAt(i),
      ...(since === undefined ? {} : { since }),
      ...(this.isMark(i) ? { action: 'markSold' as const } : {}),
    };
  }

  *[Symbol.iterator](): Iterator<PlannedDelete> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }

  /** Every delete as an object, in the order found (tests). */
  toJSON(): PlannedDelete[] {
    return [...this];
  }

  /** The `since` of delete `i` (undefined: none). */
  sinceAt(i: number): string | undefined {
    const since = this.#since.get(i);
    return since === 0 ? undefined : this.#times[since - 1];
  }

  #statusNumber(status: unknown): number {
    const known = this.#statusNumbers.get(status);
    if (known !== undefined) return known;
    this.#statusNumbers.set(status, this.#statuses.length);
    return this.#statuses.push(status) - 1;
  }

  #timeNumber(since: string): number {
    const known = this.#timeNumbers.get(since);
    if (known !== undefined) return known;
    this.#timeNumbers.set(since, this.#times.length);
    return this.#times.push(since) - 1;
  }
}

/**
 * Some of a plan's deletes (those a guard allowed, or held), in key order then ID: numbers into the
 * `DeleteColumns` they were found in, 4 bytes a delete. Each is made only when read.
 */
export class PlannedDeletes implements DeleteList {
  readonly #found: DeleteColumns;
  readonly #order: Int32Array;

  private constructor(found: DeleteColumns, order: Int32Array) {
    this.#found = found;
    this.#order = order;
  }

  /** These deletes of `found`, put in key order (their keys compared in its arena), then ID. */
  static inKeyOrder(found: DeleteColumns, picked: ArrayLike<number>): PlannedDeletes {
    return new PlannedDeletes(found, inKeyOrder(found, picked));
  }

  get length(): number {
    return this.#order.length;
  }

  /** The delete at `index` in key order (a new object each time), or undefined past the end. */
  at(index: number): PlannedDelete | undefined {
    const i = placeIn(index, this.#order.length);
    return i === undefined ? undefined : this.#found.at(this.#order[i] as number);
  }

  /** How many delete a remote duplicate (the report's count): no delete is made. */
  duplicates(): number {
    let count = 0;
    for (const i of this.#order) if (this.#found.reasonAt(i) === 'duplicate') count++;
    return count;
  }

  *[Symbol.iterator](): Iterator<PlannedDelete> {
    for (let i = 0; i < this.#order.length; i++) yield this.#found.at(this.#order[i] as number);
  }

  /** Every delete as an object: for a plan shown whole (`plan --json`, tests). */
  toJSON(): PlannedDelete[] {
    return [...this];
  }
}

/** Key order, then ID, of some of `found`'s entries: their keys compared in its arena, no string made. */
function inKeyOrder(found: DeleteColumns, picked: ArrayLike<number>): Int32Array {
  return Int32Array.from(picked).sort((a, b) => found.compareKeys(a, b) || found.idAt(a) - found.idAt(b));
}

const DAY_MS = 86_400_000;

/**
 * The listings gone from the feed that a plan keeps for now (`gone.afterDays`), as entries of a
 * `DeleteColumns` (key, ID, reason, since: 4 bytes each here): each `GraceListing` is made when read,
 * its end of grace from its start and the policy. A feed under a grace policy that came back half
 * empty keeps hundreds of thousands of them.
 */
export class PlannedGrace implements GraceList {
  readonly #found: DeleteColumns;
  readonly #order: Int32Array;
  readonly #policy: GonePolicy;

  private constructor(found: DeleteColumns, order: Int32Array, policy: GonePolicy) {
    this.#found = found;
    this.#order = order;
    this.#policy = policy;
  }

  /** Every entry of `found`, in the order found. */
  static of(found: DeleteColumns, policy: GonePolicy): PlannedGrace {
    return new PlannedGrace(
      found,
      Int32Array.from({ length: found.length }, (_, i) => i),
      policy,
    );
  }

  /** The same listings less those of `ids`, in key order, then ID. */
  inKeyOrderWithout(ids: ReadonlySet<number>): PlannedGrace {
    const picked = Array.from(this.#order).filter((i) => !ids.has(this.#found.idAt(i)));
    return new PlannedGrace(this.#found, inKeyOrder(this.#found, picked), this.#policy);
  }

  get length(): number {
    return this.#order.length;
  }

  at(index: number): GraceListing | undefined {
    const i = placeIn(index, this.#order.length);
    if (i === undefined) return undefined;
    const n = this.#order[i] as number;
    const found = this.#found;
    const since = found.sinceAt(n) as string;
    return {
      key: found.keyAt(n),
      id: found.idAt(n),
      reason: found.reasonAt(n) as GraceListing['reason'],
      since,
      until: new Date(Date.parse(since) + this.#policy.afterDays * DAY_MS).toISOString(),
      action: this.#policy.action,
    };
  }

  *[Symbol.iterator](): Iterator<GraceListing> {
    for (let i = 0; i < this.#order.length; i++) yield this.at(i) as GraceListing;
  }

  toJSON(): GraceListing[] {
    return [...this];
  }
}

/** How many of a plan's deletes are of remote duplicates, without making them. */
export function duplicateDeletes(deletes: DeleteList): number {
  if (deletes instanceof PlannedDeletes) return deletes.duplicates();
  let count = 0;
  for (const d of deletes) if (d.reason === 'duplicate') count++;
  return count;
}
