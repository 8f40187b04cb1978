import { float64s, int32s } from '../number-column.ts';
import type { FieldChange, ListingBrief, PlannedUpdate, UpdateList } from './plan-types.ts';
import { placeIn } from './planned-creates.ts';
import type { DeleteColumns } from './planned-deletes.ts';

export type { UpdateList };

/** What an update made from the run's columns reads when asked: its key, and the remote listing's changes. */
export interface UpdateSources {
  /** The feed's trimmed key of record `ref`. */
  keyAt(ref: number): string;
  /**
   * The changes of an update, by the number it was added with: where the run's record store keeps
   * them (`RemoteEntries.changesByRef`), or the remote listing's position (`RemoteEntries.changesAt`).
   */
  changesAt(place: number): readonly FieldChange[];
  /** Records `a` and `b` in the order of their keys, no string made (`DesiredIndex.compareKeys`). */
  compareKeys?(a: number, b: number): number;
}

/**
 * The listings a plan updates, as columns: for each, the platform's ID, the feed's record it sends,
 * whether it adopts the listing, and where its changes are (in the run's record store, until read:
 * the plan holds no reference to the remote listings' columns). A run that rewrites every listing
 * (a mapping changed) held an object, a key string and the changes' old and new values per update,
 * ~800 bytes each, which exhausted the image's heap before 200k listings; now ~20 bytes. An update
 * is made only when read (`at`, iteration), its `changes` only when that property is read. The rare
 * update that is not an owned or adopted listing's (a listing marked Sold) is held whole.
 */
export class PlannedUpdates implements UpdateList {
  readonly #sources: UpdateSources;
  readonly #ids: Float64Array;
  readonly #refs: Int32Array;
  /** Where the update's changes are (≥ 0, see `UpdateSources.changesAt`), or -1 - i for the i-th update held whole. */
  readonly #slots: Int32Array;
  readonly #adopt: Uint8Array;
  readonly #whole: WholeUpdates;
  readonly #briefs: readonly ListingBrief[];
  /** The changes of the first updates, read while the run's records were open (`withBriefs`). */
  readonly #changes: readonly (readonly FieldChange[])[];

  constructor(
    sources: UpdateSources,
    columns: { ids: Float64Array; refs: Int32Array; slots: Int32Array; adopt: Uint8Array },
    whole: WholeUpdates | readonly PlannedUpdate[],
    described: { briefs: readonly ListingBrief[]; changes: readonly (readonly FieldChange[])[] } = {
      briefs: [],
      changes: [],
    },
  ) {
    this.#sources = sources;
    this.#ids = columns.ids;
    this.#refs = columns.refs;
    this.#slots = columns.slots;
    this.#adopt = columns.adopt;
    this.#whole = whole instanceof WholeUpdates ? whole : WholeUpdates.of(whole);
    this.#briefs = described.briefs;
    this.#changes = described.changes;
  }

  get length(): number {
    return this.#slots.length;
  }

  /** The update at `index` in key order (a new object each time), or undefined past the end. */
  at(index: number): PlannedUpdate | undefined {
    const i = placeIn(index, this.#slots.length);
    if (i === undefined) return undefined;
    const slot = this.#slots[i] as number;
    const brief = this.#briefs[i];
    if (slot < 0) {
      const whole = this.#whole.at(-1 - slot);
      return brief === undefined ? whole : { ...whole, brief };
    }
    const ref = this.#refs[i] as number;
    const sources = this.#sources;
    const known = this.#changes[i];
    return {
      key: sources.keyAt(ref),
      id: this.#ids[i] as number,
      desired: { ref },
      ...(brief === undefined ? {} : { brief }),
      get changes() {
        return known ?? sources.changesAt(slot);
      },
      adopt: this.#adopt[i] === 1,
    };
  }

  /**
   * The same updates with a brief on the first `count` (`withBriefs`), and their changes read now,
   * while the run's records are open: what plans and reports show of them after the run closed its
   * records. Any later update's changes are read when asked, while the records are open.
   */
  withBriefs(count: number, briefOf: (ref: number) => ListingBrief): PlannedUpdates {
    const briefs: ListingBrief[] = [];
    const changes: (readonly FieldChange[])[] = [];
    for (let i = 0; i < Math.min(count, this.length); i++) {
      const update = this.at(i) as PlannedUpdate;
      briefs.push(briefOf(update.desired.ref));
      changes.push(update.changes);
    }
    const columns = { ids: this.#ids, refs: this.#refs, slots: this.#slots, adopt: this.#adopt };
    return new PlannedUpdates(this.#sources, columns, this.#whole, { briefs, changes });
  }

  /** How many adopt a listing, and how many mark one Sold (the report's counts): no update is made. */
  counts(): { adopted: number; markedSold: number } {
    let adopted = 0;
    let markedSold = 0;
    for (let i = 0; i < this.#slots.length; i++) {
      const slot = this.#slots[i] as number;
      if (slot >= 0) {
        if (this.#adopt[i] === 1) adopted++;
        continue;
      }
      if (this.#whole.isMark(-1 - slot)) {
        markedSold++;
        continue;
      }
      const update = this.#whole.at(-1 - slot);
      if (update.adopt) adopted++;
      if (update.markSold) markedSold++;
    }
    return { adopted, markedSold };
  }

  *[Symbol.iterator](): Iterator<PlannedUpdate> {
    for (let i = 0; i < this.#slots.length; i++) yield this.at(i) as PlannedUpdate;
  }

  /** Every update as an object, its changes read: for a plan shown whole (`plan --json`, tests). */
  toJSON(): PlannedUpdate[] {
    return Array.from(this, (u) => ({ ...u }));
  }
}

/** Gathers a plan's updates as `makePlan` finds them, then puts them in key order (`finish`). */
export class UpdatesBuilder {
  readonly #sources: UpdateSources;
  readonly #ids = float64s();
  readonly #refs = int32s();
  readonly #slots = int32s();
  readonly #adopt = int32s();
  readonly #whole = new WholeUpdates();
  #length = 0;

  constructor(sources: UpdateSources) {
    this.#sources = sources;
  }

  /** An update of the remote listing `id` to the feed's record `ref`, its changes at `place` (≥ 0). */
  add(ref: number, id: number, place: number, adopt: boolean): void {
    const i = this.#length++;
    this.#refs.set(i, ref);
    this.#ids.set(i, id);
    this.#slots.set(i, place);
    this.#adopt.set(i, adopt ? 1 : 0);
  }

  /**
   * The mark Sold number `n` of the plan's deletes (`DeleteColumns.markUpdateAt`): held as that
   * number, made when read. A feed under `gone.action: markSold` that came back half empty marks
   * hundreds of thousands of listings at once.
   */
  addMark(marks: DeleteColumns, n: number): void {
    const i = this.#length++;
    this.#refs.set(i, -1);
    this.#ids.set(i, marks.idAt(n));
    this.#slots.set(i, -1 - this.#whole.addMark(marks, n));
    this.#adopt.set(i, 0);
  }

  /** An update held as it is (a hand-made one; the plan's marks Sold are `addMark`'s). */
  addWhole(update: PlannedUpdate): void {
    const i = this.#length++;
    this.#refs.set(i, update.desired.ref);
    this.#ids.set(i, update.id);
    this.#slots.set(i, -1 - this.#whole.add(update));
    this.#adopt.set(i, update.adopt ? 1 : 0);
  }

  /**
   * The updates in key order, then ID. Two records' keys are compared without making them where the
   * sources can (`compareKeys`: a million key strings were ~40 MB of the heap at once); else, and for
   * an update held whole, the keys are made for the sort and dropped with it.
   */
  finish(): PlannedUpdates {
    const n = this.#length;
    // Read from the builder's columns as they are: flat copies of them for the sort were 16 MB at
    // 1M updates, on top of the columns and the result, at a rewrite's peak.
    const ids = this.#ids;
    const refs = this.#refs;
    const slots = this.#slots;
    const sources = this.#sources;
    const compare = sources.compareKeys?.bind(sources);
    // Keys made for the sort: an update held whole's, and every key where records cannot be compared.
    const keys = new Map<number, string>();
    for (let i = 0; i < n; i++) {
      const slot = slots.get(i);
      if (slot < 0) keys.set(i, this.#whole.keyAt(-1 - slot));
      else if (compare === undefined) keys.set(i, sources.keyAt(refs.get(i)));
    }
    const keyOrder = (a: number, b: number): number => {
      const x = keys.get(a);
      const y = keys.get(b);
      if (x === undefined && y === undefined && compare !== undefined)
        return compare(refs.get(a), refs.get(b));
      const kx = x ?? sources.keyAt(refs.get(a));
      const ky = y ?? sources.keyAt(refs.get(b));
      return kx < ky ? -1 : kx > ky ? 1 : 0;
    };
    const order = Int32Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => keyOrder(a, b) || ids.get(a) - ids.get(b),
    );
    const columns = {
      ids: new Float64Array(n),
      refs: new Int32Array(n),
      slots: new Int32Array(n),
      adopt: new Uint8Array(n),
    };
    for (let i = 0; i < n; i++) {
      const from = order[i] as number;
      columns.ids[i] = ids.get(from);
      columns.refs[i] = refs.get(from);
      columns.slots[i] = slots.get(from);
      columns.adopt[i] = this.#adopt.get(from);
    }
    return new PlannedUpdates(this.#sources, columns, this.#whole);
  }
}

/**
 * The updates a plan does not make from the columns: marks Sold (their numbers in the plan's
 * `DeleteColumns`, 8 bytes each) and updates held as they are.
 */
class WholeUpdates {
  readonly #list: (PlannedUpdate | number)[] = [];
  #marks: DeleteColumns | undefined;

  static of(updates: readonly PlannedUpdate[]): WholeUpdates {
    const whole = new WholeUpdates();
    for (const u of updates) whole.add(u);
    return whole;
  }

  /** Holds `update`; returns its number. */
  add(update: PlannedUpdate): number {
    return this.#list.push(update) - 1;
  }

  /** Holds mark `n` of `marks` (one `DeleteColumns` a plan); returns its number. */
  addMark(marks: DeleteColumns, n: number): number {
    if (this.#marks !== undefined && this.#marks !== marks) throw new Error('marks of two plans in one');
    this.#marks = marks;
    return this.#list.push(n) - 1;
  }

  isMark(i: number): boolean {
    return typeof this.#list[i] === 'number';
  }

  at(i: number): PlannedUpdate {
    const held = this.#list[i];
    if (held === undefined) throw new RangeError(`no update ${i} held whole`);
    return typeof held === 'number' ? (this.#marks as DeleteColumns).markUpdateAt(held) : held;
  }

  keyAt(i: number): string {
    const held = this.#list[i];
    return typeof held === 'number' ? (this.#marks as DeleteColumns).keyAt(held) : this.at(i).key;
  }
}

/** How many of a plan's updates adopt a listing, and how many mark one Sold, without making them. */
export function updateCounts(updates: UpdateList): { adopted: number; markedSold: number } {
  if (updates instanceof PlannedUpdates) return updates.counts();
  let adopted = 0;
  let markedSold = 0;
  for (const u of updates) {
    if (u.adopt) adopted++;
    if (u.markSold) markedSold++;
  }
  return { adopted, markedSold };
}
