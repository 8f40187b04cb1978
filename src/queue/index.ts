/**
 * The worker: a BullMQ queue on `{feed-sync}`, the processors of jobs/, schedulers from config,
 * one run per feed (deduplication), the Redis limiter shared by every worker process.
 */
export { reloadOnChange, watchConfig } from './config-watch.ts';
export {
  enqueueFeedSync,
  enqueueSettingsPush,
  type PushSettingsPayload,
  type SyncFeedPayload,
  type Trigger,
} from './enqueue.ts';
export { chatbotKey, DEFAULT_PREFIX, feedKey, PUSH_SETTINGS, QUEUE_NAME, SYNC_FEED } from './names.ts';
export { checkRedis, connectRedis, RedisUnavailableError } from './redis.ts';
export { createRedisLimiter, type RedisLimiterOptions } from './redis-limiter.ts';
export { applySchedulers, type SchedulerChanges, wantedSchedulers } from './schedulers.ts';
export type { RunResult, SyncDeps, SyncFeed, SyncOptions, SyncProgress } from './sync-contract.ts';
export { startWorkerService, type WorkerService, type WorkerServiceOptions } from './worker-service.ts';
export { type WorkerSettings, workerSettingsOf, workerSettingsSchema } from './worker-settings.ts';
