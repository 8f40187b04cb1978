import { KeyArena } from '../key-arena.ts';
import { float64s, int32s } from '../number-column.ts';
import type { DeleteList, DeleteReason, PlannedDelete } from './plan-types.ts';
import { placeIn } from './planned-creates.ts';

export type { DeleteList };

const REASONS: readonly DeleteReason[] = ['gone', 'removed', 'duplicate'];
const REASON_NUMBER: Readonly<Record<DeleteReason, number>> = { gone: 0, removed: 1, duplicate: 2 };
/** Added to a kind's reason number for a mark (`action: 'markSold'`) rather than a delete. */
const MARK = 4;

/**
 * The deletes a plan finds (duplicates, listings gone from the feed or removed, and the marks Sold
 * the guards count as losses), as columns in the order they were found: a key's characters in an
 * arena, the ID, the reason and mark, and the grace clock's start (`since`, interned: one per run
 * that found listings gone). About 35 bytes a delete, where an object and a key string took ~150:
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
  length = 0;

  /** Adds a delete (or, `mark`, a mark Sold); returns its number. */
  add(key: string, id: number, reason: DeleteReason, since?: string, mark = false): number {
    const i = this.length++;
    this.#keys.add(key);
    this.#ids.set(i, id);
    this.#kinds.set(i, REASON_NUMBER[reason] + (mark ? MARK : 0));
    if (since !== undefined) this.#since.set(i, this.#timeNumber(since) + 1);
    return i;
  }

  keyAt(i: number): string {
    return this.#keys.keyAt(i);
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
    const since = this.#since.get(i);
    return {
      key: this.keyAt(i),
      id: this.idAt(i),
      reason: this.reasonAt(i),
      ...(since === 0 ? {} : { since: this.#times[since - 1] as string }),
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

  /** These deletes of `found`, put in key order, then ID. The keys are made once for the sort. */
  static inKeyOrder(found: DeleteColumns, picked: ArrayLike<number>): PlannedDeletes {
    const keys = Array.from(picked, (i) => found.keyAt(i));
    const ids = Float64Array.from(picked, (i) => found.idAt(i));
    const order = Int32Array.from({ length: keys.length }, (_, i) => i);
    order.sort((a, b) => {
      const x = keys[a] as string;
      const y = keys[b] as string;
      return x < y ? -1 : x > y ? 1 : (ids[a] as number) - (ids[b] as number);
    });
    for (let i = 0; i < order.length; i++) order[i] = picked[order[i] as number] as number;
    return new PlannedDeletes(found, order);
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

/** How many of a plan's deletes are of remote duplicates, without making them. */
export function duplicateDeletes(deletes: DeleteList): number {
  if (deletes instanceof PlannedDeletes) return deletes.duplicates();
  let count = 0;
  for (const d of deletes) if (d.reason === 'duplicate') count++;
  return count;
}

/** `count` deletes from `from` (a batch to send), as objects. */
export function sliceDeletes(deletes: DeleteList, from: number, count: number): PlannedDelete[] {
  const batch: PlannedDelete[] = [];
  for (let i = from; i < Math.min(deletes.length, from + count); i++)
    batch.push(deletes.at(i) as PlannedDelete);
  return batch;
}
