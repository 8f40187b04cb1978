import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AIMD_TTL_MS,
  type AimdOptions,
  type AimdState,
  aimdOverload,
  aimdStateOf,
  aimdSuccess,
  initialAimd,
  isOverload,
} from '../http/aimd.ts';
import type { Limiter, LimiterOptions } from '../http/limiter.ts';
import { type Queryable, stateSchemaOf } from '../state/postgres-schema.ts';

export interface PostgresLimiterOptions extends LimiterOptions {
  /** The namespace of the store (`<namespace>_state` holds the limiter's tables). */
  namespace: string;
  /** How long a slot is held without renewal (a dead worker frees its slots after this). Default 15 s. */
  leaseMs?: number;
  /** Longest wait between two tries when every slot is taken. Default 50 ms. */
  pollMs?: number;
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
 * the row, compute, write it only if its version is still the one read. Every statement stands
 * alone (no BEGIN … COMMIT across round trips): the embedded store's connections share one PGlite
 * session, whose socket server serves only the connection in a transaction until it ends, so a
 * transaction over several round trips would hold every other query (BullMQ's too) that long.
 */
export function createPostgresLimiter(db: Queryable, options: PostgresLimiterOptions): Limiter {
  const s = stateSchemaOf(options.namespace);
  const aimd: AimdOptions = { ...options.aimd, max: options.concurrency };
  const leaseMs = options.leaseMs ?? 15_000;
  const pollMs = options.pollMs ?? 50;
  const rps = options.requestsPerSecond ? Math.max(1, Math.floor(options.requestsPerSecond)) : 0;

  /** Take a slot; returns the shared AIMD limit and generation in force when it was taken. */
  async function acquire(
    lease: string,
    signal?: AbortSignal,
  ): Promise<{ limit: number; generation: number }> {
    for (;;) {
      signal?.throwIfAborted();
      const { rows } = await db.query<{ wait: string | number; lim: number; gen: string | number }>(
        `SELECT wait, lim, gen FROM ${s}.limiter_take($1, $2, $3, $4, $5)`,
        [lease, options.concurrency, rps, leaseMs, AIMD_TTL_MS],
      );
      const row = rows[0];
      const wait = Number(row?.wait ?? -1);
      if (wait === 0) return { limit: Number(row?.lim), generation: Number(row?.gen) };
      // A full house frees up at an unknown time: poll with jitter so waiters do not move in step.
      const delay = wait < 0 ? Math.round(pollMs / 2 + (Math.random() * pollMs) / 2) : wait;
      await sleep(delay, undefined, signal ? { signal } : undefined);
    }
  }

  /** Apply one AIMD step to the shared row: read, compute (pure), compare-and-set; retry on a race. */
  async function feed(step: (state: AimdState) => AimdState): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const { rows } = await db.query<{ state: unknown; version: string; fresh: boolean }>(
        `SELECT state, version, touched_ms > ${NOW_MS} - $1 AS fresh FROM ${s}.limiter_aimd WHERE id = 1`,
        [AIMD_TTL_MS],
      );
      const row = rows[0];
      // A row past its time to live is forgotten, as an expired Redis key is.
      const stored = row?.fresh ? aimdStateOf(row.state) : undefined;
      const state = stored ?? initialAimd(aimd);
      const next = step(state);
      if (stored && next === state) return;
      const text = JSON.stringify(next);
      const written = row
        ? await db.query(
            `UPDATE ${s}.limiter_aimd SET state = $1::jsonb, version = version + 1, touched_ms = ${NOW_MS}
             WHERE id = 1 AND version = $2`,
            [text, row.version],
          )
        : await db.query(
            `INSERT INTO ${s}.limiter_aimd VALUES (1, $1::jsonb, 1, ${NOW_MS}) ON CONFLICT (id) DO NOTHING`,
            [text],
          );
      if (written.rowCount === 1) return;
    }
  }

  return {
    async run(fn, signal) {
      const lease = randomUUID();
      const taken = await acquire(lease, signal);
      const renew = setInterval(() => {
        db.query(`UPDATE ${s}.limiter_lease SET expires_ms = ${NOW_MS} + $2 WHERE lease = $1`, [
          lease,
          leaseMs,
        ]).catch(() => {});
      }, leaseMs / 3);
      try {
        const value = await fn();
        // At full concurrency a success changes nothing: no extra round trip on the fast path.
        if (taken.limit < options.concurrency)
          await feed((state) => aimdSuccess(state, taken.generation, aimd)).catch(() => {});
        return value;
      } catch (error) {
        if (isOverload(error))
          await feed((state) => aimdOverload(state, taken.generation, aimd)).catch(() => {});
        throw error;
      } finally {
        clearInterval(renew);
        await db.query(`DELETE FROM ${s}.limiter_lease WHERE lease = $1`, [lease]).catch(() => {});
      }
    },
    pause(ms) {
      // Push paused-until forward, never back.
      db.query(
        `INSERT INTO ${s}.limiter_pause VALUES (1, ${NOW_MS} + $1)
         ON CONFLICT (id) DO UPDATE SET until_ms = greatest(${s}.limiter_pause.until_ms, excluded.until_ms)`,
        [Math.ceil(ms)],
      ).catch(() => {});
    },
  };
}
