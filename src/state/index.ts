export { type HeldLock, type LockAttempt, type LockOwner, tryLock, waitForLock } from './file-lock.ts';
export { assertStateWritable, createFileStateStore, realStatePath } from './file-store.ts';
export { migrateStateSchema, namespaceOf, type Queryable, stateSchemaOf } from './postgres-schema.ts';
export { createPostgresStateStore } from './postgres-store.ts';
export { createRedisStateStore } from './redis-store.ts';
export { DEFAULT_HISTORY_RUNS, type HistoryOptions, type RunRecord } from './run-history.ts';
export { heldReason, lockFeedRun, lockPathOf, RUN_LOCK_STALE_MS, takeRunLock } from './run-lock.ts';
export { createMemoryStateStore, type FeedState, mergeFeedState, type StateStore } from './state-store.ts';
export {
  FROM_STATE_FILE,
  isFromStateFile,
  readsWithCliHistory,
  type StateReads,
  withCliHistory,
} from './with-cli-history.ts';
