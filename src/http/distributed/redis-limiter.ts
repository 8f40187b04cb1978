import type { Redis } from 'ioredis';
import { AIMD_TTL_MS, type AimdState, aimdStateOf } from '../aimd.ts';
import type { Limiter } from '../limiter.ts';
import {
  createSharedLimiter,
  type SharedLimiterOptions,
  type SlotStore,
  type StoredAimd,
} from './shared-limiter.ts';

/**
 * Take a slot if both bounds allow, in one atomic step on the server's clock. The in-flight bound
 * is the shared AIMD limit (src/http/aimd.ts) when one is stored, never above `concurrency`.
 * KEYS: in-flight zset (lease → expiry ms), starts zset (start ms), paused-until key, AIMD state.
 * ARGV: lease id, concurrency, per-second ceiling (0 = none), lease ms.
 * The per-second bound is the ceiling or the AIMD state's learned `rate`, whichever is lower. Every
 * start is kept a second, so a 429 can tell the controller how many starts the platform saw.
 * Returns {wait, limit, generation, recent, rate×1000}: wait 0 when the slot is taken, else the ms
 * to wait before asking again (-1: every slot is taken); recent = the starts in the second before.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[2])
local generation = 0
local rate = 0
local stored = redis.call('GET', KEYS[4])
if stored then
  local ok, aimd = pcall(cjson.decode, stored)
  if ok and type(aimd) == 'table' and tonumber(aimd.limit) then
    limit = math.max(1, math.min(limit, tonumber(aimd.limit)))
    generation = tonumber(aimd.generation) or 0
    rate = tonumber(aimd.rate) or 0
  end
end
local rps = tonumber(ARGV[3])
if rate > 0 and (rps == 0 or rate < rps) then rps = math.max(1, math.floor(rate)) end
local r = math.floor(rate * 1000)
local paused = tonumber(redis.call('GET', KEYS[3]) or '0')
if paused > now then return {paused - now, limit, generation, 0, r} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= limit then return {-1, limit, generation, 0, r} end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 1000)
local recent = redis.call('ZCARD', KEYS[2])
if rps > 0 and recent >= rps then
  local oldest = redis.call('ZRANGE', KEYS[2], recent - rps, recent - rps, 'WITHSCORES')
  return {math.max(1, tonumber(oldest[2]) + 1000 - now), limit, generation, 0, r}
end
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('PEXPIRE', KEYS[2], 2000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]) * 2)
return {0, limit, generation, recent, r}
`;

/**
 * Compare-and-set of the shared AIMD state: the new state is written only if nobody changed it
 * since it was read (KEYS[1]; ARGV: the text read ('' = none), the new text, time to live ms).
 */
const AIMD_CAS = `
local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', tonumber(ARGV[3]))
return 1
`;

/** Free a slot and read the AIMD state in the same round trip (KEYS: in-flight, AIMD state; ARGV: lease). */
const RELEASE_AND_READ = `
redis.call('ZREM', KEYS[1], ARGV[1])
return redis.call('GET', KEYS[2]) or ''
`;

/** Extend a lease that is still ours. */
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1
`;

/** Push paused-until forward (never back). */
const PAUSE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilMs = now + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMs > current then redis.call('SET', KEYS[1], untilMs, 'PX', tonumber(ARGV[1]) + 1000) end
return 1
`;

export interface RedisLimiterOptions extends SharedLimiterOptions {
  /** Key prefix, e.g. `{feed-sync}`; the limiter's keys share its hash slot. */
  prefix: string;
}

/**
 * The limiter every worker process shares: `concurrency` in flight and `requestsPerSecond` started
 * per second hold for all of them together, so scaling workers out never trips the platform.
 * Slots are leases in a sorted set scored by expiry, so a crashed worker cannot leak one. The
 * adaptive (AIMD) limit is one state in Redis too: a 429 seen by one worker halves the requests in
 * flight of all of them, and every worker's successes raise it again. The rules are
 * `createSharedLimiter`'s; here are only Redis's round trips.
 */
export function createRedisLimiter(redis: Redis, options: RedisLimiterOptions): Limiter {
  const keys = [
    `${options.prefix}:limiter:in-flight`,
    `${options.prefix}:limiter:starts`,
    `${options.prefix}:limiter:paused-until`,
    `${options.prefix}:limiter:aimd`,
  ];
  const [inFlightKey, , pausedKey, aimdKey] = keys as [string, string, string, string];
  const leaseMs = options.leaseMs ?? 15_000;
  const rps = options.requestsPerSecond ? Math.max(1, Math.floor(options.requestsPerSecond)) : 0;
  const stored = (raw: string): StoredAimd => ({ state: parseAimd(raw), token: raw });

  const store: SlotStore = {
    async take(lease) {
      const answer = (await redis.eval(
        ACQUIRE,
        4,
        ...keys,
        lease,
        options.concurrency,
        rps,
        leaseMs,
      )) as number[];
      const [wait, limit, generation, recent, rate] = answer.map(Number) as number[];
      return { wait: wait!, limit: limit!, generation: generation!, recent: recent!, rate: rate! / 1000 };
    },
    release: (lease) => redis.zrem(inFlightKey, lease),
    releaseAndRead: async (lease) =>
      stored(String(await redis.eval(RELEASE_AND_READ, 2, inFlightKey, aimdKey, lease))),
    read: async () => stored((await redis.get(aimdKey)) ?? ''),
    write: async (read, next) =>
      Number(
        await redis.eval(AIMD_CAS, 1, aimdKey, String(read.token), JSON.stringify(next), AIMD_TTL_MS),
      ) === 1,
    renew: (lease) => redis.eval(RENEW, 1, inFlightKey, lease, leaseMs),
    pause: (ms) => redis.eval(PAUSE, 1, pausedKey, ms),
  };
  return createSharedLimiter(store, options);
}

/** The stored AIMD state, or undefined when absent or unreadable (then the limiter starts afresh). */
function parseAimd(raw: string): AimdState | undefined {
  if (raw === '') return undefined;
  try {
    return aimdStateOf(JSON.parse(raw));
  } catch {
    return undefined;
  }
}
