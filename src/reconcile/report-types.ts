import type { Operation } from '../api/index.ts';
import type { Rejection } from '../ingest/index.ts';
import type { MappingHint } from '../normalize/index.ts';
import type { ListingChange } from './changes-of.ts';
import type { GraceListing, GuardDecision, HeldListing } from './plan-types.ts';

/** How many rejections a report carries in full. */
export const REJECTIONS_KEPT = 20;

/** How many held keys a report carries in full (`held` is the full count). */
export const HELD_KEPT = 200;

/** One listing the run could not write, with what the platform said. */
export interface Failure {
  key: string;
  operation: Operation;
  /** The remote ID, for updates and deletes. */
  id?: number;
  /** Our stable error code (E_PLATFORM, E_HTTP, E_TIMEOUT, E_NOT_FOUND…). */
  code: string;
  /** The platform's envelope `Code`, when it answered one. */
  platformCode?: number;
  /** The platform's envelope `Message`, when it answered one. */
  platformMessage?: string;
  /** The whole error, e.g. `update: platform answered Code 1003: …` or `create: no answer within 30000 ms`. */
  message: string;
}

/** Keys of the planned writes a cancelled run did not issue. */
export interface NotApplied {
  creates: string[];
  updates: string[];
  deletes: string[];
  /**
   * How many of each there were, when the lists hold only the first `NOT_APPLIED_KEPT` of them (a
   * report is saved with the feed's state and its history: a run stopped before a million creates
   * does not save a million keys).
   */
  counts?: { creates: number; updates: number; deletes: number };
}

/** Keys a report lists of each kind of write not applied. */
export const NOT_APPLIED_KEPT = 1000;
/** Skipped feed listings a report lists (`skipped`, in key order); `skippedCount` counts them all. */
export const SKIPPED_KEPT = 1000;

/**
 * `paused`: the source stopped before the end of the feed because its provider's request budget is
 * spent (RESO); what it read is written, nothing is deleted for being absent, and the next run goes
 * on from there at `resumesAt`. Not a failure: no alert.
 */
export type RunOutcome = 'ok' | 'failed' | 'guarded' | 'skipped' | 'cancelled' | 'paused';

/**
 * Where a run's time went, ms, by a monotonic clock. `feedMs`: reading the feed (the chatbot's pages
 * are asked for meanwhile, once the feed gives its first records); `pagesMs`: the feed indexed by
 * key, then the pages still to read once it was, each compared with it; `planMs`: the plan;
 * `writesMs`: the creates, updates and deletes (0 for a dry run). `feedMs` starts with the feed's
 * state read; the rest of `durationMs` is a feed reading given up (`ReadingNeedsRecords`) and the
 * report.
 */
export interface RunPhases {
  feedMs: number;
  pagesMs: number;
  planMs: number;
  writesMs: number;
}

/** What a sync run did. Plain JSON: saved as the feed's `lastReport`, printed by `sync --json`. */
export interface RunReport {
  feedId: string;
  chatbot: string;
  /** ISO times. */
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Where the time went (`RunPhases`): a run that made its plan (absent from reports saved before it was). */
  phases?: RunPhases;
  outcome: RunOutcome;
  /** Why the run did not end `ok`. */
  reason?: string;
  /** `paused`: ISO time from which the provider's budget allows the run to go on. */
  resumesAt?: string;
  /** The source read part of a long replication and the next run goes on from its saved place (RESO `recordsPerRun`). */
  continues?: boolean;
  /** Where the source's replication stands (RESO): what was read, how far, the key sweep. */
  source?: string;
  /** Full feeds may delete what they no longer list; incremental ones only delete removals. */
  mode?: 'full' | 'incremental';
  /** Planned only: nothing was written. The counts are what a real run would do. */
  dryRun: boolean;
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
  /** Records read from the feed (0 when the feed was not read). */
  read: number;
  /**
   * Of the records read, those the record memo knew unchanged from the last run, so not mapped,
   * checked and digested again (src/ingest/record-memo.ts). Absent without a memo.
   */
  known?: number;
  /**
   * The SHA-256 of the feed's file when its bytes were those the last run read: that run's reading
   * of them (listings, rejections, holds) was reused, and no record was read or mapped
   * (src/reconcile/feed-reading.ts). Absent otherwise.
   */
  reusedReading?: string;
  /**
   * With `reusedReading`: the plan wrote listings whose changes it knew, so the file's records were
   * read for them, each checked against the reading (the pages and the plan kept).
   */
  reusedReadingRecordsRead?: true;
  /**
   * Records whose key an earlier record of the feed had: the last of each key is kept, so `read`
   * counts them and no write does (absent from reports saved before it was).
   */
  duplicates?: number;
  /**
   * Keys whose record says the listing left the market (withdrawn or expired status, `MlgCanView:
   * false`, a deletion marker): read, not listings; their listings are deleted (absent when none,
   * and from reports saved before it was counted).
   */
  removals?: number;
  /** Feed records rejected by validation (see `rejections`). */
  rejected: number;
  /**
   * Keys whose feed record was rejected: their listings are held, left exactly as they are on the
   * platform (see `heldKeys`). Counted apart from deletes: a bad cell never costs a listing.
   */
  held: number;
  /** Of the held keys, those with a listing on the platform (absent from reports saved before it was). */
  heldOnPlatform?: number;
  /** The first `HELD_KEPT` held keys, with the remote IDs they keep and why their record was rejected. */
  heldKeys: HeldListing[];
  /** The next part reads the feed in full, to restore listings gone from the platform (`continues` too). */
  fullReadDue?: boolean;
  /** The feed is a provider's API (RESO): its repeated keys are records that moved while it was read. */
  fromProvider?: boolean;
  /** Removals the feed stated for listings another owner holds: left to it (`Plan.removalsElsewhere`). */
  removalsElsewhere?: { count: number; owners: string[] };
  /** The feed's listings on the platform before the run's writes (the plan's `ownedCount`; absent before it was kept). */
  ownedBefore?: number;
  /** Rejected records whose key could not be read: they hold nothing (see `rejections`). */
  rejectedWithoutKey: number;
  /**
   * Rows (CSV; lines for XML/JSON) that were not valid UTF-8 and were read as Windows-1252, decided
   * row by row (`encoding: auto`), never for the whole file. The first 100; `decodedAs1252Count` is all.
   */
  decodedAs1252: number[];
  decodedAs1252Count: number;
  /**
   * Per listing field, how many of the feed's listings carry the unknown marker (0: the feed had no
   * value, see docs/feeds.md), e.g. `{ YearBuilt: 120, LotArea: 31 }`. Tell the chatbot what 0 means.
   */
  unknownMarkers: Record<string, number>;
  /** Image URLs the feed gave that were dropped (not absolute http(s)). */
  droppedImages: number;
  /**
   * Said once about the feed's mapping, besides the rejections it explains: a CSV header with no
   * column recognized as the listing URL (`no_url_column`), and how to map one.
   */
  hints?: MappingHint[];
  /** Remote listings this feed does not own and left alone. */
  foreign: number;
  /** Hand-added listings whose key is in the feed, now owned by it (counted in `updated` too). */
  adopted: number;
  /**
   * Feed listings not written because another owner holds the key: the first `SKIPPED_KEPT` in
   * key order (a feed whose id was renamed finds every key its old id's), and how many in all
   * (`skippedCount`; a report saved before it lists them all: `skippedCountOf`).
   */
  skipped: { key: string; reason: string; id: number; owner?: string }[];
  skippedCount?: number;
  /**
   * Of those, the ones a feed id the config does not have tags (a renamed feed: `adoptFrom`, said in
   * `hints`): never written while skipped, so the run is partial.
   */
  skippedUnknownOwner?: number;
  /** Remote duplicates of one key deleted (counted in `deleted` too). */
  duplicatesDeleted: number;
  /** Deletes a guard held back. */
  heldDeletes: number;
  /** The first deletes a guard held back, by key: what `--allow-mass-delete` would delete (absent when none). */
  heldDeleteKeys?: { key: string; id: number; reason: string }[];
  /**
   * Every held delete's key as one value (`heldDeletesDigest`): an override given for it lets a
   * later run delete only these very listings (the dashboard's button). Absent when none was held.
   */
  heldDeletesDigest?: string;
  /** Listings gone from the feed marked Sold by this run (`gone.action: markSold`; counted in `updated` too). */
  markedSold: number;
  /**
   * Updates made as a replace, because a field the feed stopped sending held a value (created anew,
   * the old listing then deleted; counted in `updated` too). Absent from reports saved before it was.
   */
  replaced?: number;
  /** Listings gone from the feed kept for now (`gone.afterDays`): how many, and the first `HELD_KEPT`. */
  inGrace: number;
  graceKeys: GraceListing[];
  /** Creates whose outcome was ambiguous and that a lookup found already done. */
  ambiguousResolved: number;
  /** The first `FAILURES_KEPT` failed writes, in key order; `failedCount` counts them all. */
  failed: Failure[];
  /** Failed writes, all of them (absent from reports saved before it was: `failed.length` then). */
  failedCount?: number;
  guards: GuardDecision[];
  /** Logical calls per operation (a retried call counts once). */
  apiCalls: Record<Operation, number>;
  /**
   * Of those, the calls that failed once their retries were spent, and the attempts they made, per
   * operation (`list: { calls: 1, attempts: 5 }`): what the report says beside the count. Only the
   * failures whose attempts are known (a network error, a timeout).
   */
  apiCallsFailed?: Partial<Record<Operation, { calls: number; attempts: number }>>;
  notApplied?: NotApplied;
  /**
   * The first `REJECTIONS_KEPT` rejections, as ingestion reported them (each names the feed, row,
   * field and value). Capped so the report saved as `lastReport` stays small; `rejected` is the full
   * count and `feed-sync validate --feed ID` lists them all.
   */
  rejections: Rejection[];
  /** The remote list moved under the read. */
  drift: string[];
  /** The writes listing by listing (`changesOf(plan)`), at most `CHANGES_KEPT`; the dashboard shows them. */
  changes?: ListingChange[];
  /** Writes left out of `changes`. */
  changesOmitted?: number;
  /** What started the run (the worker's job data); absent for CLI runs. */
  trigger?: 'schedule' | 'manual' | 'config' | 'repair' | 'resume';
  snapshot?: {
    remoteCount: number;
    pages: number;
    pageSize: number;
    requestedPageSize: number;
    /** Pages the page memo knew by their bytes, not decoded again (`page-memo.ts`); absent without one. */
    pagesKnown?: number;
    /** Pages written to the run's spill file (`SnapshotSummary.pagesWritten`): none in a no-op. */
    pagesWritten?: number;
  };
}

/** How many writes of each kind were not applied, all of them (`counts` once the lists are cut). */
export function notAppliedCounts(n: NotApplied): { creates: number; updates: number; deletes: number } {
  return n.counts ?? { creates: n.creates.length, updates: n.updates.length, deletes: n.deletes.length };
}

/** Writes not applied, all of them counted. */
export function notAppliedCount(n: NotApplied): number {
  const { creates, updates, deletes } = notAppliedCounts(n);
  return creates + updates + deletes;
}

/**
 * The listings a run left unwritten, as its reason says it: `1460 listing(s) not written (1460
 * creates)`. Counted by listing, not by call: the platform deletes several listings a call.
 */
export function notAppliedText(n: NotApplied): string {
  const counts = notAppliedCounts(n);
  const kinds = (['creates', 'updates', 'deletes'] as const)
    .filter((kind) => counts[kind] > 0)
    .map((kind) => `${counts[kind]} ${counts[kind] === 1 ? kind.slice(0, -1) : kind}`);
  return `${notAppliedCount(n)} listing(s) not written${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''}`;
}

/** How many writes a run's report says failed, all of them. */
export function failedCountOf(report: Pick<RunReport, 'failed' | 'failedCount'>): number {
  return report.failedCount ?? report.failed.length;
}

/** Feed listings a run skipped because another owner holds their keys (`skipped` lists the first). */
export function skippedCountOf(report: Pick<RunReport, 'skipped' | 'skippedCount'>): number {
  return report.skippedCount ?? report.skipped.length;
}
