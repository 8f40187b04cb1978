import { type Job, UnrecoverableError } from 'bullmq';
import { PUSH_SETTINGS, SYNC_FEED } from '../src/queue/index.ts';
import type { JobContext } from './job-context.ts';
import { createPushSettingsProcessor } from './push-settings.ts';
import { createSyncFeedProcessor } from './sync-feed.ts';

/** The worker's processor: dispatches on the job name. Declares `signal` so BullMQ passes one. */
export function createProcessor(ctx: JobContext) {
  const processors: Record<string, (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>> = {
    [SYNC_FEED]: createSyncFeedProcessor(ctx),
    [PUSH_SETTINGS]: createPushSettingsProcessor(ctx),
  };
  return async function process(job: Job, token?: string, signal?: AbortSignal): Promise<unknown> {
    const processor = processors[job.name];
    if (!processor) {
      throw new UnrecoverableError(
        `unknown job "${job.name}" (known: ${Object.keys(processors).join(', ')})`,
      );
    }
    return processor(job, token, signal);
  };
}
