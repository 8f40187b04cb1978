import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  DAY_WINDOW_MS,
  HOUR_WINDOW_MS,
  IN_FLIGHT_MS,
  MINUTE_MS,
  POLL_MS,
  SAME_WINDOW_MS,
  SECOND_WINDOW_MS,
} from './budget-book.ts';
import type { BudgetAnswer, BudgetStore, BudgetWindow } from './budget-types.ts';

/**
 * budget-book.ts's `takeFromBook` as one atomic script, so every worker on the Redis counts against
 * the same numbers. KEYS: the last second's starts (zset ms → id), requests per minute (hash
 * minute → n), ceilings (hash name → "remaining:until"). ARGV: now, perSecond, perHour, perDay
 * (0 = none), a unique id. Returns {1} when taken, else {0, retryAt, window}.
 */
const TAKE = `
local now = tonumber(ARGV[1])
local ps, ph, pd = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local MIN, HOUR, DAY, SEC = ${MINUTE_MS}, ${HOUR_WINDOW_MS}, ${DAY_WINDOW_MS}, ${SECOND_WINDOW_MS}
local retry, window = 0, ''
local function later(at, which) if at > retry then retry = at; window = which end end
local live = {}
local c = redis.call('HGETALL', KEYS[3])
for i = 1, #c, 2 do
  local rem, untl = string.match(c[i + 1], '^(-?%d+):(%d+)$')
  rem = tonumber(rem); untl = tonumber(untl)
  if untl == nil or untl <= now then redis.call('HDEL', KEYS[3], c[i])
  elseif rem <= 0 then later(untl, 'provider')
  else live[#live + 1] = {c[i], rem, untl} end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - SEC)
if ps > 0 then
  local n = redis.call('ZCARD', KEYS[1])
  if n >= ps then
    local r = redis.call('ZRANGE', KEYS[1], n - ps, n - ps, 'WITHSCORES')
    local leaving = tonumber(r[2])
    if leaving > now then later(now + ${POLL_MS}, 'second') else later(leaving + SEC, 'second') end
  end
end
local buckets = {}
local m = redis.call('HGETALL', KEYS[2])
for i = 1, #m, 2 do
  local b = tonumber(m[i])
  if (b + 1) * MIN <= now - DAY then redis.call('HDEL', KEYS[2], m[i])
  else buckets[#buckets + 1] = {b, tonumber(m[i + 1])} end
end
table.sort(buckets, function(a, b) return a[1] < b[1] end)
local function check(limit, span, which)
  if limit <= 0 then return end
  local inside, count = {}, 0
  for _, bk in ipairs(buckets) do
    if (bk[1] + 1) * MIN > now - span then inside[#inside + 1] = bk; count = count + bk[2] end
  end
  if count < limit then return end
  for _, bk in ipairs(inside) do
    count = count - bk[2]
    if count < limit then later((bk[1] + 1) * MIN + span, which); return end
  end
  later(now + span, which)
end
check(ph, HOUR, 'hour')
check(pd, DAY, 'day')
if retry > now then return {0, retry, window} end
redis.call('ZADD', KEYS[1], now + ${IN_FLIGHT_MS}, ARGV[5])
redis.call('PEXPIRE', KEYS[1], ${IN_FLIGHT_MS} + 2 * SEC)
redis.call('HINCRBY', KEYS[2], string.format('%d', math.floor(now / MIN)), 1)
redis.call('PEXPIRE', KEYS[2], DAY + 2 * MIN)
for _, l in ipairs(live) do
  redis.call('HSET', KEYS[3], l[1], string.format('%d:%d', l[2] - 1, l[3]))
end
return {1}
`;

/** `doneInBook`: KEYS[1] the second's zset; ARGV: ticket, now. Only a ticket still there moves. */
const DONE = `
redis.call('ZADD', KEYS[1], 'XX', tonumber(ARGV[2]), ARGV[1])
return 1
`;

/** `announcedTo`: KEYS[1] ceilings; ARGV: name, remaining, resetAt, now. */
const ANNOUNCE = `
local resetAt, now = tonumber(ARGV[3]), tonumber(ARGV[4])
if resetAt <= now then return 0 end
local remaining = tonumber(ARGV[2])
local untl = resetAt
local known = redis.call('HGET', KEYS[1], ARGV[1])
if known then
  local rem, u = string.match(known, '^(-?%d+):(%d+)$')
  rem = tonumber(rem); u = tonumber(u)
  if u and u > now and math.abs(u - resetAt) < ${SAME_WINDOW_MS} then
    remaining = math.min(rem, remaining)
    untl = math.max(u, resetAt)
  end
end
redis.call('HSET', KEYS[1], ARGV[1], string.format('%d:%d', remaining, untl))
local ttl = redis.call('PTTL', KEYS[1])
if ttl < untl - now then redis.call('PEXPIRE', KEYS[1], untl - now + 1000) end
return 1
`;

/** Counts per window; KEYS as TAKE; ARGV: now. */
const USAGE = `
local now = tonumber(ARGV[1])
local MIN, HOUR, DAY, SEC = ${MINUTE_MS}, ${HOUR_WINDOW_MS}, ${DAY_WINDOW_MS}, ${SECOND_WINDOW_MS}
local second = redis.call('ZCOUNT', KEYS[1], now - SEC + 1, '+inf')
local hour, day = 0, 0
local m = redis.call('HGETALL', KEYS[2])
for i = 1, #m, 2 do
  local b, n = tonumber(m[i]), tonumber(m[i + 1])
  if (b + 1) * MIN > now - HOUR then hour = hour + n end
  if (b + 1) * MIN > now - DAY then day = day + n end
end
return {second, hour, day}
`;

type WithBudgetScripts = Redis & {
  budgetTake(s: string, m: string, c: string, ...args: (string | number)[]): Promise<unknown[]>;
  budgetAnnounce(c: string, ...args: (string | number)[]): Promise<number>;
  budgetDone(s: string, ticket: string, now: number): Promise<number>;
  budgetUsage(s: string, m: string, c: string, now: number): Promise<number[]>;
};

/**
 * Budgets on Redis, beside the queue under its prefix (a Cluster hash tag, so a key's three Redis
 * keys share a slot). Shared by every worker process on the Redis and kept across restarts.
 */
export function createRedisBudget(redis: Redis, prefix: string): BudgetStore {
  const r = redis as WithBudgetScripts;
  if (typeof r.budgetTake !== 'function') {
    redis.defineCommand('budgetTake', { numberOfKeys: 3, lua: TAKE });
    redis.defineCommand('budgetAnnounce', { numberOfKeys: 1, lua: ANNOUNCE });
    redis.defineCommand('budgetDone', { numberOfKeys: 1, lua: DONE });
    redis.defineCommand('budgetUsage', { numberOfKeys: 3, lua: USAGE });
  }
  const keys = (key: string) =>
    [`${prefix}:budget:${key}:s`, `${prefix}:budget:${key}:m`, `${prefix}:budget:${key}:c`] as const;
  return {
    async take(key, limits, now) {
      const ticket = randomUUID();
      const reply = await r.budgetTake(
        ...keys(key),
        Math.floor(now),
        limits.perSecond ?? 0,
        limits.perHour ?? 0,
        limits.perDay ?? 0,
        ticket,
      );
      if (Number(reply[0]) === 1) return { ok: true, ticket };
      return {
        ok: false,
        retryAt: Number(reply[1]),
        window: String(reply[2]) as BudgetWindow,
      } as BudgetAnswer;
    },
    async done(key, ticket, now) {
      await r.budgetDone(keys(key)[0], ticket, Math.floor(now));
    },
    async announce(key, ceiling, now) {
      await r.budgetAnnounce(
        keys(key)[2],
        ceiling.name,
        Math.floor(ceiling.remaining),
        Math.floor(ceiling.resetAt),
        Math.floor(now),
      );
    },
    async usage(key, now) {
      const [second = 0, hour = 0, day = 0] = (await r.budgetUsage(...keys(key), Math.floor(now))).map(
        Number,
      );
      return { second, hour, day };
    },
  };
}
