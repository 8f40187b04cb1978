/**
 * Reconcile: snapshot the chatbot's listings (I/O), plan the changes (pure), apply them (I/O),
 * and report. `syncFeed` is the whole run (prepareRun → applyPlan → reportOf); the worker, the CLI
 * and the UI call it and save its result with `saveRun`.
 */

export { type ApplyOptions, type ApplyResult, applyPlan } from './apply.ts';
export { containsWord } from './broken-rows.ts';
export type { ListingChange } from './changes-of.ts';
export { clearsAny, diffListing, isClear, isHashTag, leavesUnset, sameValue } from './compare.ts';
export { zeroCalls } from './counting-client.ts';
export type { DesiredLoader, ListingBrief } from './desired.ts';
export { fieldMask, mappedPricesMask, maskOfFields } from './digest.ts';
export { codeStamp, memoFiles, scopedMemo } from './memo-files.ts';
export { DEFAULT_HASH_KEY, ownerOf, recordHash, type TagKeys, withTags } from './ownership.ts';
export { PAGE_MEMO_BYTES_PER_LISTING, PAGE_MEMO_REUSED_MAX_BYTES } from './page-memo.ts';
export { GEOCODED_FIELDS, keyOf } from './plan.ts';
export { type FeedSide, type KeyPolicy, planKey } from './plan-key.ts';
export { type ListingsPlan, planListings } from './plan-listings.ts';
export type {
  DeleteReason,
  FieldChange,
  ForeignListing,
  GonePolicy,
  GraceListing,
  GuardDecision,
  GuardName,
  HeldListing,
  Plan,
  PlannedCreate,
  PlannedDelete,
  PlannedUpdate,
  PlanPolicy,
  SkippedListing,
} from './plan-types.ts';
export { type CreateList, createsKey, PlannedCreates } from './planned-creates.ts';
export { PlannedUpdates, type UpdateList, updateCounts } from './planned-updates.ts';
export { createdUnsetKeys, maySkipUnchanged, policyOf, prepareRun } from './prepare-run.ts';
export { type RecordStore, spillRecords } from './record-store.ts';
export {
  emptyReport,
  goesOnNow,
  type OutcomeLabel,
  outcomeLabel,
  outcomeOf,
  ownedAfter,
  type ReportMeta,
  reportOf,
} from './report.ts';
export {
  type Failure,
  failedCountOf,
  type NotApplied,
  notAppliedCounts,
  type RunOutcome,
  type RunPhases,
  type RunReport,
  skippedCountOf,
} from './report-types.ts';
export type { RunConfig, RunFeedSpec } from './run-config.ts';
export type { MemoSink, MemoStore } from './run-memo.ts';
export type {
  IngestSummary,
  PreparedRun,
  RunProgress,
  RunResult,
  RunTrigger,
  SnapshotSummary,
  StateReader,
  SyncDeps,
  SyncOptions,
  SyncPhase,
} from './run-types.ts';
export { SYNC_PHASES } from './run-types.ts';
export { readSnapshot, type Snapshot, SnapshotError, type SnapshotOptions } from './snapshot.ts';
export { type PlannedRun, planRun, type RunFeed, runAndSave, saveRun, stateOf, syncFeed } from './sync.ts';
