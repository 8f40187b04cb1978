import type { Queue } from 'bullmq';
import type { PlatformClient } from '../src/api/index.ts';
import type { Config } from '../src/config/index.ts';
import type { Logger } from '../src/logger.ts';
import type { RunFeed, RunReport } from '../src/reconcile/index.ts';
import type { StateStore } from '../src/state/index.ts';
import type { MemoryGate } from './memory-gate.ts';

/** What every processor gets from the worker. */
export interface JobContext {
  /** The running config; replaced on reload, so read it at the start of each job. */
  getConfig(): Config;
  client: PlatformClient;
  state: StateStore;
  logger: Logger;
  queue: Queue;
  sync: RunFeed;
  /** Aborted when the worker is shutting down and the grace period is over. */
  shutdownSignal: AbortSignal;
  /** True from the first SIGTERM/SIGINT on. */
  isShuttingDown(): boolean;
  /** Hold back the whole worker for `ms` (a 429 with Retry-After). */
  rateLimit(ms: number): Promise<void>;
  /** Runs pass it before they start (`worker.maxHeapShare`); none: they start at once. */
  gate?: MemoryGate;
  /**
   * Take each feed's run lock (`.feed-sync-locks/<feed>.lock` beside the config's `stateFile`) for
   * the run, as `feed-sync sync` does, so a sync by hand and the worker's run of a feed never
   * overlap: the one that finds it held is skipped. The `worker` and `start` commands set it.
   */
  runLocks?: boolean;
  /** Called with every finished run report (metrics, alerts). Errors are logged, never thrown. */
  onReport?: (report: RunReport) => Promise<void>;
}
