import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisLimiter } from '../../src/http/distributed/redis-limiter.ts';
import { redisAvailable } from '../helpers/services.ts';
import { cleanupPrefix, REDIS_URL, uniquePrefix } from './helpers.ts';

/** `feed-sync worker` on the demo config, expected to refuse to start: its exit code and stderr. */
function failedWorker(env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string } | undefined> {
  return promisify(execFile)(
    join(process.cwd(), 'node_modules/.bin/node'),
    ['src/cli/main.ts', 'worker', '-c', 'fixtures/demo/feed-sync.yaml'],
    { env, timeout: 20_000 },
  ).then(
    () => undefined,
    (e: { code: number; stderr: string }) => e,
  );
}

let redis: Redis;
let prefix: string;

/** Runs `count` tasks of `ms` each through `limiters` in turn; returns the peak in flight and start times. */
async function load(limiters: ReturnType<typeof createRedisLimiter>[], count: number, ms: number) {
  let inFlight = 0;
  let peak = 0;
  const starts: number[] = [];
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      limiters[i % limiters.length]!.run(async () => {
        starts.push(Date.now());
        peak = Math.max(peak, ++inFlight);
        await sleep(ms);
        inFlight--;
      }),
    ),
  );
  return { peak, starts: starts.sort((a, b) => a - b) };
}

describe.skipIf(!redisAvailable)('the Redis limiter', () => {
  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(() => redis.disconnect());
  afterEach(() => cleanupPrefix(prefix));

  it('holds the in-flight bound for several limiters (processes) together', async () => {
    prefix = uniquePrefix();
    const limiters = [1, 2, 3].map(() => createRedisLimiter(redis, { prefix, concurrency: 2, pollMs: 10 }));
    const { peak } = await load(limiters, 12, 30);
    expect(peak).toBe(2);
    expect(await redis.zcard(`${prefix}:limiter:in-flight`)).toBe(0);
  });

  it('a slot freed by this process goes to its waiter at once, not at its next poll', async () => {
    prefix = uniquePrefix();
    // An hour between polls: a waiter that waited for its poll would time the test out.
    const limiter = createRedisLimiter(redis, { prefix, concurrency: 1, pollMs: 3_600_000 });
    expect((await load([limiter], 4, 20)).peak).toBe(1);
  });

  it('holds the per-second ceiling', async () => {
    prefix = uniquePrefix();
    const limiters = [1, 2].map(() =>
      createRedisLimiter(redis, { prefix, concurrency: 10, requestsPerSecond: 5 }),
    );
    const { starts } = await load(limiters, 8, 1);
    // 8 starts at 5 per second: the 6th waits for the first second to pass.
    expect(starts[7]! - starts[0]!).toBeGreaterThanOrEqual(900);
    for (let i = 5; i < starts.length; i++) expect(starts[i]! - starts[i - 5]!).toBeGreaterThanOrEqual(950);
  });

  it('a crashed worker does not leak its slot: the lease expires', async () => {
    prefix = uniquePrefix();
    // A slot taken by a process that died mid-call (never released, never renewed).
    await redis.zadd(`${prefix}:limiter:in-flight`, Date.now() + 300, 'dead-worker-lease');
    const limiter = createRedisLimiter(redis, { prefix, concurrency: 1, pollMs: 10 });
    const started = Date.now();
    await limiter.run(async () => {});
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a live call keeps its lease past the lease time', async () => {
    prefix = uniquePrefix();
    const a = createRedisLimiter(redis, { prefix, concurrency: 1, leaseMs: 150, pollMs: 10 });
    const b = createRedisLimiter(redis, { prefix, concurrency: 1, leaseMs: 150, pollMs: 10 });
    let overlap = false;
    let aRunning = false;
    const first = a.run(async () => {
      aRunning = true;
      await sleep(500);
      aRunning = false;
    });
    await sleep(20);
    await b.run(async () => {
      overlap = aRunning;
    });
    await first;
    expect(overlap).toBe(false);
  });

  it('a pause (429) holds every limiter back', async () => {
    prefix = uniquePrefix();
    const a = createRedisLimiter(redis, { prefix, concurrency: 5 });
    const b = createRedisLimiter(redis, { prefix, concurrency: 5 });
    a.pause(300);
    await sleep(20);
    const started = Date.now();
    await b.run(async () => {});
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('an overload seen by one limiter halves the requests in flight of all of them (shared AIMD)', async () => {
    prefix = uniquePrefix();
    const options = { prefix, concurrency: 6, pollMs: 5, aimd: { probeStreak: 1000 } };
    const a = createRedisLimiter(redis, options);
    const b = createRedisLimiter(redis, options);
    expect((await load([a, b], 12, 20)).peak).toBe(6);
    const tooMany = Object.assign(new Error('HTTP 429'), { rateLimited: true });
    const refused = async () => {
      await sleep(10);
      throw tooMany;
    };
    // Two answers of one burst, both sent at the old limit: the second does not halve again.
    const burst = await Promise.allSettled([a.run(refused), b.run(refused)]);
    expect(burst.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(JSON.parse((await redis.get(`${prefix}:limiter:aimd`)) ?? '{}')).toMatchObject({
      limit: 3,
      ceiling: 6,
    });
    // Halved to 3, then one per window of successes up to 5: the step to 6 waits for 1000 successes.
    const after = await load([b, a], 30, 20);
    expect(after.peak).toBeGreaterThanOrEqual(3);
    expect(after.peak).toBeLessThanOrEqual(5);
    // Below full concurrency a success frees its slot in the script that reads the state: none is left.
    expect(await redis.zcard(`${prefix}:limiter:in-flight`)).toBe(0);
  });
});

describe('store unreachable', () => {
  it('the worker says so in one line and exits 1', async () => {
    const error = await failedWorker({ ...process.env, REDIS_URL: 'redis://127.0.0.1:1' });
    expect(error?.code).toBe(1);
    expect(error?.stderr).toBe('feed-sync: cannot reach Redis at redis://127.0.0.1:1: ECONNREFUSED\n');
  });

  it('an unreachable Postgres (DATABASE_URL) is one line without its password, exit 1', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: 'postgres://app:pw@127.0.0.1:1/feeds' };
    delete env.REDIS_URL;
    const error = await failedWorker(env);
    expect(error?.code).toBe(1);
    expect(error?.stderr).toBe(
      'feed-sync: cannot reach Postgres at postgres://app:***@127.0.0.1:1/feeds: ECONNREFUSED\n',
    );
  });

  it('a UI beyond loopback without credentials is refused before anything starts, exit 2', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, REDIS_URL: 'redis://127.0.0.1:1', UI_HOST: '0.0.0.0' };
    env.UI_PORT = '3999';
    delete env.UI_USER;
    delete env.UI_PASSWORD;
    const error = await failedWorker(env);
    expect(error?.code).toBe(2); // a config problem: exit 2
    expect(error?.stderr).toBe(
      'feed-sync: refusing to serve the queue UI on 0.0.0.0 without UI_USER and UI_PASSWORD (loopback only without them)\n',
    );
  });
});
