import type { RunReport } from '../reconcile/report-types.ts';
import type { RunEvent, RunResult, SyncDeps, SyncOptions } from '../reconcile/run-types.ts';
import type { syncFeed } from '../reconcile/sync.ts';

export type { RunReport, RunResult, SyncDeps, SyncOptions };

/** Where a run is: the phase (fetching, normalizing, snapshot, planning, applying) and its percent. */
export type SyncProgress = Omit<Extract<RunEvent, { type: 'progress' }>, 'type'>;

/**
 * The run a `sync-feed` job does: `syncFeed` of src/reconcile, the same run as `feed-sync sync`.
 * Injected, so queue tests can run the job mechanics with a stand-in.
 */
export type SyncFeed = typeof syncFeed;
