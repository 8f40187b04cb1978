/**
 * Reconcile: snapshot the chatbot's listings (I/O), plan the changes (pure), apply them (I/O),
 * and report. `syncFeed` is the whole run; the worker and the CLI call it.
 */
export { type ApplyOptions, type ApplyResult, applyPlan } from './apply.ts';
export { diffListing, sameValue } from './compare.ts';
export { type Ingest, type IngestResult, ingestResultOf } from './ingest-contract.ts';
export { DEFAULT_HASH_KEY, ownerOf, recordHash, withTags } from './ownership.ts';
export { keyOf, makePlan } from './plan.ts';
export type {
  DeleteReason,
  FieldChange,
  ForeignListing,
  GuardDecision,
  GuardName,
  Plan,
  PlannedCreate,
  PlannedDelete,
  PlannedUpdate,
  PlanPolicy,
  SkippedListing,
} from './plan-types.ts';
export { renderPlan, summarizePlan } from './render-plan.ts';
export { renderReport } from './render-report.ts';
export type { Failure, NotApplied, RunOutcome, RunReport } from './report-types.ts';
export { readSnapshot, type Snapshot, SnapshotError, type SnapshotOptions } from './snapshot.ts';
export { policyOf, type SyncDeps, type SyncOptions, type SyncPhase, syncFeed } from './sync.ts';
