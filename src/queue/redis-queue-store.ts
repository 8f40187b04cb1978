import { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedisIncidentStore } from '../alerts/index.ts';
import { createRedisLimiter } from '../http/index.ts';
import type { HistoryOptions } from '../state/index.ts';
import { createRedisStateStore } from '../state/index.ts';
import { QUEUE_NAME } from './names.ts';
import { checkRedis, connectRedis } from './redis.ts';
import { type QueueStore, redactUrl } from './store.ts';

/**
 * The Redis store: BullMQ's default backend, state as hashes and the limiter as sorted sets under
 * the prefix (a Cluster hash tag, so every key shares a slot). Throws `RedisUnavailableError`
 * (one line) when Redis cannot be reached.
 */
export async function openRedisStore(
  url: string,
  prefix: string,
  history: HistoryOptions = {},
): Promise<QueueStore> {
  await checkRedis(url);
  const redis = connectRedis(url, 'feed-sync');
  const reconnectListeners: Array<() => void> = [];
  let connectedOnce = false;
  // 'ready' again after the first one: the connection came back, and a Redis restarted without
  // persistence has lost what it held.
  redis.on('ready', () => {
    if (connectedOnce) for (const listener of reconnectListeners) listener();
    connectedOnce = true;
  });
  redis.on('error', () => {
    // Reported by the worker's health; ioredis reconnects by itself.
  });
  if (redis.status === 'ready') connectedOnce = true;
  let limiterRedis: Redis | undefined;

  return {
    kind: 'redis',
    where: redactUrl(url),
    shared: true,
    state: createRedisStateStore(redis, prefix, history),
    incidents: createRedisIncidentStore(redis, prefix),
    // A connection of its own: a slot's take and release never wait behind the queue's commands
    // (64 runs' progress, locks, logs and state on the shared one) while the platform's slot idles.
    createLimiter: (options) => {
      if (!limiterRedis) {
        limiterRedis = connectRedis(url, 'feed-sync-limiter');
        // Once per connection (a limiter is made again on every change of the api section).
        limiterRedis.on('error', () => {});
      }
      return createRedisLimiter(limiterRedis, { prefix, ...options });
    },
    createQueue: (options = {}) => new Queue(QUEUE_NAME, { ...options, connection: redis, prefix }),
    createWorker: (processor, options) =>
      new Worker(QUEUE_NAME, processor, { ...options, connection: redis, prefix }),
    createQueueEvents: () => new QueueEvents(QUEUE_NAME, { connection: { url }, prefix }),
    ping: () =>
      Promise.race([
        redis.ping().then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => setTimeout(resolve, 1000, false).unref()),
      ]),
    onReconnect: (listener) => {
      reconnectListeners.push(listener);
    },
    async close() {
      await limiterRedis?.quit().catch(() => limiterRedis?.disconnect());
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
