import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
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

/**
 * The Redis limiter's twin on Postgres: `concurrency` in flight and `requestsPerSecond` started per
 * second hold for every worker on the same database. Slots are leases with an expiry, taken in
 * one statement (`limiter_acquire`, under an advisory lock, on the server's clock) and renewed
 * while the call runs, so a crashed worker cannot leak one.
 */
export function createPostgresLimiter(db: Queryable, options: PostgresLimiterOptions): Limiter {
  const s = stateSchemaOf(options.namespace);
  const leaseMs = options.leaseMs ?? 15_000;
  const pollMs = options.pollMs ?? 50;
  const rps = options.requestsPerSecond ? Math.max(1, Math.floor(options.requestsPerSecond)) : 0;

  async function acquire(lease: string, signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const { rows } = await db.query<{ wait: string | number }>(
        `SELECT ${s}.limiter_acquire($1, $2, $3, $4) AS wait`,
        [lease, options.concurrency, rps, leaseMs],
      );
      const wait = Number(rows[0]?.wait ?? -1);
      if (wait === 0) return;
      // A full house frees up at an unknown time: poll with jitter so waiters do not move in step.
      const delay = wait < 0 ? Math.round(pollMs / 2 + (Math.random() * pollMs) / 2) : wait;
      await sleep(delay, undefined, signal ? { signal } : undefined);
    }
  }

  const nowMs = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;
  return {
    async run(fn, signal) {
      const lease = randomUUID();
      await acquire(lease, signal);
      const renew = setInterval(() => {
        db.query(`UPDATE ${s}.limiter_lease SET expires_ms = ${nowMs} + $2 WHERE lease = $1`, [
          lease,
          leaseMs,
        ]).catch(() => {});
      }, leaseMs / 3);
      try {
        return await fn();
      } finally {
        clearInterval(renew);
        await db.query(`DELETE FROM ${s}.limiter_lease WHERE lease = $1`, [lease]).catch(() => {});
      }
    },
    pause(ms) {
      // Push paused-until forward, never back.
      db.query(
        `INSERT INTO ${s}.limiter_pause VALUES (1, ${nowMs} + $1)
         ON CONFLICT (id) DO UPDATE SET until_ms = greatest(${s}.limiter_pause.until_ms, excluded.until_ms)`,
        [Math.ceil(ms)],
      ).catch(() => {});
    },
  };
}
