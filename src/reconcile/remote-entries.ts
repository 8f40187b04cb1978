import type { RemoteListing } from '../api/index.ts';
import { KeySet } from '../key-arena.ts';
import type { Listing } from '../normalize/index.ts';
import { float64s, int32s, type NumberColumn } from '../number-column.ts';
import { clearsAny } from './compare.ts';
import type { DesiredLoader } from './desired.ts';
import type { DesiredIndex } from './desired-index.ts';
import { OwnerNames } from './owner-names.ts';
import { ownerOf, ownsListing, type TagKeys } from './ownership.ts';
import { keyOf } from './plan.ts';
import type { ChangeKeeper, FieldChange, PlanPolicy, RemoteEntries } from './plan-types.ts';
import { changesIn, memoryRecords } from './record-store.ts';
import { changesAgainst, internOwner, isUnread, SAME, UNREAD_FIELD } from './remote-entry.ts';
import type { SnapshotSink } from './snapshot.ts';

export type { ChangeKeeper, RemoteEntries };

/**
 * A snapshot sink keeping each remote listing as an entry of `RemoteEntries`, compared with the
 * feed's listing of its key (`desired`) as it arrives.
 */
export function remoteEntries(
  keyField: 'MLSNumber' | 'Url',
  tags: TagKeys,
  desired: DesiredIndex,
  loader: DesiredLoader,
  sold?: SoldRecords,
  keeper?: ChangeKeeper,
): SnapshotSink<RemoteEntries> {
  const columns = new Columns(desired, undefined, keeper);
  return {
    keep(page, remote) {
      const entry = entryColumns(remote, keyField, tags, desired, loader);
      if (
        sold &&
        entry.ref < 0 &&
        remote.listing.Status !== 'Sold' &&
        sold.isMine(entry.owner) &&
        sold.mayLeave(entry.key)
      )
        entry.sold = { ref: sold.put(remote.listing), from: remote.listing.Status };
      columns.add(page, entry);
    },
    finish: () => columns.finish(),
  };
}

/**
 * Where the records that mark listings Sold go under `gone.action: markSold` (`put`: the run's record
 * store), for the listings of this feed that may be leaving it: any absent from a full feed; for an
 * incremental one, those it names removed or an earlier run found leaving (`goneSince`).
 */
export function soldRecordsOf(
  policy: Pick<PlanPolicy, 'feedId' | 'ownership' | 'adoptFrom' | 'mode' | 'removals' | 'goneSince' | 'gone'>,
  put: (listing: Listing) => number,
): SoldRecords | undefined {
  if (policy.gone?.action !== 'markSold') return undefined;
  const named = new Set([...(policy.removals ?? []), ...Object.keys(policy.goneSince ?? {})]);
  return {
    isMine: (owner) => ownsListing(policy, owner),
    mayLeave: (key) => policy.mode === 'full' || (key !== undefined && named.has(key)),
    put: (listing) => put({ ...listing, Status: 'Sold' } as Listing),
  };
}

/**
 * Under `gone.action: markSold`, where the record that marks a listing the feed no longer has Sold
 * is kept: its own fields as the list returned them, `Status: Sold`. Kept as the page arrives, for
 * the few listings that need it, so the plan can mark them without another read.
 */
export interface SoldRecords {
  isMine(owner: string | undefined): boolean;
  /** Whether a listing with this key, absent from the feed, is leaving it (an incremental feed names its removals). */
  mayLeave(key: string | undefined): boolean;
  /** Keeps the listing marked Sold; returns its record number. */
  put(listing: Partial<Listing>): number;
}

/** Entries noted before the feed was known (`RemoteBook`): their columns, handed to `Columns`. */
export interface PlacedEntries {
  ids: NumberColumn<Float64Array>;
  pages: NumberColumn<Int32Array>;
  /** Each entry's owner by `ownerNames.numberOf` (0: none). */
  owners: NumberColumn<Int32Array>;
  ownerNames: OwnerNames;
  length: number;
  /** Each entry's record in the feed (-1: none), when the entries were joined with it as they came. */
  refs?: NumberColumn<Int32Array>;
}

/** Positions `0…length-1` ordered by page, each page's in the order they were added (a counting sort). */
function byPage(pages: NumberColumn<Int32Array>, length: number): Int32Array {
  let most = 0;
  for (let i = 0; i < length; i++) most = Math.max(most, pages.get(i));
  const starts = new Int32Array(most + 2);
  for (let i = 0; i < length; i++) starts[pages.get(i) + 1]!++;
  for (let p = 1; p < starts.length; p++) starts[p]! += starts[p - 1]!;
  const order = new Int32Array(length);
  for (let i = 0; i < length; i++) order[starts[pages.get(i)]!++] = i;
  return order;
}

/** Whether the IDs along `order` strictly ascend (no ID twice). */
function ascending(order: Int32Array, ids: NumberColumn<Float64Array>): boolean {
  for (let i = 1; i < order.length; i++) if (ids.get(order[i - 1]!) >= ids.get(order[i]!)) return false;
  return true;
}

export interface Entry {
  id: number;
  key: string | undefined;
  owner: string | undefined;
  ref: number;
  changes: readonly FieldChange[] | undefined;
  sold?: { ref: number; from: unknown };
}

function entryColumns(
  remote: RemoteListing,
  keyField: 'MLSNumber' | 'Url',
  tags: TagKeys,
  desired: DesiredIndex,
  loader: DesiredLoader,
): Entry {
  const key = keyOf(remote.listing, keyField);
  const owner = internOwner(ownerOf(remote.listing, tags));
  const ref = key === undefined ? -1 : desired.refOf(key);
  if (ref < 0 || key === undefined) return { id: remote.id, key, owner, ref: -1, changes: undefined };
  const changes = changesAgainst(
    remote.listing,
    desired.listingAt(key, ref),
    loader,
    false,
    desired.clearable(),
  );
  return { id: remote.id, key, owner, ref, changes };
}

/**
 * The entries as columns of numbers (issue 23 §2: no string or object per listing). The key of an
 * entry the feed has is the feed's (`DesiredIndex.keyAt` of its record); any other key (a listing to
 * delete, another feed's) is held once as bytes in a `KeySet`. Owners, a few strings for all the
 * listings, are numbers too.
 */
export class Columns implements RemoteEntries {
  readonly #desired: DesiredIndex;
  readonly #ids: NumberColumn<Float64Array>;
  readonly #refs: NumberColumn<Int32Array>;
  /** The page each entry came from: until `finish` orders them. */
  #pages: NumberColumn<Int32Array> | undefined;
  /** Keys the feed does not have. */
  readonly #otherKeys = new KeySet();
  /** For an entry the feed does not have, its key's id in `#otherKeys` plus one (0: no key). */
  readonly #keyIds = int32s();
  /** The distinct owners, and each entry's: its index plus one (0: none). */
  readonly #ownerNames: OwnerNames;
  readonly #owners: NumberColumn<Int32Array>;
  /** Where the changes of the entries that differ are kept. */
  readonly #keeper: ChangeKeeper;
  /** Each entry's changes in `#keeper`, by the order entries arrived in: their number plus one (0: none). */
  readonly #changeRefs = int32s();
  /** Reads the changes `changeRefAt` places, holding only `#keeper` (see `changesReader`). */
  readonly changesByRef: (ref: number) => readonly FieldChange[];
  /** The entries whose changes clear a field (`isClear`), by the order they arrived in: a few. */
  readonly #clearing = new Set<number>();
  /**
   * The entries compared without their feed record (`unreadAgainst`), by the order they arrived in:
   * those a reused reading's listings edited on the platform give, a few.
   */
  readonly #unread = new Set<number>();
  /** More entries were compared without their record than `UNREAD_KEPT`: not all can be compared again. */
  #unreadPassed = false;
  /** Only the entries a run would mark Sold, by the order they arrived in. */
  readonly #sold = new Map<number, { ref: number; from: unknown }>();
  /** Arrival positions in ID order, once `finish` made it: entries are read through it, never copied. */
  #order = new Int32Array(0);
  length = 0;

  /**
   * `placed`: entries noted already (`RemoteBook`), their IDs, pages and owners taken as they are
   * rather than copied (a million of them are 20 MB); each is then placed by `place`.
   */
  constructor(
    desired: DesiredIndex,
    placed?: PlacedEntries,
    keeper: ChangeKeeper = changesIn(memoryRecords()),
  ) {
    this.#desired = desired;
    this.#keeper = keeper;
    this.changesByRef = changesReader(keeper);
    this.#ids = placed?.ids ?? float64s();
    this.#refs = placed?.refs ?? int32s();
    this.#pages = placed?.pages ?? int32s();
    this.#owners = placed?.owners ?? int32s();
    this.#ownerNames = placed?.ownerNames ?? new OwnerNames();
    this.length = placed?.length ?? 0;
  }

  /** Entry `i` of the `placed` ones: the feed's record of its key (-1: none), and its key. */
  place(i: number, ref: number, key: string | undefined): void {
    this.#refs.set(i, ref);
    if (ref < 0 && key !== undefined) this.#keyIds.set(i, this.#otherKeys.intern(key) + 1);
  }

  /** The changes (or Sold record) of entry `i` (arrival order), decided after it was added. */
  amend(i: number, found: { changes?: readonly FieldChange[]; sold?: { ref: number; from: unknown } }): void {
    this.#keepChanges(i, found.changes);
    if (found.sold !== undefined) this.#sold.set(i, found.sold);
  }

  #keepChanges(i: number, changes: readonly FieldChange[] | undefined): void {
    if (changes === undefined || changes.length === 0) return;
    let kept = changes;
    if (isUnread(changes)) {
      // The platform's listing kept for the first `UNREAD_KEPT` (a platform that rewrote a field
      // of a million listings would spill gigabytes of them): past those, the run starts over.
      if (this.#unread.size < UNREAD_KEPT) this.#unread.add(i);
      else {
        kept = UNREAD_BARE;
        this.#unreadPassed = true;
      }
    }
    this.#changeRefs.set(i, this.#keeper.put(kept) + 1);
    if (clearsAny(kept)) this.#clearing.add(i);
  }

  /** Whether every entry compared without its feed record can be compared again (`compareUnread`). */
  unreadComparable(): boolean {
    return !this.#unreadPassed;
  }

  /**
   * Compares again each entry compared without its feed record, now that it can be read (a reused
   * reading's records were read: `fillReading`): `compare` gets the platform's listing its changes
   * kept and the feed's record number, and gives the changes. A plan made before is made again.
   */
  compareUnread(compare: (remote: Partial<Listing>, ref: number) => readonly FieldChange[]): void {
    for (const i of [...this.#unread]) {
      const kept = this.#keeper.get(this.#changeRefs.get(i) - 1);
      const remote = kept[0]?.from as Partial<Listing>;
      const changes = compare(remote, this.#refs.get(i));
      this.#unread.delete(i);
      this.#clearing.delete(i);
      this.#changeRefs.set(i, 0);
      this.#keepChanges(i, changes);
    }
  }

  add(page: number, entry: Entry): void {
    if (this.#pages === undefined) throw new Error('remote entries are already in ID order');
    const i = this.length++;
    this.#ids.set(i, entry.id);
    this.#refs.set(i, entry.ref);
    this.#pages.set(i, page);
    if (entry.ref < 0 && entry.key !== undefined) this.#keyIds.set(i, this.#otherKeys.intern(entry.key) + 1);
    if (entry.owner !== undefined) this.#owners.set(i, this.#ownerNames.numberOf(entry.owner));
    this.#keepChanges(i, entry.changes);
    if (entry.sold !== undefined) this.#sold.set(i, entry.sold);
  }

  /** In ID order, the earlier page's entry of an ID read twice kept, the other dropped. */
  finish(): { listings: RemoteEntries; twice: number } {
    const pages = this.#pages;
    if (pages === undefined) throw new Error('remote entries are already in ID order');
    const ids = this.#ids;
    const order = byPage(pages, this.length);
    // Pages hold IDs in ascending order, page after page: in page order the entries are usually in
    // ID order already, and a million of them need no sort. Otherwise (IDs read twice, a list that
    // moved) within a page entries were added in the page's order: position breaks the last tie.
    if (!ascending(order, ids))
      order.sort((a, b) => ids.get(a) - ids.get(b) || pages.get(a) - pages.get(b) || a - b);
    let kept = 0;
    for (let i = 0; i < order.length; i++) {
      if (kept > 0 && ids.get(order[kept - 1]!) === ids.get(order[i]!)) continue;
      order[kept++] = order[i]!;
    }
    const twice = this.length - kept;
    this.#order = (kept === order.length ? order : order.slice(0, kept)) as Int32Array<ArrayBuffer>;
    this.#pages = undefined;
    this.length = kept;
    return { listings: this, twice };
  }

  idAt(i: number): number {
    return this.#ids.get(this.#at(i));
  }
  /** A new string each time (the plan asks only for the keys it names, and for a few it looks up). */
  keyAt(i: number): string | undefined {
    const at = this.#at(i);
    const ref = this.#refs.get(at);
    if (ref >= 0) return this.#desired.keyAt(ref);
    const id = this.#keyIds.get(at) - 1;
    return id === -1 ? undefined : this.#otherKeys.keyAt(id);
  }
  ownerAt(i: number): string | undefined {
    return this.#ownerNames.nameOf(this.#owners.get(this.#at(i)));
  }
  refAt(i: number): number {
    return this.#refs.get(this.#at(i));
  }
  changesAt(i: number): readonly FieldChange[] | undefined {
    const at = this.#at(i);
    if (this.#refs.get(at) < 0) return undefined;
    const ref = this.#changeRefs.get(at) - 1;
    return ref === -1 ? SAME : this.#keeper.get(ref);
  }

  changeRefAt(i: number): number {
    const at = this.#at(i);
    if (this.#refs.get(at) < 0)
      throw new Error(`remote listing ${this.idAt(i)} was not compared with the feed`);
    return this.#changeRefs.get(at);
  }

  differsAt(i: number): boolean {
    return this.changeRefAt(i) !== 0;
  }

  clearsAt(i: number): boolean {
    return this.#clearing.has(this.#at(i));
  }

  soldAt(i: number): { ref: number; from: unknown } | undefined {
    return this.#sold.get(this.#at(i));
  }

  #at(i: number): number {
    if (this.#pages !== undefined) throw new Error('remote entries are read once in ID order (finish)');
    return this.#order[i] as number;
  }
}

/** How many listings compared without their feed record keep the platform's listing (`Columns.compareUnread`). */
export const UNREAD_KEPT = 10_000;
/** The changes of one past those: how it differs is not known, and cannot be found without its page. */
const UNREAD_BARE: readonly FieldChange[] = Object.freeze([
  Object.freeze({ field: UNREAD_FIELD, from: undefined, to: undefined }),
]);

/** Changes by the number `Columns.changeRefAt` gives (0: none): a closure over the keeper alone. */
function changesReader(keeper: ChangeKeeper): (ref: number) => readonly FieldChange[] {
  return (ref) => (ref === 0 ? SAME : keeper.get(ref - 1));
}
