import type { Processor, Queue, QueueEvents, QueueOptions, Worker, WorkerOptions } from 'bullmq';
import type { IncidentStore } from '../alerts/index.ts';
import { FeedSyncError } from '../errors.ts';
import type { Limiter, LimiterOptions } from '../http/index.ts';
import type { StateStore } from '../state/index.ts';

/**
 * Where the queue and everything the worker keeps live. Decided once, from the environment
 * (`storeChoiceOf`): Redis, a Postgres server, or the embedded PGlite in the state directory.
 */
export type StoreChoice =
  | { kind: 'redis'; url: string }
  | { kind: 'postgres'; url: string }
  | { kind: 'embedded'; dir: string };

/** Worker options the store does not decide (connection and namespace are the store's). */
export type WorkerTuning = Omit<WorkerOptions, 'connection' | 'prefix'>;

/**
 * The one thing that knows which backend runs. The rest of the worker gets a queue, a worker,
 * the shared limiter and the state from it, and never a Redis or Postgres connection.
 */
export interface QueueStore {
  readonly kind: StoreChoice['kind'];
  /** Where, for people: the URL without its password, or the folder. */
  readonly where: string;
  /** Several worker processes may share this store (false for the embedded one). */
  readonly shared: boolean;
  readonly state: StateStore;
  readonly incidents: IncidentStore;
  /** The limiter every worker on this store shares (`api.concurrency`, `api.requestsPerSecond`). */
  createLimiter(options: LimiterOptions): Limiter;
  createQueue(options?: Pick<QueueOptions, 'defaultJobOptions'>): Queue;
  createWorker(processor: Processor, options: WorkerTuning): Worker;
  /** The queue's events (progress, completion), for tests and tools. */
  createQueueEvents(): QueueEvents;
  /** The store answers. Never throws. */
  ping(): Promise<boolean>;
  /** Called when the connection comes back after a loss (a restarted Redis may have lost data). */
  onReconnect(listener: () => void): void;
  close(): Promise<void>;
}

/** The store cannot be reached or opened: one line naming it (never its password) and why. */
export class StoreUnavailableError extends FeedSyncError {
  constructor(message: string, cause?: unknown) {
    super(message, { kind: 'SERVICE_UNAVAILABLE', code: 'E_STORE', retryable: true, cause });
  }
}

/** A URL without its password, for logs and errors. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * The backend the environment asks for. Pure. `REDIS_URL` → Redis (the container's default);
 * else `DATABASE_URL` → that Postgres; else the embedded store in `<stateDir>/queue`.
 */
export function storeChoiceOf(
  env: { REDIS_URL?: string; DATABASE_URL?: string },
  stateDir: string,
): StoreChoice {
  if (env.REDIS_URL) return { kind: 'redis', url: env.REDIS_URL };
  if (env.DATABASE_URL) return { kind: 'postgres', url: env.DATABASE_URL };
  return { kind: 'embedded', dir: `${stateDir.replace(/\/+$/, '')}/queue` };
}

/** One line for the startup log: which backend, and where. */
export function describeStore(store: Pick<QueueStore, 'kind' | 'where'>): string {
  const names = { redis: 'Redis', postgres: 'Postgres', embedded: 'embedded PGlite' };
  return `${names[store.kind]} at ${store.where}`;
}
