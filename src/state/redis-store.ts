import type { Redis } from 'ioredis';
import type { FeedState, StateStore } from './state-store.ts';

/**
 * The worker's state, in Redis under the queue prefix (`{feed-sync}:state:…`) so it shares the
 * hash slot of the queue and survives restarts. A feed is a hash of JSON-encoded fields, so an
 * update touches only the fields it names and two writers never clobber each other's fields.
 */
export function createRedisStateStore(redis: Redis, prefix: string): StateStore {
  const feedKey = (feedId: string) => `${prefix}:state:feed:${feedId}`;
  const settingsKey = `${prefix}:state:settings`;

  return {
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
  };
}
