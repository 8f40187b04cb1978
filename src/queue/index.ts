/**
 * The worker's queue wiring: the store (Redis, Postgres or embedded PGlite: the queue, the state,
 * the shared limiter and the incidents on one connection), the job names and payloads, one run per
 * feed (deduplication). Schedulers from config are src/schedule/; the limiters the stores build are
 * src/http/distributed/; the service that runs the processors of jobs/ is jobs/worker-service.ts.
 */

export {
  enqueueConfigRun,
  enqueueFeedSync,
  enqueueResume,
  enqueueSettingsPush,
  type PushSettingsPayload,
  type SyncFeedPayload,
  type Trigger,
} from './enqueue.ts';
export {
  chatbotKey,
  DEFAULT_PREFIX,
  feedKey,
  isResumeKick,
  PUSH_SETTINGS,
  QUEUE_NAME,
  SYNC_FEED,
} from './names.ts';
export { openQueueStore } from './open-store.ts';
export {
  type PushSettingsJobData,
  pushSettingsPayloadSchema,
  type SyncFeedJobData,
  syncFeedPayloadSchema,
} from './payloads.ts';
export { readEmbeddedState, type StateReader } from './read-embedded-state.ts';
export { checkRedis, connectRedis, RedisUnavailableError } from './redis.ts';
export type { ConfigRefusal, RunMetrics, SchedulerStatus, WorkerService } from './service.ts';
export {
  describeStore,
  type QueueStore,
  type StoreChoice,
  StoreUnavailableError,
  storeChoiceOf,
} from './store.ts';
export { StoreLockedError } from './store-lock.ts';
