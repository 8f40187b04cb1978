import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { AIMD_TTL_MS } from '../../src/http/aimd.ts';
import {
  createPostgresLimiter,
  type PostgresLimiterOptions,
} from '../../src/http/distributed/postgres-limiter.ts';
import type { Limiter } from '../../src/http/limiter.ts';
import { openQueueStore } from '../../src/queue/open-store.ts';
import type { QueueStore } from '../../src/queue/store.ts';
import { namespaceOf, type Queryable, stateSchemaOf } from '../../src/state/postgres-schema.ts';
import { BACKENDS, DATABASE_URL } from './backends.ts';

/**
 * The Postgres limiter on a real Postgres and on the embedded PGlite. "Two processes" are two
 * limiters with connections of their own: the store's limiter (its pool) and one built on a second
 * pool to the same database, as a second worker process would have.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  store: QueueStore;
  /** A second process's limiter: its own pool, counting the statements it sends. */
  second(options: Omit<PostgresLimiterOptions, 'namespace'>): {
    limiter: Limiter;
    statements: () => number;
    /** The statements that took (or asked for) a slot. */
    takes: () => number;
  };
  /** The limiter's tables, for the assertions. */
  db: Queryable;
  s: string;
  namespace: string;
}

async function setUp(backend: (typeof BACKENDS)[number]): Promise<Setup> {
  const { store: choice, prefix, cleanup } = await backend.fresh();
  cleanups.push(cleanup);
  const store = await openQueueStore(choice, prefix);
  cleanups.push(() => store.close());
  const namespace = namespaceOf(prefix);
  // The embedded store serves its PGlite on a Unix socket in its folder, while it is open.
  const connection: pg.PoolConfig =
    choice.kind === 'embedded'
      ? { host: choice.dir, port: 5432, user: 'postgres', database: 'postgres' }
      : { connectionString: DATABASE_URL };
  const pool = new pg.Pool({ ...connection, max: 4 });
  cleanups.push(() => pool.end());
  return {
    store,
    db: pool,
    s: stateSchemaOf(namespace),
    namespace,
    second(options) {
      let statements = 0;
      let takes = 0;
      const counting: Queryable = {
        query: (text, params) => {
          statements++;
          if (/limiter_take/.test(text)) takes++;
          return pool.query(text, params as unknown[]);
        },
      };
      const limiter = createPostgresLimiter(counting, { namespace, ...options });
      return { limiter, statements: () => statements, takes: () => takes };
    },
  };
}

/**
 * Runs `count` tasks through `limiters` in turn; returns the peak in flight. Each task holds its
 * slot until `expected` are in flight at once (or 3 s pass), so the peak does not depend on how
 * fast a loaded machine hands out slots: a limiter that admits more shows more, one that admits
 * fewer shows fewer.
 */
async function load(limiters: Limiter[], count: number, expected: number): Promise<number> {
  let inFlight = 0;
  let peak = 0;
  let reached!: () => void;
  const full = new Promise<void>((resolve) => (reached = resolve));
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      limiters[i % limiters.length]!.run(async () => {
        peak = Math.max(peak, ++inFlight);
        if (inFlight >= expected) reached();
        await Promise.race([full, sleep(3000)]);
        await sleep(5);
        inFlight--;
      }),
    ),
  );
  return peak;
}

const tooMany = () => Object.assign(new Error('HTTP 429'), { rateLimited: true });

/**
 * Calls through `limiters` at once, each answered 429 only once all of them have started: every one
 * was sent at the limit in force before the first answer, so they are one burst.
 */
async function burst(limiters: Limiter[]): Promise<void> {
  let started = 0;
  let allStarted!: () => void;
  const all = new Promise<void>((resolve) => (allStarted = resolve));
  const results = await Promise.allSettled(
    limiters.map((limiter) =>
      limiter.run(async () => {
        if (++started === limiters.length) allStarted();
        await all;
        throw tooMany();
      }),
    ),
  );
  expect(results.map((r) => r.status)).toEqual(limiters.map(() => 'rejected'));
}

async function storedState(setup: Setup): Promise<unknown> {
  const { rows } = await setup.db.query<{ state: unknown }>(
    `SELECT state FROM ${setup.s}.limiter_aimd WHERE id = 1`,
  );
  return rows[0]?.state;
}

const POSTGRES_BACKENDS = BACKENDS.filter((b) => b.name !== 'redis');

describe.each(POSTGRES_BACKENDS)('the Postgres limiter ($name)', (backend) => {
  it.skipIf(!backend.available)('holds the in-flight bound for several limiters together', async () => {
    const setup = await setUp(backend);
    const options = { concurrency: 2, pollMs: 10 };
    const limiters = [setup.store.createLimiter(options), setup.second(options).limiter];
    expect(await load(limiters, 8, 2)).toBe(2);
    const { rows } = await setup.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${setup.s}.limiter_lease`,
    );
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it.skipIf(!backend.available)(
    'one burst of 429s seen by two limiters halves once, and lowers the other limiter too',
    async () => {
      const setup = await setUp(backend);
      // Steps up need 1000 successes: the limit stays where the overload put it.
      const options = { concurrency: 6, pollMs: 5, aimd: { stepStreak: 1000, probeStreak: 1000 } };
      const a = setup.store.createLimiter(options);
      const b = setup.second(options).limiter;
      expect(await load([a, b], 12, 6)).toBe(6);
      // Nothing stored while at full concurrency.
      expect(await storedState(setup)).toBeUndefined();

      await burst([a, b]);
      // The rate learned from the starts before the 429 (src/http/aimd.test.ts tests its rules).
      expect(await storedState(setup)).toEqual({
        limit: 3,
        streak: 0,
        sinceDecrease: 0,
        ceiling: 6,
        generation: 1,
        rate: expect.any(Number),
        rateStreak: 0,
        pendingRate: 0,
      });
      // Each limiter alone now holds three in flight: a's 429 lowered b, and b's a.
      expect(await load([b], 9, 3)).toBe(3);
      expect(await load([a], 9, 3)).toBe(3);

      // A 429 seen by b alone, in a new burst, halves both again.
      await burst([b]);
      expect(await storedState(setup)).toMatchObject({ limit: 2, generation: 2 });
      expect(await load([a], 6, 2)).toBe(2);
    },
  );

  it.skipIf(!backend.available)(
    'successes of both limiters raise the shared limit one per window, up to below the remembered overload',
    async () => {
      const setup = await setUp(backend);
      const options = { concurrency: 6, pollMs: 5, aimd: { stepStreak: 1, probeStreak: 1000 } };
      const a = setup.store.createLimiter(options);
      const b = setup.second(options).limiter;
      await burst([a]);
      expect(await storedState(setup)).toMatchObject({ limit: 3, ceiling: 6 });
      // One at a time, alternating: 3 successes make 4, 4 more make 5; 6 (the overload's) needs 1000.
      for (let i = 0; i < 3; i++) await [a, b][i % 2]!.run(async () => {});
      expect(await storedState(setup)).toMatchObject({ limit: 4, ceiling: 6 });
      for (let i = 0; i < 20; i++) await [a, b][i % 2]!.run(async () => {});
      expect(await storedState(setup)).toMatchObject({ limit: 5, streak: 16, ceiling: 6 });
    },
  );

  it.skipIf(!backend.available)(
    'at full concurrency a success is two statements (take, release): no AIMD round trip',
    async () => {
      const setup = await setUp(backend);
      const second = setup.second({ concurrency: 4 });
      for (let i = 0; i < 5; i++) await second.limiter.run(async () => {});
      expect(second.statements()).toBe(10);
      // Below it, a success also reads and writes the shared state: the read is the release's
      // statement. (The burst also taught a rate, so the take may be asked again while paced.)
      await burst([second.limiter]);
      const before = second.statements() - second.takes();
      await second.limiter.run(async () => {});
      expect(second.statements() - second.takes() - before).toBe(2);
    },
  );

  it.skipIf(!backend.available)(
    'below full concurrency, a success frees its slot before its compare-and-set: the next call does not wait for it',
    async () => {
      const setup = await setUp(backend);
      const options = { concurrency: 2, pollMs: 5, aimd: { stepStreak: 1000, probeStreak: 1000 } };
      // a's compare-and-set of the shared row (an UPDATE) is held until the test lets it go.
      let held: (() => void) | undefined;
      let reached!: () => void;
      const atUpdate = new Promise<void>((resolve) => (reached = resolve));
      const holding: Queryable = {
        query: async (text, params) => {
          if (!held && /^\s*UPDATE \S+\.limiter_aimd/.test(text)) {
            const release = new Promise<void>((resolve) => (held = resolve));
            reached();
            await release;
          }
          return setup.db.query(text, params);
        },
      };
      const a = createPostgresLimiter(holding, { namespace: setup.namespace, ...options });
      const b = setup.store.createLimiter(options);
      await burst([a]);
      expect(await storedState(setup)).toMatchObject({ limit: 1, generation: 1 });
      const first = a.run(async () => 'a');
      await atUpdate;
      // The limit is 1 and a's update is not through: b can only start if a's slot is already free.
      expect(await b.run(async () => 'b')).toBe('b');
      held?.();
      expect(await first).toBe('a');
      expect(await storedState(setup)).toMatchObject({ limit: 1, streak: 2 });
    },
  );

  it.skipIf(!backend.available)(
    'a slot freed by this process goes to its waiter at once, not at its next poll',
    async () => {
      const setup = await setUp(backend);
      // An hour between polls: a waiter that waited for its poll would time the test out.
      const limiter = setup.second({ concurrency: 1, pollMs: 3_600_000 }).limiter;
      expect(await load([limiter], 4, 20)).toBe(1);
    },
  );

  it.skipIf(!backend.available)(
    'a state untouched for the time to live is forgotten: full concurrency again',
    async () => {
      const setup = await setUp(backend);
      const options = { concurrency: 6, pollMs: 5, aimd: { stepStreak: 1000, probeStreak: 1000 } };
      const a = setup.store.createLimiter(options);
      await burst([a]);
      expect(await load([a], 9, 3)).toBe(3);
      const age = (ms: number) =>
        setup.db.query(
          `UPDATE ${setup.s}.limiter_aimd SET touched_ms = (extract(epoch FROM clock_timestamp()) * 1000)::bigint - $1`,
          [ms],
        );
      // Last touched nine minutes ago: still in force.
      await age(AIMD_TTL_MS - 60_000);
      expect(await load([a], 9, 3)).toBe(3);
      // Ten minutes and a second: forgotten, and the next overload halves from full concurrency.
      await age(AIMD_TTL_MS + 1000);
      expect(await load([a], 12, 6)).toBe(6);
      await burst([a]);
      expect(await storedState(setup)).toMatchObject({ limit: 3, ceiling: 6, generation: 1 });
    },
  );
});
