import { createHash, randomUUID } from 'node:crypto';
import {
  DAY_WINDOW_MS as DAY_MS,
  HOUR_WINDOW_MS as HOUR_MS,
  IN_FLIGHT_MS,
  MINUTE_MS,
  POLL_MS,
  SAME_WINDOW_MS,
  SECOND_WINDOW_MS as SECOND_MS,
} from './budget-book.ts';
import type { BudgetAnswer, BudgetStore, BudgetWindow } from './budget-types.ts';

/** The least the budget needs of a connection: a `pg.Pool` (the state store's) fits. */
export interface BudgetQueryable {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
  ): Promise<{ rows: R[] }>;
}

/**
 * The budget's tables and its one function, created on first use in feed-sync's state schema
 * (`<namespace>_state`), in one statement under an advisory lock so workers starting together
 * create them once. Kept apart from the state schema's numbered migrations on purpose: `IF NOT
 * EXISTS` and `CREATE OR REPLACE` make it idempotent, and a budget change never reorders them.
 * `budget_take` is budget-book.ts's `takeFromBook` in one transaction under a per-key lock.
 */
function ensureSql(s: string): string {
  return `
DO $ensure$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('${s}.budget'));
  CREATE TABLE IF NOT EXISTS ${s}.budget_second (key text NOT NULL, at_ms bigint NOT NULL);
  ALTER TABLE ${s}.budget_second ADD COLUMN IF NOT EXISTS ticket text;
  CREATE INDEX IF NOT EXISTS budget_second_key ON ${s}.budget_second (key, at_ms);
  CREATE TABLE IF NOT EXISTS ${s}.budget_minute (
    key text NOT NULL, minute bigint NOT NULL, n int NOT NULL, PRIMARY KEY (key, minute));
  CREATE TABLE IF NOT EXISTS ${s}.budget_ceiling (
    key text NOT NULL, name text NOT NULL, remaining int NOT NULL, until_ms bigint NOT NULL,
    PRIMARY KEY (key, name));
  DROP FUNCTION IF EXISTS ${s}.budget_take(text, bigint, int, int, int);
  CREATE OR REPLACE FUNCTION ${s}.budget_take(
    p_key text, p_now bigint, p_ps int, p_ph int, p_pd int, p_ticket text,
    OUT ok boolean, OUT retry_at bigint, OUT win text)
  LANGUAGE plpgsql AS $take$
  DECLARE
    n int;
    t bigint;
    total bigint;
    r record;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('${s}.budget:' || p_key));
    retry_at := 0;
    win := '';
    DELETE FROM ${s}.budget_ceiling WHERE key = p_key AND until_ms <= p_now;
    SELECT max(until_ms) INTO t FROM ${s}.budget_ceiling WHERE key = p_key AND remaining <= 0;
    IF t IS NOT NULL AND t > retry_at THEN retry_at := t; win := 'provider'; END IF;
    DELETE FROM ${s}.budget_second WHERE key = p_key AND at_ms <= p_now - ${SECOND_MS};
    IF p_ps > 0 THEN
      SELECT count(*) INTO n FROM ${s}.budget_second WHERE key = p_key;
      IF n >= p_ps THEN
        SELECT at_ms INTO t FROM ${s}.budget_second WHERE key = p_key
          ORDER BY at_ms DESC OFFSET p_ps - 1 LIMIT 1;
        -- Still in flight: it frees a second after its answer, which comes soon.
        IF t > p_now THEN t := p_now + ${POLL_MS}; ELSE t := t + ${SECOND_MS}; END IF;
        IF t > retry_at THEN retry_at := t; win := 'second'; END IF;
      END IF;
    END IF;
    DELETE FROM ${s}.budget_minute WHERE key = p_key AND (minute + 1) * ${MINUTE_MS} <= p_now - ${DAY_MS};
    IF p_ph > 0 THEN
      SELECT coalesce(sum(m.n), 0) INTO total FROM ${s}.budget_minute m
        WHERE m.key = p_key AND (m.minute + 1) * ${MINUTE_MS} > p_now - ${HOUR_MS};
      IF total >= p_ph THEN
        t := p_now + ${HOUR_MS};
        FOR r IN SELECT m.minute, m.n FROM ${s}.budget_minute m
          WHERE m.key = p_key AND (m.minute + 1) * ${MINUTE_MS} > p_now - ${HOUR_MS} ORDER BY m.minute LOOP
          total := total - r.n;
          IF total < p_ph THEN t := (r.minute + 1) * ${MINUTE_MS} + ${HOUR_MS}; EXIT; END IF;
        END LOOP;
        IF t > retry_at THEN retry_at := t; win := 'hour'; END IF;
      END IF;
    END IF;
    IF p_pd > 0 THEN
      SELECT coalesce(sum(m.n), 0) INTO total FROM ${s}.budget_minute m WHERE m.key = p_key;
      IF total >= p_pd THEN
        t := p_now + ${DAY_MS};
        FOR r IN SELECT m.minute, m.n FROM ${s}.budget_minute m WHERE m.key = p_key ORDER BY m.minute LOOP
          total := total - r.n;
          IF total < p_pd THEN t := (r.minute + 1) * ${MINUTE_MS} + ${DAY_MS}; EXIT; END IF;
        END LOOP;
        IF t > retry_at THEN retry_at := t; win := 'day'; END IF;
      END IF;
    END IF;
    IF retry_at > p_now THEN ok := false; RETURN; END IF;
    INSERT INTO ${s}.budget_second (key, at_ms, ticket) VALUES (p_key, p_now + ${IN_FLIGHT_MS}, p_ticket);
    INSERT INTO ${s}.budget_minute VALUES (p_key, floor(p_now / ${MINUTE_MS}::numeric)::bigint, 1)
      ON CONFLICT (key, minute) DO UPDATE SET n = ${s}.budget_minute.n + 1;
    UPDATE ${s}.budget_ceiling SET remaining = remaining - 1 WHERE key = p_key;
    ok := true;
    retry_at := 0;
    win := '';
  END $take$;
END $ensure$;`;
}

/**
 * Budgets on Postgres (DATABASE_URL or the embedded PGlite), in tables beside the state: shared by
 * every worker process on the database and kept across restarts. `schema` is the quoted state
 * schema (`stateSchemaOf(namespace)`).
 */
export function createPostgresBudget(db: BudgetQueryable, schema: string): BudgetStore {
  let ready: Promise<unknown> | undefined;
  const ensure = () => {
    ready ??= db.query(ensureSql(schema)).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
  // The key is a hash already; hashed again it is a plain identifier-safe string of fixed length.
  const id = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 32);
  return {
    async take(key, limits, now) {
      await ensure();
      const ticket = randomUUID();
      const { rows } = await db.query<{ ok: boolean; retry_at: string; win: string }>(
        `SELECT * FROM ${schema}.budget_take($1, $2, $3, $4, $5, $6)`,
        [id(key), Math.floor(now), limits.perSecond ?? 0, limits.perHour ?? 0, limits.perDay ?? 0, ticket],
      );
      const row = rows[0];
      if (!row || row.ok) return { ok: true, ticket };
      return { ok: false, retryAt: Number(row.retry_at), window: row.win as BudgetWindow } as BudgetAnswer;
    },
    async done(key, ticket, now) {
      await ensure();
      await db.query(`UPDATE ${schema}.budget_second SET at_ms = $3::bigint WHERE key = $1 AND ticket = $2`, [
        id(key),
        ticket,
        Math.floor(now),
      ]);
    },
    async announce(key, ceiling, now) {
      if (ceiling.resetAt <= now) return;
      await ensure();
      await db.query(
        `INSERT INTO ${schema}.budget_ceiling AS c VALUES ($1, $2, $3::int, $4::bigint)
         ON CONFLICT (key, name) DO UPDATE SET
           remaining = CASE WHEN c.until_ms > $5::bigint AND abs(c.until_ms - $4::bigint) < ${SAME_WINDOW_MS}
             THEN least(c.remaining, excluded.remaining) ELSE excluded.remaining END,
           until_ms = CASE WHEN c.until_ms > $5::bigint AND abs(c.until_ms - $4::bigint) < ${SAME_WINDOW_MS}
             THEN greatest(c.until_ms, excluded.until_ms) ELSE excluded.until_ms END`,
        [id(key), ceiling.name, Math.floor(ceiling.remaining), Math.floor(ceiling.resetAt), Math.floor(now)],
      );
    },
    async usage(key, now) {
      await ensure();
      const { rows } = await db.query<{ second: string; hour: string; day: string }>(
        `SELECT
           (SELECT count(*) FROM ${schema}.budget_second WHERE key = $1 AND at_ms > $2::bigint - ${SECOND_MS}) AS second,
           (SELECT coalesce(sum(n), 0) FROM ${schema}.budget_minute
             WHERE key = $1 AND (minute + 1) * ${MINUTE_MS} > $2::bigint - ${HOUR_MS}) AS hour,
           (SELECT coalesce(sum(n), 0) FROM ${schema}.budget_minute
             WHERE key = $1 AND (minute + 1) * ${MINUTE_MS} > $2::bigint - ${DAY_MS}) AS day`,
        [id(key), Math.floor(now)],
      );
      const row = rows[0];
      return { second: Number(row?.second ?? 0), hour: Number(row?.hour ?? 0), day: Number(row?.day ?? 0) };
    },
  };
}
