import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import {
  createPostgresStateStore,
  type HistoryOptions,
  type Queryable,
  type StateStore,
} from '../state/index.ts';
import { lockStore, StoreLockedError } from './store-lock.ts';

/** The worker's state, read by another process: the grace clocks and the run history. */
export interface StateReader {
  state: Pick<StateStore, 'getFeed' | 'listRuns'>;
  /** Where, in words: `the worker's store (embedded PGlite at …, …)`. */
  from: string;
  close(): Promise<void>;
}

/**
 * The worker's embedded store (`<stateDir>/queue`), read from another process (`feed-sync
 * explain`), so it shows what the worker and its dashboard show. Undefined when the folder holds no
 * store (no worker ever ran there). Reads only.
 *
 * PGlite is one process's database. With no worker running, the store is opened here under its
 * lock, PGlite alone (no socket server, no queue), and closed after. With a worker running, the
 * store is read through the worker's own socket server in the folder (owner only; the worker's pool
 * connects the same way): PGlite's multiplexer runs one query at a time and keeps a session's
 * transaction whole, so a read never lands inside the worker's writes. A worker whose socket is not
 * in the folder (a path too long for a Unix socket: loopback TCP on a port it keeps to itself), or
 * a lock held on another machine: `StoreLockedError`, the caller says where it read instead.
 */
export async function readEmbeddedState(
  dir: string,
  namespace: string,
  history: HistoryOptions = {},
): Promise<StateReader | undefined> {
  const folder = resolve(dir);
  if (!existsSync(join(folder, 'pgdata'))) return undefined;
  let unlock: () => Promise<void>;
  try {
    unlock = await lockStore(folder);
  } catch (error) {
    if (!(error instanceof StoreLockedError)) throw error;
    return throughWorker(folder, namespace, history, error);
  }
  try {
    const db = await PGlite.create(join(folder, 'pgdata'));
    return {
      state: createPostgresStateStore(db as unknown as Queryable, namespace, history),
      from: `the worker's store (embedded PGlite at ${folder}; no worker running)`,
      async close() {
        await db.close();
        await unlock();
      },
    };
  } catch (error) {
    await unlock();
    throw error;
  }
}

async function throughWorker(
  folder: string,
  namespace: string,
  history: HistoryOptions,
  locked: StoreLockedError,
): Promise<StateReader> {
  if (!existsSync(join(folder, '.s.PGSQL.5432'))) throw locked;
  const client = new pg.Client({ host: folder, port: 5432, user: 'postgres', database: 'postgres' });
  client.on('error', () => {
    // The worker stopped under the read: the query that was waiting fails and says so.
  });
  try {
    await client.connect();
  } catch {
    await client.end().catch(() => {});
    throw locked;
  }
  return {
    state: createPostgresStateStore(client, namespace, history),
    from: `the worker's store (embedded PGlite at ${folder}, read through the running worker)`,
    close: () => client.end().catch(() => {}),
  };
}
