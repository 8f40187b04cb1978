/**
 * The worker: one BullMQ processor per job kind (sync-feed, push-settings), the one table that maps
 * errors onto BullMQ's meaning, and the service that runs them on the store with the schedulers.
 */
export type { JobContext } from './job-context.ts';
export { mapJobError, PayloadError } from './map-error.ts';
export { createProcessor } from './processor.ts';
export { pushSettingsPayloadSchema } from './push-settings.ts';
export { syncFeedPayloadSchema } from './sync-feed.ts';
export type { WorkerService } from './worker-service.ts';
export { startWorkerService, type WorkerServiceOptions } from './worker-service.ts';
