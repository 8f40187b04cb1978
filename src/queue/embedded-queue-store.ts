import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { runMigrations } from 'bullmq';
import pg from 'pg';
import type { HistoryOptions } from '../state/index.ts';
import { openPostgresStore } from './postgres-queue-store.ts';
import { singleConnectionPool } from './single-connection-pool.ts';
import type { QueueStore } from './store.ts';
import { lockStore } from './store-lock.ts';

/** Unix socket paths are limited to ~107 bytes; past that the server listens on loopback TCP. */
const MAX_SOCKET_PATH = 100;

/** BullMQ's schema in the embedded database (its default: the database is feed-sync's alone). */
const BULLMQ_SCHEMA = 'bullmq';

/**
 * The embedded store: PGlite (Postgres compiled to WebAssembly, inside this process) with its data
 * in `dir`, served to node-postgres by PGlite's own socket server on a Unix socket in that folder,
 * and from there the same Postgres store as with DATABASE_URL. One process per folder (a lock
 * file with the pid); a second worker is refused with one line.
 *
 * PGlite is one Postgres session that the socket server shares between connections: BullMQ's
 * classes share one connection (`singleConnectionPool`) so its NOTIFYs reach its LISTENs;
 * feed-sync's own tables use a pool of their own.
 */
export async function openEmbeddedStore(
  dir: string,
  namespace: string,
  history: HistoryOptions = {},
): Promise<QueueStore> {
  const folder = resolve(dir);
  const unlock = await lockStore(folder);
  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  try {
    db = await PGlite.create(join(folder, 'pgdata'));
    // One session for every connection: the search path set here is every connection's, and it
    // points BullMQ's unqualified names at its schema (startup options are not read by PGlite).
    await db.exec(`SET search_path TO ${BULLMQ_SCHEMA}`);
    const socket = join(folder, '.s.PGSQL.5432');
    const useSocket = socket.length <= MAX_SOCKET_PATH;
    // A socket file left by a killed process; ours now that we hold the lock.
    if (useSocket) await rm(socket, { force: true });
    server = new PGLiteSocketServer({
      db,
      ...(useSocket ? { path: socket } : { host: '127.0.0.1', port: 0 }),
      maxConnections: 64,
    });
    await server.start();
    const [host, port] = useSocket ? [folder, 5432] : server.getServerConn().split(':');
    const connection = { host: String(host), port: Number(port), user: 'postgres', database: 'postgres' };
    const shared = new pg.Client(connection);
    shared.on('error', () => {
      // Only at shutdown (the server stops under it); BullMQ reports its own errors.
    });
    await shared.connect();
    // BullMQ's migrations before the connection is shared: they are a transaction.
    await runMigrations(shared, BULLMQ_SCHEMA);
    const running = { db, server, shared };
    return await openPostgresStore({
      connection,
      bullConnection: singleConnectionPool(shared),
      namespace,
      kind: 'embedded',
      where: folder,
      history,
      onClose: async () => {
        await running.shared.end().catch(() => {});
        await running.server.stop();
        await running.db.close();
        await unlock();
      },
    });
  } catch (error) {
    await server?.stop().catch(() => {});
    await db?.close().catch(() => {});
    await unlock();
    throw error;
  }
}
