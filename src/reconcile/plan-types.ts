import type { BrokenRow, HeldKey, HeldKeyList } from '../ingest/index.ts';
import type { Listing } from '../normalize/index.ts';
import type { KeyList } from './unchanged-keys.ts';

/** What a plan and a report show of a listing they create or update: its place, price and units. */
export type ListingBrief = Partial<
  Pick<
    Listing,
    | 'Address'
    | 'City'
    | 'Status'
    | 'SaleType'
    | 'SalePrice'
    | 'RentPrice'
    | 'CurrencySymbol'
    | 'BuildingArea'
    | 'AreaUnit'
  >
>;

/** The record a planned create or update sends, by its number in the run's `RecordStore`. */
export interface StoreRef {
  ref: number;
}

/**
 * One listing of the feed: the digest of the record feed-sync would send (its tags included) and
 * where the full record is kept (`RecordStore`). A run keeps these in columns (`DesiredIndex`).
 */
export interface DesiredListing extends StoreRef {
  /** The feed's key (`MLSNumber` or `Url`), trimmed. */
  key: string;
  /** The returned fields the record sets (see `fieldMask`). */
  mask: number;
  /** `fieldsDigest` of the tagged record over `mask`. */
  digest: number;
  /** The tagged record in the run's `RecordStore`. */
  ref: number;
}

/**
 * The chatbot's listings as the plan needs them (what `remoteEntries` makes of each page), in columns:
 * ID, key, interned owner tag, the feed's record of that key (-1: none), and the changes of the few
 * that differ. About 30 bytes a listing, where an object per listing and a map of their keys took
 * ~110. Filled page by page as the snapshot reads (`remoteEntries`), then put in ID order.
 */
export interface RemoteEntries {
  readonly length: number;
  idAt(i: number): number;
  keyAt(i: number): string | undefined;
  ownerAt(i: number): string | undefined;
  /** The feed's record with this listing's key, or -1 when the feed has no such key. */
  refAt(i: number): number;
  /** The fields an update would change; undefined when the feed has no listing with this key. */
  changesAt(i: number): readonly FieldChange[] | undefined;
  /**
   * Whether an update would change anything (`changesAt` not empty), without reading the changes
   * (they may be in the run's spill file). Throws for a listing the feed has no record of.
   */
  differsAt(i: number): boolean;
  /**
   * Whether listing `i`'s changes clear a field (`isClear`): its update is a replace. Optional: read
   * from `changesAt` where left out (test fakes).
   */
  clearsAt?(i: number): boolean;
  /**
   * Where listing `i`'s changes are kept (0: it has none), to be read by `changesByRef`, which holds
   * the place they are kept and not these entries: a plan's updates find their changes this way, so
   * the entries (~28 bytes a listing) are let go of once the plan is made, not after it is applied.
   * Optional: entries that hold their changes themselves (test fakes) leave both out.
   */
  changeRefAt?(i: number): number;
  readonly changesByRef?: (ref: number) => readonly FieldChange[];
  /**
   * For a listing the feed no longer has, under `gone.action: markSold`, when it is not Sold yet:
   * the record that marks it Sold (its own fields, `Status: Sold`) and the status it has now.
   */
  soldAt?(i: number): { ref: number; from: unknown } | undefined;
  /**
   * Compares again the listings compared without their feed record, once it can be read (a reused
   * reading: `Columns.compareUnread`). Optional: entries that cannot (test fakes) make such a run
   * read the feed anew.
   */
  compareUnread?(compare: (remote: Partial<Listing>, ref: number) => readonly FieldChange[]): void;
  /** Whether `compareUnread` can compare every such listing (it keeps the platform's listing of so many). */
  unreadComparable?(): boolean;
}

/** Why a remote listing is deleted. */
export type DeleteReason = 'gone' | 'removed' | 'duplicate';

/** One field that differs, in canonical form. `from` is what the remote returned (undefined = unset). */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/**
 * A list of a plan's, as it is read: how many, one by its place (`at`, negative from the end), all
 * in key order (then ID). An array is one (tests and hand-made plans use them); the plan's own are
 * columns that make each item when read (`PlannedCreates`, `PlannedUpdates`, `PlannedDeletes`,
 * `PlannedGrace`).
 */
export interface PlanList<T> extends Iterable<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/** A plan's creates. */
export type CreateList = PlanList<PlannedCreate>;
/** A plan's updates. */
export type UpdateList = PlanList<PlannedUpdate>;
/** A plan's deletes, or those a guard held back. */
export type DeleteList = PlanList<PlannedDelete>;
/** A plan's listings in grace. */
export type GraceList = PlanList<GraceListing>;
/** A plan's held listings (`PlannedHeld`). */
export type HeldList = PlanList<HeldListing>;

/**
 * Where the changes of the listings that differ from the feed are kept, each list by a number: the
 * run's record store (a spill file), so a run that rewrites every listing (a mapping changed) holds
 * ~4 bytes a listing for them, not ~350 (its old and new values), which at a million listings
 * exhausted the heap. Read back when the plan asks (`changesAt`).
 */
export interface ChangeKeeper {
  put(changes: readonly FieldChange[]): number;
  get(ref: number): readonly FieldChange[];
}

export interface PlannedCreate {
  key: string;
  /** Where the feed's record (ownership tags included) is kept. */
  desired: StoreRef;
  /** What a plan and a report show of it; only on the first creates (`withBriefs`). */
  brief?: ListingBrief;
}

export interface PlannedUpdate {
  key: string;
  /** The platform's ID (`KeyType: NewOaks`). */
  id: number;
  desired: StoreRef;
  /** What a plan and a report show of it; only on the first updates (`withBriefs`). */
  brief?: ListingBrief;
  changes: readonly FieldChange[];
  /** True when the remote listing was not ours yet (a hand-added one whose key is in the feed). */
  adopt: boolean;
  /**
   * A field the feed stopped sending holds a value on the platform (`changes` clear it): the spec
   * has no value that clears a field, so the listing is created anew and then this one deleted.
   */
  replace?: true;
  /** A listing gone from the feed, marked Sold (`gone.action: markSold`): its own record, `Status: Sold`. */
  markSold?: true;
}

export interface PlannedDelete {
  key: string;
  id: number;
  reason: DeleteReason;
  /** A listing gone from the feed (or removed): the ISO time of the run that first found it so. */
  since?: string;
  /** A held-back action that was not a delete: marking the listing Sold. */
  action?: 'markSold';
}

/**
 * What a listing that leaves the feed becomes (`feeds[].gone`): deleted, or marked Sold once, after
 * `afterDays` of grace in which it is kept as it is.
 */
export interface GonePolicy {
  action: 'delete' | 'markSold';
  afterDays: number;
}

/** A listing gone from the feed that is kept for now (`gone.afterDays`), and until when. */
export interface GraceListing {
  key: string;
  id: number;
  reason: 'gone' | 'removed';
  /** ISO time of the run that first found it gone. */
  since: string;
  /** ISO time from which a run deletes it. */
  until: string;
  /** `markSold`: it is (or this run marks it) Sold meanwhile. */
  action: 'delete' | 'markSold';
}

/** A remote listing this feed does not own and leaves alone. */
export interface ForeignListing {
  id: number;
  key: string;
  /** The feed that owns it, when tagged by another feed. */
  owner?: string;
}

/** A feed listing that is neither created nor updated because a listing it does not own holds its key. */
export interface SkippedListing {
  key: string;
  id: number;
  reason: 'adopt-disabled' | 'owned-by-other-feed';
  owner?: string;
}

/**
 * A feed key whose record was rejected: its remote listings (`ids`, empty when it has none yet) are
 * left exactly as they are. Never written, never deleted, never counted as a delete by the guards.
 */
export interface HeldListing extends HeldKey {
  ids: number[];
}

export type GuardName =
  | 'source-failed'
  | 'empty-feed'
  | 'max-delete-share'
  | 'unkeyed-rejections'
  | 'adopt-from'
  | 'removed-by-feed'
  | 'unframed-body'
  | 'still-listed'
  | 'mass-replace'
  | 'platform-fills'
  | 'incremental'
  /** An override given for other held deletes than this run's (`SyncOptions.allowDeletes`). */
  | 'override-mismatch';

/** What a delete guard decided. `tripped` guards hold deletes back; `overridden` ones were waved through. */
export interface GuardDecision {
  guard: GuardName;
  tripped: boolean;
  overridden?: boolean;
  message: string;
  /**
   * What a tripped guard held, as one value (`keysDigest` of the keys) and a count: an override
   * given for it lets a later run through only when it holds the same (the dashboard's button).
   */
  held?: { digest: string; count: number };
}

/** Everything a run would do, as plain data: printing it is the dry run, applying it is a loop over it. */
export interface Plan {
  /**
   * What replaces cleared, for the next run (`PlanPolicy.clearedBefore`, with the run's own
   * replaces added): the listings holding again a value a replace cleared (the platform fills it:
   * not replaced again), and earlier notes the feed still leaves unset. Key → fields; absent when none.
   */
  clearedNotes?: Record<string, string[]>;
  /**
   * The keys of listings a run created whose record leaves unset coordinates the feed sets on others
   * (`GEOCODED_FIELDS`), for the next run (`PlanPolicy.createdUnset`): this run's creates, then the
   * earlier notes of keys whose listing the platform has not filled yet and whose record still leaves
   * them unset. Absent when none.
   */
  createdUnset?: string[];
  feedId: string;
  chatbot: string;
  keyField: 'MLSNumber' | 'Url';
  mode: 'full' | 'incremental';
  /**
   * The fields a value the platform holds is cleared in where the feed's listing leaves them unset
   * (`DesiredIndex.clearable`; bit i for `RETURNED_FIELDS[i]`; under `unsetFields: keep`, only the
   * marker fields the feed sets). An update sends an unknown marker 0 only in these: elsewhere the
   * feed never gives the field, and a value the platform holds there (typed in by an office) stays.
   * Absent (a plan made by hand): every marker is sent.
   */
  clearable?: number;
  /** In key order (`PlannedCreates`: a record number a create, not an object). */
  creates: CreateList;
  /** In key order, then ID (`PlannedUpdates`: columns, each update's changes read when asked). */
  updates: UpdateList;
  /** In key order, then ID (`PlannedDeletes`: numbers into columns, not an object a delete). */
  deletes: DeleteList;
  /** Deletes a guard held back: reported, never applied. In key order, then ID. */
  heldDeletes: DeleteList;
  /** Keys whose listing needs no write, in key order (`UnchangedKeys`: not a string per key). */
  unchanged: KeyList;
  /** Keys whose feed record was rejected, or that appear in a broken row: their listings are kept as they are. */
  held: HeldList;
  /** Listings gone from the feed, kept until their grace ends (`gone.afterDays`). */
  grace: GraceList;
  /**
   * The grace clock this run leaves (`FeedState.goneSince`), as if none of its deletes were done:
   * the run drops the keys it deleted. Empty when the feed's `gone` policy needs no clock.
   */
  goneSince: Record<string, string>;
  /** Remote listings not the feed's, left alone, in key order, then ID (`PlannedForeign`). */
  foreign: PlanList<ForeignListing>;
  /** The feed's listings whose key another owner holds, in key order, then ID (`PlannedSkipped`). */
  skipped: PlanList<SkippedListing>;
  guards: GuardDecision[];
  /** Listings this feed owned on the remote before the run (the base of `maxDeleteShare`). */
  ownedCount: number;
  /**
   * Removals the feed states (a DELETE action, a withdrawn status) whose key a listing of another
   * owner holds: left to that owner. How many, and the owners (`''`: an untagged listing).
   */
  removalsElsewhere?: { count: number; owners: string[] };
}

/** What the plan needs to know about the feed and the run. */
export interface PlanPolicy {
  /**
   * The fields the last run's replaces cleared, and the ones the platform filled again since, by
   * key (`FeedState.cleared`): a listing holding one again is not replaced again.
   */
  clearedBefore?: Readonly<Record<string, readonly string[]>>;
  /**
   * The keys of listings a run created without coordinates the feed sets on others
   * (`FeedState.createdUnset`): one holding them now had them filled by the platform (a geocoder).
   */
  createdUnset?: readonly string[];
  /** A value the feed stops sending: cleared (default) or kept on the platform (`feeds[].unsetFields`). */
  unsetFields?: 'clear' | 'keep';
  /**
   * The fields the whole feed sets on some listing (a mask, bit i for `RETURNED_FIELDS[i]`), where
   * the plan sees only part of it (`explain`'s plan of one key): the fields a value is cleared in.
   */
  fieldsSet?: number;
  feedId: string;
  chatbot: string;
  keyField: 'MLSNumber' | 'Url';
  /** ExtensionColumn key naming the owning feed (`config.ownerKey`). */
  ownerKey: string;
  /** ExtensionColumn key holding the hash of the desired record. Default `feed-sync:hash`. */
  hashKey?: string;
  ownership: 'tagged' | 'all';
  adopt: boolean;
  /** Former ids of the feed: listings they tag are its own, and are retagged (`RunFeedSpec.adoptFrom`). */
  adoptFrom?: readonly string[];
  maxDeleteShare: number;
  allowMassDelete?: boolean;
  /** Replaces past `maxDeleteShare` let through (guard `mass-replace`), deletes still guarded. */
  allowMassReplace?: boolean;
  /** `allowMassDelete` for the deletes alone: the replaces stay guarded (an override for held deletes). */
  allowDeletesOnly?: boolean;
  /** Incremental feeds only list changes: a listing missing from them is not gone. */
  mode: 'full' | 'incremental';
  /** Keys whose feed status says the listing is removed. */
  removals?: readonly string[];
  /**
   * Keys the feed lists without sending their records this run (a RESO key sweep). A full plan
   * keeps their listings as they are; only listings neither sent nor listed are gone.
   */
  present?: { readonly size: number; has(key: string): boolean };
  /** Keys whose last feed record was rejected: their listings are held, never written or deleted. */
  held?: HeldKeyList;
  /**
   * Rejected records whose key could not be read. They hold nothing; but when they are more than
   * `maxDeleteShare` of the records read (`recordsRead`), the feed is not trusted to say what is gone,
   * and its `gone` deletes are held (overridden like `maxDeleteShare`).
   */
  unkeyedRejections?: number;
  /** Records read from the feed: the base of the `unkeyedRejections` share. */
  recordsRead?: number;
  /** Records whose fields do not fit the header: a listing whose key appears in one is held. */
  brokenRows?: readonly BrokenRow[];
  /** Broken rows beyond what a run keeps: any listing could be one, so no `gone` delete is made. */
  brokenRowsOmitted?: number;
  /** A CSV read to a connection's close: its end unverifiable, its `gone` deletes weighed by `unframed-body`. */
  unframed?: boolean;
  /** What a listing that leaves the feed becomes. Default: deleted at once. */
  gone?: GonePolicy;
  /** The grace clock of earlier runs (`FeedState.goneSince`). */
  goneSince?: Readonly<Record<string, string>>;
  /** The run's clock (ms since the epoch), for the grace; required when `gone` keeps listings. */
  now?: number;
  /** The source failed: nothing may be deleted. */
  sourceFailed?: boolean;
}
