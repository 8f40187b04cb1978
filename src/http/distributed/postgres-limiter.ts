import { type Queryable, stateSchemaOf } from '../../state/index.ts';
import { AIMD_TTL_MS, aimdStateOf } from '../aimd.ts';
import type { Limiter } from '../limiter.ts';
import {
  createSharedLimiter,
  type SharedLimiterOptions,
  type SlotStore,
  type StoredAimd,
} from './shared-limiter.ts';

export interface PostgresLimiterOptions extends SharedLimiterOptions {
  /** The namespace of the store (`<namespace>_state` holds the limiter's tables). */
  namespace: string;
}

/** The server's clock in ms, as every limiter statement reads it. */
const NOW_MS = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

/**
 * The Redis limiter's twin on Postgres: `concurrency` in flight and `requestsPerSecond` started per
 * second hold for every worker on the same database. Slots are leases with an expiry, taken in
 * one statement (`limiter_take`, under an advisory lock, on the server's clock) and renewed
 * while the call runs, so a crashed worker cannot leak one.
 *
 * The adaptive (AIMD) limit is one row of the same store (`limiter_aimd`): a 429 seen by one worker
 * halves the requests in flight of all of them, and every worker's successes raise it again. Each
 * answer is one step of the pure controller (src/http/aimd.ts) applied by compare-and-set: read
 * the row (for a success below full concurrency, in the statement that frees the slot), compute,
 * write it only if its version is still the one read. The rules and the waiting are
 * `createSharedLimiter`'s (shared-limiter.ts); here are only the statements. Every statement stands
 * alone (no BEGIN … COMMIT across round trips): the embedded store's connections share one PGlite
 * session, whose socket server serves only the connection in a transaction until it ends, so a
 * transaction over several round trips would hold every other query (BullMQ's too) that long.
 */
export function createPostgresLimiter(db: Queryable, options: PostgresLimiterOptions): Limiter {
  const s = stateSchemaOf(options.namespace);
  const leaseMs = options.leaseMs ?? 15_000;
  const rps = options.requestsPerSecond ? Math.max(1, Math.floor(options.requestsPerSecond)) : 0;
  const AIMD_COLUMNS = `state, version, touched_ms > ${NOW_MS} - $1 AS fresh`;
  type AimdRow = { state: unknown; version: string; fresh: boolean };
  /** A row past its time to live is forgotten, as an expired Redis key is; the token is its version. */
  const stored = (row: AimdRow | undefined): StoredAimd => ({
    state: row?.fresh ? aimdStateOf(row.state) : undefined,
    token: row?.version,
  });

  const store: SlotStore = {
    async take(lease) {
      type Row = { wait: string | number; lim: number; gen: string | number; recent: number; rate: number };
      const { rows } = await db.query<Row>(
        `SELECT wait, lim, gen, recent, rate FROM ${s}.limiter_take_paced($1, $2, $3, $4, $5)`,
        [lease, options.concurrency, rps, leaseMs, AIMD_TTL_MS],
      );
      const row = rows[0];
      return {
        wait: Number(row?.wait ?? -1),
        limit: Number(row?.lim),
        generation: Number(row?.gen),
        recent: Number(row?.recent ?? 0),
        rate: Number(row?.rate ?? 0),
      };
    },
    release: (lease) => db.query(`DELETE FROM ${s}.limiter_lease WHERE lease = $1`, [lease]),
    async releaseAndRead(lease) {
      // A data-modifying WITH runs to completion whether or not the query reads it.
      const { rows } = await db.query<AimdRow>(
        `WITH freed AS (DELETE FROM ${s}.limiter_lease WHERE lease = $2)
         SELECT ${AIMD_COLUMNS} FROM ${s}.limiter_aimd WHERE id = 1`,
        [AIMD_TTL_MS, lease],
      );
      return stored(rows[0]);
    },
    async read() {
      const { rows } = await db.query<AimdRow>(`SELECT ${AIMD_COLUMNS} FROM ${s}.limiter_aimd WHERE id = 1`, [
        AIMD_TTL_MS,
      ]);
      return stored(rows[0]);
    },
    async write(read, next) {
      const text = JSON.stringify(next);
      const written =
        read.token !== undefined
          ? await db.query(
              `UPDATE ${s}.limiter_aimd SET state = $1::jsonb, version = version + 1, touched_ms = ${NOW_MS}
               WHERE id = 1 AND version = $2`,
              [text, read.token],
            )
          : await db.query(
              `INSERT INTO ${s}.limiter_aimd VALUES (1, $1::jsonb, 1, ${NOW_MS}) ON CONFLICT (id) DO NOTHING`,
              [text],
            );
      return written.rowCount === 1;
    },
    renew: (lease) =>
      db.query(`UPDATE ${s}.limiter_lease SET expires_ms = ${NOW_MS} + $2 WHERE lease = $1`, [
        lease,
        leaseMs,
      ]),
    pause: (ms) =>
      // Push paused-until forward, never back.
      db.query(
        `INSERT INTO ${s}.limiter_pause VALUES (1, ${NOW_MS} + $1)
         ON CONFLICT (id) DO UPDATE SET until_ms = greatest(${s}.limiter_pause.until_ms, excluded.until_ms)`,
        [ms],
      ),
  };
  return createSharedLimiter(store, options);
}
