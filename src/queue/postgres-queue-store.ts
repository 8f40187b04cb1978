import {
  createPostgresBackend,
  type PgPool,
  type PostgresConnectionOptions,
  type PostgresPoolConfig,
  Queue,
  QueueEvents,
  Worker,
} from 'bullmq';
import pg from 'pg';
import { createPostgresIncidentStore } from '../alerts/index.ts';
import { createPostgresLimiter } from '../http/index.ts';
import type { HistoryOptions } from '../state/index.ts';
import { createPostgresStateStore, migrateStateSchema } from '../state/index.ts';
import { QUEUE_NAME } from './names.ts';
import type { SingleConnectionPool } from './single-connection-pool.ts';
import { type QueueStore, StoreUnavailableError } from './store.ts';

export interface PostgresStoreOptions {
  /** Connection settings for node-postgres: `connectionString`, or `host` (a socket folder) and `port`. */
  connection: pg.PoolConfig;
  /** Names the schemas: BullMQ's `<namespace>`, feed-sync's `<namespace>_state`. */
  namespace: string;
  kind: 'postgres' | 'embedded';
  where: string;
  /**
   * BullMQ's connection when the caller owns it (the embedded store's one shared connection, its
   * schema already migrated and on the search path). Default: BullMQ builds its pools from
   * `connection`, in the schema `<namespace>`, and migrates it.
   */
  bullConnection?: SingleConnectionPool;
  /** Run history retention (`worker.historyRuns`). */
  history?: HistoryOptions;
  /** Runs after the store's connections are closed (the embedded store stops its database here). */
  onClose?: () => Promise<void>;
}

/** Pool size of each BullMQ connection and of feed-sync's own. */
const POOL_MAX = 4;

/**
 * The Postgres store: BullMQ's Postgres backend for the queue (its schema migrated on connect),
 * and feed-sync's state, incidents and limiter in tables beside it. Throws `StoreUnavailableError`
 * (one line) when the server cannot be reached.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<QueueStore> {
  const { namespace } = options;
  const pool = new pg.Pool({ ...options.connection, max: POOL_MAX });
  pool.on('error', () => {
    // An idle connection dropped: the pool replaces it; health reports an outage.
  });
  try {
    await migrateStateSchema(pool, namespace);
  } catch (error) {
    await pool.end().catch(() => {});
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new StoreUnavailableError(`cannot reach Postgres at ${options.where}: ${reason}`, error);
  }
  // BullMQ builds its own pools from this (and closes them); `migrate` creates its schema once.
  // The shared pool has the shape of BullMQ's `PgPool` (a caller-owned pool, not closed by BullMQ).
  const connection: PostgresConnectionOptions = (options.bullConnection as unknown as PgPool | undefined) ?? {
    ...(options.connection as PostgresPoolConfig),
    schema: namespace,
    migrate: true,
    max: POOL_MAX,
  };

  return {
    kind: options.kind,
    where: options.where,
    shared: options.kind === 'postgres',
    state: createPostgresStateStore(pool, namespace, options.history),
    incidents: createPostgresIncidentStore(pool, namespace),
    createLimiter: (limits) => createPostgresLimiter(pool, { namespace, ...limits }),
    // The classes are BullMQ's own, bound to its Postgres backend; typed as the default ones so the
    // rest of the worker stays backend-blind (the public API is the same on both backends).
    createQueue: (queueOptions = {}) =>
      new Queue(QUEUE_NAME, { ...queueOptions, connection }, createPostgresBackend) as unknown as Queue,
    createWorker: (processor, tuning) =>
      new Worker(
        QUEUE_NAME,
        processor,
        { ...tuning, connection },
        createPostgresBackend,
      ) as unknown as Worker,
    createQueueEvents: () =>
      new QueueEvents(QUEUE_NAME, { connection }, createPostgresBackend) as unknown as QueueEvents,
    ping: () =>
      Promise.race([
        pool.query('SELECT 1').then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => setTimeout(resolve, 1000, false).unref()),
      ]),
    // A Postgres server keeps its tables across restarts; the periodic scheduler check covers the rest.
    onReconnect: () => {},
    async close() {
      await pool.end().catch(() => {});
      await options.onClose?.();
    },
  };
}
