import type { Redis } from 'ioredis';
import { createRedisBudget } from '../budget/index.ts';
import { DEFAULT_HISTORY_RUNS, type HistoryOptions } from './run-history.ts';
import type { FeedState, StateStore } from './state-store.ts';

/**
 * Push a run on the feed's history list (newest first) and trim it, in one step; the same run
 * (same startedAt) recorded again replaces the head instead. KEYS[1] history list, KEYS[2] feed hash;
 * ARGV[1] report JSON, ARGV[2] startedAt, ARGV[3] runs kept.
 */
const RECORD_RUN = `
local head = redis.call('LINDEX', KEYS[1], 0)
if head and cjson.decode(head).startedAt == ARGV[2] then
  redis.call('LSET', KEYS[1], 0, ARGV[1])
else
  redis.call('LPUSH', KEYS[1], ARGV[1])
  redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[3]) - 1)
end
redis.call('HSET', KEYS[2], 'lastReport', ARGV[1])
return 1
`;

/**
 * The worker's state, in Redis under the queue prefix (`{feed-sync}:state:…`) so it shares the
 * hash slot of the queue and survives restarts. A feed is a hash of JSON-encoded fields, so an
 * update touches only the fields it names and two writers never clobber each other's fields.
 */
export function createRedisStateStore(
  redis: Redis,
  prefix: string,
  options: HistoryOptions = {},
): StateStore {
  const keep = Math.max(1, options.historyRuns ?? DEFAULT_HISTORY_RUNS);
  const feedKey = (feedId: string) => `${prefix}:state:feed:${feedId}`;
  const runsKey = (feedId: string) => `${prefix}:state:runs:${feedId}`;
  const settingsKey = `${prefix}:state:settings`;

  return {
    budgets: createRedisBudget(redis, prefix),
    async getFeed(feedId) {
      const raw = await redis.hgetall(feedKey(feedId));
      const state: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(raw)) state[field] = JSON.parse(value);
      return state as FeedState;
    },
    async updateFeed(feedId, patch) {
      const set: Record<string, string> = {};
      const removed: string[] = [];
      for (const [field, value] of Object.entries(patch)) {
        if (value === undefined) removed.push(field);
        else set[field] = JSON.stringify(value);
      }
      const multi = redis.multi();
      if (Object.keys(set).length > 0) multi.hset(feedKey(feedId), set);
      if (removed.length > 0) multi.hdel(feedKey(feedId), ...removed);
      await multi.exec();
    },
    async getSettingsFingerprint(chatbot) {
      return (await redis.hget(settingsKey, chatbot)) ?? undefined;
    },
    async setSettingsFingerprint(chatbot, fingerprint) {
      await redis.hset(settingsKey, chatbot, fingerprint);
    },
    async recordRun(feedId, report) {
      const json = JSON.stringify(report);
      await redis.eval(RECORD_RUN, 2, runsKey(feedId), feedKey(feedId), json, report.startedAt, keep);
    },
    async listRuns(feedId, limit = keep) {
      const raw = await redis.lrange(runsKey(feedId), 0, Math.max(0, limit - 1));
      return raw.map((value) => JSON.parse(value) as unknown);
    },
  };
}
