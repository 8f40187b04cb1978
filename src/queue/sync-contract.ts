import type { RunReport } from '../reconcile/report-types.ts';
import type { SyncDeps, SyncOptions, syncFeed } from '../reconcile/sync.ts';

export type { RunReport, SyncDeps, SyncOptions };

/** Where a run is: the phase (fetching, normalizing, snapshot, planning, applying) and its percent. */
export type SyncProgress = Parameters<NonNullable<SyncDeps['onProgress']>>[0];

/**
 * The run a `sync-feed` job does: `syncFeed` of src/reconcile, the same run as `feed-sync sync`.
 * Injected, so queue tests can run the job mechanics with a stand-in.
 */
export type SyncFeed = typeof syncFeed;
