import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Limiter, LimiterOptions } from '../http/limiter.ts';

/**
 * Take a slot if both bounds allow, in one atomic step on the server's clock.
 * KEYS: in-flight zset (lease → expiry ms), starts zset (start ms), paused-until key.
 * ARGV: lease id, concurrency, per-second ceiling (0 = none), lease ms.
 * Returns 0 when the slot is taken, else the ms to wait before asking again.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local paused = tonumber(redis.call('GET', KEYS[3]) or '0')
if paused > now then return paused - now end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
local rps = tonumber(ARGV[3])
if rps > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 1000)
  if redis.call('ZCARD', KEYS[2]) >= rps then
    local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
    return math.max(1, tonumber(oldest[2]) + 1000 - now)
  end
  redis.call('ZADD', KEYS[2], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[2], 2000)
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]) * 2)
return 0
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

export interface RedisLimiterOptions extends LimiterOptions {
  /** Key prefix, e.g. `{feed-sync}`; the limiter's keys share its hash slot. */
  prefix: string;
  /**
   * How long a slot is held without renewal. A worker that dies mid-call frees its slots after this
   * long; a live one renews every third of it. Default 15 s.
   */
  leaseMs?: number;
  /** Longest wait between two tries when every slot is taken. Default 50 ms. */
  pollMs?: number;
}

/**
 * The limiter every worker process shares: `concurrency` in flight and `requestsPerSecond` started
 * per second hold for all of them together, so scaling workers out never trips the platform.
 * Slots are leases in a sorted set scored by expiry, so a crashed worker cannot leak one.
 */
export function createRedisLimiter(redis: Redis, options: RedisLimiterOptions): Limiter {
  const keys = [
    `${options.prefix}:limiter:in-flight`,
    `${options.prefix}:limiter:starts`,
    `${options.prefix}:limiter:paused-until`,
  ];
  const leaseMs = options.leaseMs ?? 15_000;
  const pollMs = options.pollMs ?? 50;
  const rps = options.requestsPerSecond ? Math.max(1, Math.floor(options.requestsPerSecond)) : 0;

  async function acquire(lease: string, signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const wait = Number(await redis.eval(ACQUIRE, 3, ...keys, lease, options.concurrency, rps, leaseMs));
      if (wait === 0) return;
      // A full house frees up at an unknown time: poll with jitter so waiters do not move in step.
      const delay = wait < 0 ? Math.round(pollMs / 2 + (Math.random() * pollMs) / 2) : wait;
      await sleep(delay, undefined, signal ? { signal } : undefined);
    }
  }

  return {
    async run(fn, signal) {
      const lease = randomUUID();
      await acquire(lease, signal);
      const renew = setInterval(() => {
        redis.eval(RENEW, 1, keys[0]!, lease, leaseMs).catch(() => {});
      }, leaseMs / 3);
      try {
        return await fn();
      } finally {
        clearInterval(renew);
        await redis.zrem(keys[0]!, lease).catch(() => {});
      }
    },
    pause(ms) {
      redis.eval(PAUSE, 1, keys[2]!, Math.ceil(ms)).catch(() => {});
    },
  };
}
