import type { Job } from 'bullmq';
import {
  enqueueSettingsPush,
  type PushSettingsJobData,
  pushSettingsPayloadSchema,
} from '../src/queue/index.ts';
import { type PushResult, pushSettings } from '../src/settings/index.ts';
import type { JobContext } from './job-context.ts';
import { mapJobError } from './map-error.ts';
import { parsePayload } from './sync-feed.ts';

export { type PushSettingsJobData, pushSettingsPayloadSchema };

export type PushSettingsResult =
  | PushResult
  | { chatbot: string; forwardedTo: string | undefined }
  | { chatbot: string; outcome: 'skipped'; reason: string };

/** `push-settings`: one chatbot's settings from config, pushed when changed since the last push or forced. */
export function createPushSettingsProcessor(ctx: JobContext) {
  return async function pushSettingsJob(
    job: Job,
    _token?: string,
    signal?: AbortSignal,
  ): Promise<PushSettingsResult> {
    try {
      const payload = parsePayload(pushSettingsPayloadSchema, job.data);
      if (!job.deduplicationId) {
        const forwardedTo = await enqueueSettingsPush(ctx.queue, payload);
        await job.log(`forwarded to job ${forwardedTo ?? '(follow-up of the active push)'}`);
        return { chatbot: payload.chatbot, forwardedTo };
      }
      const chatbot = ctx.getConfig().chatbots.find((c) => c.chatbot === payload.chatbot);
      if (!chatbot)
        return {
          chatbot: payload.chatbot,
          outcome: 'skipped',
          reason: 'chatbot is not in the config',
        };
      const deps = {
        client: ctx.client,
        state: ctx.state,
        // The chatbot is named by pushSettings' own lines (also the CLI's): not bound twice.
        logger: ctx.logger.child({ job: job.id }),
        signal: signal ? AbortSignal.any([signal, ctx.shutdownSignal]) : ctx.shutdownSignal,
      };
      const result = await pushSettings(chatbot, deps, { force: payload.force ?? false });
      await job.log(`${result.outcome}${result.fields.length ? `: ${result.fields.join(', ')}` : ''}`);
      return result;
    } catch (error) {
      throw await mapJobError(error, ctx.rateLimit);
    }
  };
}
