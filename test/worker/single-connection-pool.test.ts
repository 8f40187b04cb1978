import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleConnectionPool } from '../../src/queue/single-connection-pool.ts';

/** The adapter on its own, over PGlite's socket server, as the embedded store uses it. */
describe('singleConnectionPool over PGlite', () => {
  let dir: string;
  let db: PGlite;
  let server: PGLiteSocketServer;
  let client: pg.Client;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'feed-sync-pool-'));
    db = await PGlite.create();
    server = new PGLiteSocketServer({ db, path: join(dir, '.s.PGSQL.5432'), maxConnections: 8 });
    await server.start();
    client = new pg.Client({ host: dir, port: 5432, user: 'postgres', database: 'postgres' });
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    await client.end();
    await server.stop();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a NOTIFY sent through the pool reaches a lease that LISTENs (it would not across connections)', async () => {
    const pool = singleConnectionPool(client);
    const listener = await pool.connect();
    const heard: string[] = [];
    listener.on('notification', (message: { channel: string; payload?: string }) =>
      heard.push(`${message.channel}:${message.payload}`),
    );
    await listener.query('LISTEN jobs');
    await pool.query(`NOTIFY jobs, 'q1'`);
    // The same through a second connection of the socket server: the listener never hears it.
    const other = new pg.Client({ host: dir, port: 5432, user: 'postgres', database: 'postgres' });
    await other.connect();
    await other.query(`NOTIFY jobs, 'elsewhere'`);
    await other.end();
    await pool.query('SELECT 1');
    expect(heard).toEqual(['jobs:q1']);
    listener.release();
  });

  it("a lease's listeners are its own: removing them leaves the others' and the client's", async () => {
    const pool = singleConnectionPool(client);
    const a = await pool.connect();
    const b = await pool.connect();
    const heardA: string[] = [];
    const heardB: string[] = [];
    a.on('notification', (m: { payload?: string }) => heardA.push(m.payload ?? ''));
    b.on('notification', (m: { payload?: string }) => heardB.push(m.payload ?? ''));
    await a.query('LISTEN ch');
    const before = (client as unknown as NodeJS.EventEmitter).listenerCount('notification');
    a.removeAllListeners();
    expect((client as unknown as NodeJS.EventEmitter).listenerCount('notification')).toBe(before - 1);
    await pool.query(`NOTIFY ch, 'x'`);
    expect(heardA).toEqual([]);
    expect(heardB).toEqual(['x']);
    b.removeAllListeners('notification');
    // Releasing or ending does not close the caller's client.
    a.release(true);
    await pool.end();
    expect((await client.query('SELECT 2 AS n')).rows).toEqual([{ n: 2 }]);
  });

  it('queries issued at once run one after another: the client never queues one (pg 9 drops that queue)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const pool = singleConnectionPool(client);
      const lease = await pool.connect();
      // As BullMQ's worker and queue do on the one shared connection: several queries in flight.
      const results = await Promise.all([
        pool.query('SELECT 1 AS n'),
        lease.query('SELECT 2 AS n'),
        pool.query('SELECT $1::int AS n', [3]),
        pool.query('SELECT nope').catch((error: Error) => ({ rows: [{ n: error.message }] })),
        lease.query('SELECT 5 AS n'),
      ]);
      // In order; a failed one does not stop the ones after it.
      expect(results.map((r) => r.rows[0]?.n)).toEqual([1, 2, 3, 'column "nope" does not exist', 5]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.includes('already executing a query'))).toEqual([]);
  });
});
