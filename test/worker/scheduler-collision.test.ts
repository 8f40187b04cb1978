import { setTimeout as sleep } from 'node:timers/promises';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { feedKey, openQueueStore, type QueueStore, SYNC_FEED } from '../../src/queue/index.ts';
import { applySchedulers, restoreSchedulers } from '../../src/schedule/index.ts';
import { redisAvailable } from '../helpers/services.ts';
import { cleanupPrefix, REDIS_URL, testConfig, uniquePrefix } from './helpers.ts';

/**
 * Several workers upserting one cron scheduler at once (`docker compose up --scale worker=3`, a
 * config reloaded while its feed syncs): BullMQ refuses an upsert whose iteration job already
 * exists (`SchedulerJobIdCollision`), and that refusal ended a worker. Made here for real: the job
 * of the second the upsert computes is there before it.
 */
let store: QueueStore | undefined;
let prefix = '';
afterEach(async () => {
  await store?.close();
  store = undefined;
  if (prefix) await cleanupPrefix(prefix);
});

/** Just after a second begins, so the second the upsert computes is the next one. */
async function startOfASecond(): Promise<number> {
  while (Date.now() % 1000 > 50) await sleep(5);
  return Math.floor(Date.now() / 1000) * 1000 + 1000;
}

/**
 * The job of `f1`'s scheduler for the second `at`, as another worker's upsert leaves it (a custom id
 * with `:` cannot be added through the queue: the job's hash is written where BullMQ looks for it).
 */
async function iterationExists(queue: Queue, at: number): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    await redis.hset(queue.toKey(`repeat:${feedKey('f1')}:${at}`), 'name', SYNC_FEED, 'data', '{}');
  } finally {
    redis.disconnect();
  }
}

describe.skipIf(!redisAvailable)('a scheduler upserted while its iteration job exists', () => {
  it('is in place once the collision passes, and the worker goes on', async () => {
    prefix = uniquePrefix();
    store = await openQueueStore({ kind: 'redis', url: REDIS_URL }, prefix);
    const queue = store.createQueue({ defaultJobOptions: { removeOnComplete: 10 } });
    const config = testConfig([{ id: 'f1', cron: '* * * * * *' }]);
    const next = await startOfASecond();
    // The iteration another worker's upsert made for the same second.
    await iterationExists(queue, next);
    await expect(applySchedulers(queue, config)).resolves.toMatchObject({ upserted: [feedKey('f1')] });
    expect(await queue.getJobScheduler(feedKey('f1'))).toMatchObject({ pattern: '* * * * * *' });
    // The guard that restores schedulers goes through the same upsert.
    await queue.removeJobScheduler(feedKey('f1'));
    const again = await startOfASecond();
    await iterationExists(queue, again);
    await expect(restoreSchedulers(queue, config)).resolves.toEqual([feedKey('f1')]);
    expect(await queue.getJobScheduler(feedKey('f1'))).toMatchObject({ pattern: '* * * * * *' });
  });
});
