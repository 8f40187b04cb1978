import type { Queue, Worker } from 'bullmq';
import type { CallEvent } from '../api/index.ts';
import type { Config } from '../config/index.ts';
import type { RunReport } from '../reconcile/index.ts';
import type { StateStore } from '../state/index.ts';
import type { QueueStore } from './store.ts';

/**
 * The running worker as the rest of src/ sees it (the UI, the CLI): its queue, health and
 * schedulers. The service itself, which runs the processors of jobs/, is jobs/worker-service.ts;
 * the type lives here so that src/ never imports jobs/.
 */

/** What the service records runs and calls into (the UI's Prometheus metrics in production). */
export interface RunMetrics {
  recordRun(report: RunReport): void;
  recordCall(event: CallEvent): void;
}

/** Schedulers as the service last saw them: those missing now, the last ones it re-created. */
export interface SchedulerStatus {
  missing: string[];
  restored: { ids: string[]; at: string } | undefined;
}

export interface WorkerService {
  readonly queue: Queue;
  readonly worker: Worker | undefined;
  readonly state: StateStore;
  /** Which backend and where (never a password). */
  readonly store: Pick<QueueStore, 'kind' | 'where' | 'shared' | 'createQueueEvents'>;
  readonly prefix: string;
  config(): Config;
  /** Apply a new config: schedulers, settings pushes, client limits. */
  applyConfig(next: Config): Promise<void>;
  /** Re-create schedulers the queue lost (or someone removed); returns their ids. */
  checkSchedulers(): Promise<string[]>;
  schedulers(): SchedulerStatus;
  /** The store answers, the worker takes jobs and every scheduler the config asks for exists. */
  healthy(): Promise<{ ok: boolean; store: boolean; worker: boolean; missingSchedulers: string[] }>;
  /** Stop taking jobs, let the running ones stop (aborted after the grace period), close the store. */
  close(): Promise<void>;
  /**
   * Stop the running jobs now, as the grace period's end does: each run ends `cancelled` with its
   * report saved (a second Ctrl-C). `close` still finishes the rest.
   */
  stopNow(): void;
  /** The config file's last change, when it was refused (the running config stays); undefined once one is applied. */
  configRefused?(): ConfigRefusal | undefined;
  /** Notes the config file's change refused, or (undefined) one applied. */
  noteConfigRefused?(refusal: ConfigRefusal | undefined): void;
}

/** A config file change the worker refused: when, the file, and its problems, as the log says them. */
export interface ConfigRefusal {
  at: string;
  file: string;
  issues: string[];
}
