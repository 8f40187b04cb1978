/**
 * The tables feed-sync keeps beside BullMQ's on Postgres (a server from DATABASE_URL, or the
 * embedded PGlite): run state, settings fingerprints, open alert incidents, the shared limiter.
 * They live in a schema of their own (`<namespace>_state`), so BullMQ's schema stays BullMQ's.
 *
 * Migrations are an ordered list: a new method on a store adds a step at the end (never edits an
 * old one). They run in one transaction under an advisory lock, so workers starting together
 * migrate once.
 */

/** The least a store needs from a connection: `pg.Pool`, `pg.Client` and `pg.PoolClient` all fit. */
export interface Queryable {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
  ): Promise<{ rows: R[]; rowCount?: number | null }>;
}

/** A connection that can be taken for a transaction. */
export interface ConnectionPool extends Queryable {
  connect(): Promise<Queryable & { release(): void }>;
}

/** `{feed-sync}` → `feed_sync`: a plain Postgres identifier from the worker's prefix. */
export function namespaceOf(prefix: string): string {
  const name = prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!name) return 'feed_sync';
  const safe = /^[a-z_]/.test(name) ? name : `fs_${name}`;
  // 63 bytes is Postgres' limit; `_state` is added to it.
  return safe.slice(0, 50);
}

/** The quoted schema of feed-sync's own tables for a namespace. */
export const stateSchemaOf = (namespace: string) => `"${namespace}_state"`;

/** Each step gets the quoted schema name. Append only. */
const STEPS: Array<(s: string) => string> = [
  (s) => `
    CREATE TABLE ${s}.feed_state (
      feed_id text NOT NULL,
      field text NOT NULL,
      value jsonb NOT NULL,
      PRIMARY KEY (feed_id, field)
    );
    CREATE TABLE ${s}.settings_fingerprint (
      chatbot text PRIMARY KEY,
      fingerprint text NOT NULL
    );
    CREATE TABLE ${s}.open_incident (
      id text PRIMARY KEY,
      opened_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE ${s}.limiter_lease (lease text PRIMARY KEY, expires_ms bigint NOT NULL);
    CREATE TABLE ${s}.limiter_start (lease text PRIMARY KEY, started_ms bigint NOT NULL);
    CREATE TABLE ${s}.limiter_pause (id int PRIMARY KEY, until_ms bigint NOT NULL);`,
  (s) => `
    -- Take a limiter slot if both bounds allow, in one statement on the server's clock (the
    -- Postgres twin of the Redis limiter's Lua script). 0 = taken; -1 = full, poll; n > 0 = wait n ms.
    CREATE FUNCTION ${s}.limiter_acquire(p_lease text, p_concurrency int, p_rps int, p_lease_ms int)
    RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      now_ms bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
      paused bigint;
      n int;
      oldest bigint;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('${s}.limiter'));
      SELECT until_ms INTO paused FROM ${s}.limiter_pause WHERE id = 1;
      IF paused IS NOT NULL AND paused > now_ms THEN RETURN paused - now_ms; END IF;
      DELETE FROM ${s}.limiter_lease WHERE expires_ms <= now_ms;
      SELECT count(*) INTO n FROM ${s}.limiter_lease;
      IF n >= p_concurrency THEN RETURN -1; END IF;
      IF p_rps > 0 THEN
        DELETE FROM ${s}.limiter_start WHERE started_ms <= now_ms - 1000;
        SELECT count(*), min(started_ms) INTO n, oldest FROM ${s}.limiter_start;
        IF n >= p_rps THEN RETURN greatest(1, oldest + 1000 - now_ms); END IF;
        INSERT INTO ${s}.limiter_start VALUES (p_lease, now_ms);
      END IF;
      INSERT INTO ${s}.limiter_lease VALUES (p_lease, now_ms + p_lease_ms);
      RETURN 0;
    END $$;`,
  (s) => `
    -- The per-feed run history (newest first by seq); a run recorded again (same started_at) replaces itself.
    CREATE TABLE ${s}.run_history (
      feed_id text NOT NULL,
      started_at text NOT NULL,
      seq bigserial NOT NULL,
      report jsonb NOT NULL,
      PRIMARY KEY (feed_id, started_at)
    );
    CREATE INDEX run_history_newest ON ${s}.run_history (feed_id, seq DESC);`,
  (s) => `
    -- The limiter's shared AIMD state (src/http/aimd.ts): one row holding one JSON value, as the
    -- Redis limiter keeps one key. Written by compare-and-set on version; a row untouched for the
    -- time to live counts as absent (the next run starts at full concurrency).
    CREATE TABLE ${s}.limiter_aimd (
      id int PRIMARY KEY CHECK (id = 1),
      state jsonb NOT NULL,
      version bigint NOT NULL,
      touched_ms bigint NOT NULL
    );
    -- limiter_acquire with the in-flight bound lowered to the shared AIMD limit while it is fresh;
    -- also returns the limit and generation in force (the Redis limiter's ACQUIRE). The old function
    -- stays for workers of the previous version during a rolling upgrade.
    CREATE FUNCTION ${s}.limiter_take(
      p_lease text, p_concurrency int, p_rps int, p_lease_ms int, p_ttl_ms bigint,
      OUT wait bigint, OUT lim int, OUT gen bigint)
    LANGUAGE plpgsql AS $$
    DECLARE
      now_ms bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
      stored jsonb;
      paused bigint;
      n int;
      oldest bigint;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('${s}.limiter'));
      lim := p_concurrency;
      gen := 0;
      SELECT a.state INTO stored FROM ${s}.limiter_aimd a WHERE a.id = 1 AND a.touched_ms > now_ms - p_ttl_ms;
      IF jsonb_typeof(stored -> 'limit') = 'number' AND jsonb_typeof(stored -> 'generation') = 'number' THEN
        lim := greatest(1, least(p_concurrency, floor((stored ->> 'limit')::numeric)))::int;
        gen := floor((stored ->> 'generation')::numeric)::bigint;
      END IF;
      SELECT until_ms INTO paused FROM ${s}.limiter_pause WHERE id = 1;
      IF paused IS NOT NULL AND paused > now_ms THEN wait := paused - now_ms; RETURN; END IF;
      DELETE FROM ${s}.limiter_lease WHERE expires_ms <= now_ms;
      SELECT count(*) INTO n FROM ${s}.limiter_lease;
      IF n >= lim THEN wait := -1; RETURN; END IF;
      IF p_rps > 0 THEN
        DELETE FROM ${s}.limiter_start WHERE started_ms <= now_ms - 1000;
        SELECT count(*), min(started_ms) INTO n, oldest FROM ${s}.limiter_start;
        IF n >= p_rps THEN wait := greatest(1, oldest + 1000 - now_ms); RETURN; END IF;
        INSERT INTO ${s}.limiter_start VALUES (p_lease, now_ms);
      END IF;
      INSERT INTO ${s}.limiter_lease VALUES (p_lease, now_ms + p_lease_ms);
      wait := 0;
    END $$;`,
  (s) => `
    -- limiter_take paced by the AIMD state's learned rate too (the lower of it and p_rps), keeping
    -- every start a second so a 429 can say how many starts the platform saw (recent); rate is the
    -- learned rate in force. The old function stays for workers of the previous version.
    CREATE FUNCTION ${s}.limiter_take_paced(
      p_lease text, p_concurrency int, p_rps int, p_lease_ms int, p_ttl_ms bigint,
      OUT wait bigint, OUT lim int, OUT gen bigint, OUT recent int, OUT rate float8)
    LANGUAGE plpgsql AS $$
    DECLARE
      now_ms bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
      stored jsonb;
      paused bigint;
      n int;
      cap int := p_rps;
      nth bigint;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('${s}.limiter'));
      lim := p_concurrency;
      gen := 0;
      recent := 0;
      rate := 0;
      SELECT a.state INTO stored FROM ${s}.limiter_aimd a WHERE a.id = 1 AND a.touched_ms > now_ms - p_ttl_ms;
      IF jsonb_typeof(stored -> 'limit') = 'number' AND jsonb_typeof(stored -> 'generation') = 'number' THEN
        lim := greatest(1, least(p_concurrency, floor((stored ->> 'limit')::numeric)))::int;
        gen := floor((stored ->> 'generation')::numeric)::bigint;
        IF jsonb_typeof(stored -> 'rate') = 'number' AND (stored ->> 'rate')::float8 > 0 THEN
          rate := (stored ->> 'rate')::float8;
          IF cap = 0 OR rate < cap THEN cap := greatest(1, floor(rate))::int; END IF;
        END IF;
      END IF;
      SELECT until_ms INTO paused FROM ${s}.limiter_pause WHERE id = 1;
      IF paused IS NOT NULL AND paused > now_ms THEN wait := paused - now_ms; RETURN; END IF;
      DELETE FROM ${s}.limiter_lease WHERE expires_ms <= now_ms;
      SELECT count(*) INTO n FROM ${s}.limiter_lease;
      IF n >= lim THEN wait := -1; RETURN; END IF;
      DELETE FROM ${s}.limiter_start WHERE started_ms <= now_ms - 1000;
      SELECT count(*) INTO n FROM ${s}.limiter_start;
      IF cap > 0 AND n >= cap THEN
        SELECT started_ms INTO nth FROM ${s}.limiter_start ORDER BY started_ms OFFSET n - cap LIMIT 1;
        wait := greatest(1, nth + 1000 - now_ms);
        RETURN;
      END IF;
      INSERT INTO ${s}.limiter_start VALUES (p_lease, now_ms);
      INSERT INTO ${s}.limiter_lease VALUES (p_lease, now_ms + p_lease_ms);
      recent := n;
      wait := 0;
    END $$;`,
];

/** Bring feed-sync's tables in `namespace` up to date. Idempotent; safe from many processes at once. */
export async function migrateStateSchema(pool: ConnectionPool, namespace: string): Promise<number> {
  const s = stateSchemaOf(namespace);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${s}.migrate`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.migration (version int PRIMARY KEY)`);
    const { rows } = await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${s}.migration`);
    const current = Number(rows[0]?.v ?? 0);
    for (let version = current + 1; version <= STEPS.length; version++) {
      await client.query(STEPS[version - 1]!(s));
      await client.query(`INSERT INTO ${s}.migration VALUES ($1)`, [version]);
    }
    await client.query('COMMIT');
    return STEPS.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
