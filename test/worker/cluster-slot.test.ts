import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PREFIX } from '../../src/config/index.ts';
import { enqueueFeedSync, openQueueStore, type QueueStore } from '../../src/queue/index.ts';
import { applySchedulers } from '../../src/schedule/index.ts';
import { redisAvailable } from '../helpers/services.ts';
import { cleanupPrefix, fakeReport, REDIS_URL, testConfig, uniquePrefix, waitFor } from './helpers.ts';

/**
 * Redis Cluster (issue 23 §4): BullMQ's scripts touch several keys at once, and a cluster runs a
 * multi-key script only when every key is in one hash slot. The prefix is a hash tag (`{…}`), so every
 * key the worker writes (queue, schedulers, state, run history, limiter, budgets, incidents) shares
 * the slot of the tag: checked here on every key a worker's store leaves, by Redis's own slot function.
 */

/** CRC16-XMODEM of the key's hash tag (or the whole key), mod 16384: Redis Cluster's key slot. */
function slotOf(key: string): number {
  const open = key.indexOf('{');
  const close = open >= 0 ? key.indexOf('}', open + 1) : -1;
  const tagged = close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of Buffer.from(tagged)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

let store: QueueStore | undefined;
let prefix = '';
afterEach(async () => {
  await store?.close();
  store = undefined;
  if (prefix) await cleanupPrefix(prefix);
});

describe('every key in one Redis Cluster slot', () => {
  it('the slot function is Redis Cluster’s (CLUSTER KEYSLOT foo is 12182)', () => {
    expect(slotOf('foo')).toBe(12182);
    expect(slotOf('{foo}:anything')).toBe(12182);
    expect(slotOf('{}foo')).not.toBe(slotOf('{}bar'));
    expect(DEFAULT_PREFIX).toMatch(/^\{[^{}]+\}$/);
  });

  it.skipIf(!redisAvailable)('the worker’s store writes only keys of its prefix’s slot', async () => {
    prefix = uniquePrefix();
    store = await openQueueStore({ kind: 'redis', url: REDIS_URL }, prefix);
    const queue = store.createQueue({ defaultJobOptions: { removeOnComplete: 10 } });
    const config = testConfig([{ id: 'f1', cron: '0 3 * * *' }]);
    await applySchedulers(queue, config);
    await enqueueFeedSync(queue, { feedId: 'f1', trigger: 'manual' });
    const worker = store.createWorker(async () => 'done', { concurrency: 1 });
    await waitFor(async () => (await queue.getJobCountByTypes('completed')) === 1, 10_000, 'the job');
    await worker.close();
    await store.createLimiter({ concurrency: 2, requestsPerSecond: 5 }).run(async () => 'called');
    await store.state.updateFeed('f1', { lastFullRunAt: new Date(0).toISOString() });
    await store.state.recordRun('f1', fakeReport('f1'));
    await store.state.setSettingsFingerprint('BOT1', 'abc');
    await store.state.budgets?.take('mls-key', { perSecond: 2 }, Date.now());
    await store.incidents.open('f1:failed');
    await queue.close();

    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    redis.disconnect();
    expect(keys.length).toBeGreaterThan(10);
    // Queue, scheduler, state, history, limiter, budget and incident keys alike.
    for (const family of [':feed-sync:', ':state:feed:', ':state:runs:', ':limiter:', ':budget:', ':alerts:'])
      expect(
        keys.some((key) => key.includes(family)),
        family,
      ).toBe(true);
    expect(new Set(keys.map(slotOf))).toEqual(new Set([slotOf(prefix)]));
  });
});
