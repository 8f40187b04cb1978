/**
 * The worker's queue wiring: the store (Redis, Postgres or embedded PGlite), schedulers from
 * config, one run per feed (deduplication), the limiter shared by every worker process. The
 * service that runs the processors of jobs/ is jobs/worker-service.ts.
 */

export { type WorkerSettings, workerSettingsOf, workerSettingsSchema } from '../config/worker-settings.ts';
export { createRedisLimiter, type RedisLimiterOptions } from '../http/distributed/redis-limiter.ts';
export { type ConfigRun, runsForConfigChange } from '../schedule/config-runs.ts';
export { reloadOnChange, watchConfig } from '../schedule/config-watch.ts';
export { missingSchedulers, restoreSchedulers } from '../schedule/scheduler-guard.ts';
export { applySchedulers, type SchedulerChanges, wantedSchedulers } from '../schedule/schedulers.ts';
export {
  enqueueConfigRun,
  enqueueFeedSync,
  enqueueSettingsPush,
  type PushSettingsPayload,
  type SyncFeedPayload,
  type Trigger,
} from './enqueue.ts';
export { chatbotKey, DEFAULT_PREFIX, feedKey, PUSH_SETTINGS, QUEUE_NAME, SYNC_FEED } from './names.ts';
export { openQueueStore } from './open-store.ts';
export { checkRedis, connectRedis, RedisUnavailableError } from './redis.ts';
export {
  describeStore,
  type QueueStore,
  type StoreChoice,
  StoreUnavailableError,
  storeChoiceOf,
} from './store.ts';
export { StoreLockedError } from './store-lock.ts';
export type { RunResult, SyncDeps, SyncFeed, SyncOptions, SyncProgress } from './sync-contract.ts';
