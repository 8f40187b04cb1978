import { KeyArena } from '../key-arena.ts';
import { float64s, int32s } from '../number-column.ts';
import { OwnerNames } from './owner-names.ts';
import type { ForeignListing, PlanList, SkippedListing } from './plan-types.ts';
import { placeIn } from './planned-creates.ts';

const SKIP_REASONS: readonly SkippedListing['reason'][] = ['adopt-disabled', 'owned-by-other-feed'];

/**
 * Remote listings another owner holds, as a plan lists them: the foreign ones it leaves alone and the
 * feed's listings it skips because their key is another's. Columns in the order found (a key's bytes
 * in an arena, the ID, the owner interned, the reason), put in key order, then ID (`finish`); each
 * listing made when read. A chatbot shared by several feeds is mostly foreign to each, and a feed
 * whose id was renamed finds every key owned by its old id: at a million listings an object each
 * took ~100 MB of the heap.
 */
abstract class ElsewhereColumns<T> implements PlanList<T> {
  protected readonly keys = new KeyArena();
  protected readonly ids = float64s();
  /** The owner's number in `#owners` (0: none). */
  readonly #ownerOf = int32s();
  readonly #owners = new OwnerNames();
  protected readonly reasons = int32s();
  #order: Int32Array | undefined;

  protected push(key: string, id: number, owner: string | undefined, reason = 0): void {
    if (this.#order !== undefined) throw new Error('a finished list takes no more listings');
    const i = this.keys.add(key);
    this.ids.set(i, id);
    this.reasons.set(i, reason);
    if (owner !== undefined && owner !== '') this.#ownerOf.set(i, this.#owners.numberOf(owner));
  }

  protected ownerAt(i: number): string | undefined {
    return this.#owners.nameOf(this.#ownerOf.get(i));
  }

  /** Puts the listings in key order, then ID; call once, when all are added. */
  finish(): this {
    const order = new Int32Array(this.keys.size);
    for (let i = 0; i < order.length; i++) order[i] = i;
    this.#order = order.sort((a, b) => this.keys.compare(a, b) || this.ids.get(a) - this.ids.get(b));
    return this;
  }

  get length(): number {
    return this.keys.size;
  }

  at(index: number): T | undefined {
    const order = this.#finished();
    const i = placeIn(index, order.length);
    return i === undefined ? undefined : this.make(order[i] as number);
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const i of this.#finished()) yield this.make(i);
  }

  /** Every listing as an object: for a plan shown whole (`plan --json`, tests). */
  toJSON(): T[] {
    return [...this];
  }

  protected abstract make(i: number): T;

  #finished(): Int32Array {
    if (this.#order === undefined) throw new Error('read before finish()');
    return this.#order;
  }
}

/** A plan's foreign listings (`Plan.foreign`): not the feed's, left alone. */
export class PlannedForeign extends ElsewhereColumns<ForeignListing> {
  add(key: string, id: number, owner: string | undefined): void {
    this.push(key, id, owner);
  }

  protected make(i: number): ForeignListing {
    const owner = this.ownerAt(i);
    return { id: this.ids.get(i), key: this.keys.keyAt(i), ...(owner ? { owner } : {}) };
  }
}

/** A plan's skipped listings (`Plan.skipped`): the feed's, whose key another owner holds. */
export class PlannedSkipped extends ElsewhereColumns<SkippedListing> {
  add(skip: SkippedListing): void {
    this.push(skip.key, skip.id, skip.owner, SKIP_REASONS.indexOf(skip.reason));
  }

  protected make(i: number): SkippedListing {
    const owner = this.ownerAt(i);
    return {
      key: this.keys.keyAt(i),
      id: this.ids.get(i),
      reason: SKIP_REASONS[this.reasons.get(i)] as SkippedListing['reason'],
      ...(owner ? { owner } : {}),
    };
  }
}
