import type { PlatformClient } from '../api/index.ts';
import type { Config, FeedConfig } from '../config/schema.ts';
import type { Logger } from '../logger.ts';
import type { RunReport } from '../reconcile/report-types.ts';
import type { StateStore } from '../state/state-store.ts';

export type { RunReport };

/** Where a run is: the phase (fetching, normalizing, snapshot, applying) and its percent. */
export interface SyncProgress {
  phase: string;
  percent: number;
  detail?: string;
}

export interface SyncDeps {
  client: PlatformClient;
  state: StateStore;
  logger: Logger;
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
}

export interface SyncOptions {
  dryRun?: boolean;
  allowMassDelete?: boolean;
  forceFull?: boolean;
}

/** The contract of `syncFeed` in src/reconcile: the same run `feed-sync sync` does. */
export type SyncFeed = (
  config: Config,
  feed: FeedConfig,
  deps: SyncDeps,
  options?: SyncOptions,
) => Promise<RunReport>;
