import { float64s, int32s, type NumberColumn } from '../number-column.ts';
import { clearsAny, isClear, isHashTag } from './compare.ts';
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
 * The columns of a plan's updates, by the order the plan found them in: the platform's ID, the
 * feed's record, where the changes are (`PlannedUpdates`' slots), and the few that adopt a listing.
 */
interface UpdateColumns {
  ids: NumberColumn<Float64Array>;
  refs: NumberColumn<Int32Array>;
  slots: NumberColumn<Int32Array>;
  adopted: Set<number>;
  /** The few made as a replace (`PlannedUpdate.replace`). */
  replacing: Set<number>;
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
  readonly #columns: UpdateColumns;
  /** The updates in key order: `#columns`' places, as the builder gathered them. */
  readonly #order: Int32Array;
  readonly #whole: WholeUpdates;
  readonly #briefs: readonly ListingBrief[];
  /** The changes of the first updates, read while the run's records were open (`withBriefs`). */
  readonly #changes: readonly (readonly FieldChange[])[];

  constructor(
    sources: UpdateSources,
    columns: UpdateColumns,
    order: Int32Array,
    whole: WholeUpdates,
    described: { briefs: readonly ListingBrief[]; changes: readonly (readonly FieldChange[])[] } = {
      briefs: [],
      changes: [],
    },
  ) {
    this.#sources = sources;
    this.#columns = columns;
    this.#order = order;
    this.#whole = whole;
    this.#briefs = described.briefs;
    this.#changes = described.changes;
  }

  get length(): number {
    return this.#order.length;
  }

  /** The update at `index` in key order (a new object each time), or undefined past the end. */
  at(index: number): PlannedUpdate | undefined {
    const i = placeIn(index, this.#order.length);
    if (i === undefined) return undefined;
    const at = this.#order[i] as number;
    const columns = this.#columns;
    const slot = columns.slots.get(at);
    const brief = this.#briefs[i];
    if (slot < 0) {
      const whole = this.#whole.at(-1 - slot);
      return brief === undefined ? whole : { ...whole, brief };
    }
    const ref = columns.refs.get(at);
    const sources = this.#sources;
    const known = this.#changes[i];
    const replace = columns.replacing.has(at);
    return {
      key: sources.keyAt(ref),
      id: columns.ids.get(at),
      desired: { ref },
      ...(brief === undefined ? {} : { brief }),
      get changes() {
        if (known !== undefined) return known;
        const changes = sources.changesAt(slot);
        // An update that is not a replace clears nothing (a guard held it, the platform fills it).
        return replace || !clearsAny(changes) ? changes : changes.filter((c) => !isClear(c));
      },
      adopt: columns.adopted.has(at),
      ...(replace ? { replace: true as const } : {}),
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
    return new PlannedUpdates(this.#sources, this.#columns, this.#order, this.#whole, { briefs, changes });
  }

  /** How many adopt a listing, and how many mark one Sold (the report's counts): no update is made. */
  counts(): { adopted: number; markedSold: number; replaced: number } {
    let adopted = 0;
    let markedSold = 0;
    let replaced = this.#columns.replacing.size;
    // In the order they were gathered: counts need no order.
    const { slots, adopted: adopts } = this.#columns;
    for (let at = 0; at < this.#order.length; at++) {
      const slot = slots.get(at);
      if (slot >= 0) {
        if (adopts.has(at)) adopted++;
        continue;
      }
      if (this.#whole.isMark(-1 - slot)) {
        markedSold++;
        continue;
      }
      const update = this.#whole.at(-1 - slot);
      if (update.adopt) adopted++;
      if (update.markSold) markedSold++;
      if (update.replace) replaced++;
    }
    return { adopted, markedSold, replaced };
  }

  *[Symbol.iterator](): Iterator<PlannedUpdate> {
    for (let i = 0; i < this.#order.length; i++) yield this.at(i) as PlannedUpdate;
  }

  /** Every update as an object, its changes read: for a plan shown whole (`plan --json`, tests). */
  toJSON(): PlannedUpdate[] {
    return Array.from(this, (u) => ({ ...u }));
  }
}

/** Gathers a plan's updates as `makePlan` finds them, then puts them in key order (`finish`). */
export class UpdatesBuilder {
  readonly #sources: UpdateSources;
  readonly #columns: UpdateColumns = {
    ids: float64s(),
    refs: int32s(),
    slots: int32s(),
    adopted: new Set(),
    replacing: new Set(),
  };
  readonly #whole = new WholeUpdates();
  /** Updates a guard left out (`holdReplaces`). */
  readonly #dropped = new Set<number>();
  #length = 0;

  constructor(sources: UpdateSources) {
    this.#sources = sources;
  }

  /** An update of the remote listing `id` to the feed's record `ref`, its changes at `place` (≥ 0). */
  add(ref: number, id: number, place: number, adopt: boolean, replace = false): void {
    const i = this.#length++;
    const columns = this.#columns;
    columns.refs.set(i, ref);
    columns.ids.set(i, id);
    columns.slots.set(i, place);
    if (adopt) columns.adopted.add(i);
    if (replace) columns.replacing.add(i);
  }

  /**
   * The mark Sold number `n` of the plan's deletes (`DeleteColumns.markUpdateAt`): held as that
   * number, made when read. A feed under `gone.action: markSold` that came back half empty marks
   * hundreds of thousands of listings at once.
   */
  addMark(marks: DeleteColumns, n: number): void {
    const i = this.#length++;
    const columns = this.#columns;
    columns.refs.set(i, -1);
    columns.ids.set(i, marks.idAt(n));
    columns.slots.set(i, -1 - this.#whole.addMark(marks, n));
  }

  /** An update held as it is (a hand-made one; the plan's marks Sold are `addMark`'s). */
  addWhole(update: PlannedUpdate): void {
    const i = this.#length++;
    const columns = this.#columns;
    columns.refs.set(i, update.desired.ref);
    columns.ids.set(i, update.id);
    columns.slots.set(i, -1 - this.#whole.add(update));
    if (update.adopt) columns.adopted.add(i);
  }

  /**
   * The updates in key order, then ID. Two records' keys are compared without making them where the
   * sources can (`compareKeys`: a million key strings were ~40 MB of the heap at once); else, and for
   * an update held whole, the keys are made for the sort and dropped with it.
   */
  finish(): PlannedUpdates {
    const n = this.#length;
    // The builder's columns are the plan's, read through the sort's order: copies of them in key
    // order were 17 MB at 1M updates, made while the columns were held, at a rewrite's peak.
    const { ids, refs, slots } = this.#columns;
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
    const places = Int32Array.from({ length: n }, (_, i) => i);
    const dropped = this.#dropped;
    const order = (dropped.size === 0 ? places : places.filter((i) => !dropped.has(i))).sort(
      (a, b) => keyOrder(a, b) || ids.get(a) - ids.get(b),
    );
    return new PlannedUpdates(sources, this.#columns, order, this.#whole);
  }

  /** How many updates are made as a replace (`add`'s `replace`). */
  replaceCount(): number {
    return this.#columns.replacing.size;
  }

  /**
   * A guard holds the replaces (`mass-replace`): each is made a plain update, without its clears,
   * or left out where the clears (and the record hash) were all it changed, so that a run the
   * guard holds does not rewrite those listings. Returns the keys of the replaces held, and the records
   * (`ref`) of those left out.
   */
  holdReplaces(): { keys: string[]; dropped: number[] } {
    const { replacing, slots, refs } = this.#columns;
    const keys: string[] = [];
    const dropped: number[] = [];
    for (const i of replacing) {
      keys.push(this.#sources.keyAt(refs.get(i)));
      const changes = this.#sources.changesAt(slots.get(i));
      // Only clears (and the record hash, which the clears move): no write while the guard holds
      // (a broken export would otherwise rewrite every listing, and again once fixed). A change the
      // list never shows (AreaUnit, Location) waits with the clears.
      if (changes.every((c) => isClear(c) || isHashTag(c))) {
        this.#dropped.add(i);
        dropped.push(refs.get(i));
      }
    }
    replacing.clear();
    return { keys, dropped };
  }
}

/**
 * The updates a plan does not make from the columns: marks Sold (their numbers in the plan's
 * `DeleteColumns`, 8 bytes each) and updates held as they are.
 */
class WholeUpdates {
  readonly #list: (PlannedUpdate | number)[] = [];
  #marks: DeleteColumns | undefined;

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
export function updateCounts(updates: UpdateList): { adopted: number; markedSold: number; replaced: number } {
  if (updates instanceof PlannedUpdates) return updates.counts();
  let adopted = 0;
  let markedSold = 0;
  let replaced = 0;
  for (const u of updates) {
    if (u.adopt) adopted++;
    if (u.markSold) markedSold++;
    if (u.replace) replaced++;
  }
  return { adopted, markedSold, replaced };
}
