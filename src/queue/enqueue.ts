import type { Queue } from 'bullmq';
import { chatbotKey, feedKey, PUSH_SETTINGS, SYNC_FEED } from './names.ts';
import type { PushSettingsPayload, SyncFeedPayload } from './payloads.ts';

export type { PushSettingsPayload, SyncFeedPayload, Trigger } from './payloads.ts';

/**
 * Queue a run of one feed. Deduplicated per feed with `keepLastIfActive`: while a run is active a
 * kick stores exactly one follow-up (the latest payload), and while one is waiting a kick is a no-op.
 * At most one active and one waiting run per feed, whatever the number of workers.
 */
export async function enqueueFeedSync(queue: Queue, payload: SyncFeedPayload): Promise<string | undefined> {
  const job = await queue.add(SYNC_FEED, payload, {
    deduplication: { id: feedKey(payload.feedId), keepLastIfActive: true },
  });
  return job.id;
}

/** Queue a settings push of one chatbot, deduplicated per chatbot like a feed run. */
export async function enqueueSettingsPush(
  queue: Queue,
  payload: PushSettingsPayload,
): Promise<string | undefined> {
  const job = await queue.add(PUSH_SETTINGS, payload, {
    deduplication: { id: chatbotKey(payload.chatbot), keepLastIfActive: true },
  });
  return job.id;
}
