import type { RunEvent, syncFeed } from '../reconcile/index.ts';

/** Where a run is: the phase (fetching, normalizing, snapshot, planning, applying) and its percent. */
export type SyncProgress = Omit<Extract<RunEvent, { type: 'progress' }>, 'type'>;

/**
 * The run a `sync-feed` job does: `syncFeed` of src/reconcile, the same run as `feed-sync sync`.
 * Injected, so queue tests can run the job mechanics with a stand-in.
 */
export type SyncFeed = typeof syncFeed;
