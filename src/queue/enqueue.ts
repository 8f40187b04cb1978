import type { Queue } from 'bullmq';
import { chatbotKey, feedKey, PUSH_SETTINGS, resumeKickId, SYNC_FEED } from './names.ts';
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

/** The shortest wait of a resume kick (see `enqueueResume`). */
export const MIN_RESUME_DELAY_MS = 2000;

/**
 * Queue the run that goes on with a feed its provider's budget paused (`resumesAt`, RESO): a
 * kick delayed until then, which hands over to the feed's deduplicated run when it fires (as a
 * scheduler tick does), trigger `resume`. Not deduplicated itself while it waits, so a Run now or a
 * scheduled run meanwhile still runs at once. One kick per feed (`resumeKickId`): a run paused again
 * moves the waiting kick to its own `resumesAt`; a kick that already ended is replaced. Returns its id.
 */
export async function enqueueResume(
  queue: Queue,
  feedId: string,
  resumesAt: string,
  now = Date.now(),
): Promise<string | undefined> {
  const at = Date.parse(resumesAt);
  if (!Number.isFinite(at)) throw new RangeError(`resumesAt is not a time: ${resumesAt}`);
  let jobId = resumeKickId(feedId);
  // At least a moment: the run that paused holds the feed's run until it has ended, and a kick
  // finding a run of the feed hands over to none (`resumeSkipped` in jobs/sync-feed.ts).
  const delay = Math.max(MIN_RESUME_DELAY_MS, at - now);
  const existing = await queue.getJob(jobId);
  if (existing) {
    const state = await existing.getState();
    if (state === 'delayed') {
      const moved = await existing.changeDelay(delay).then(
        () => true,
        () => false,
      );
      if (moved) return existing.id;
    }
    if (state === 'completed' || state === 'failed') await existing.remove().catch(() => {});
    // Still there (firing right now): this pause gets a kick of its own.
    if (await queue.getJob(jobId)) jobId = `${jobId}-${at}`;
  }
  const job = await queue.add(SYNC_FEED, { feedId, trigger: 'resume' } satisfies SyncFeedPayload, {
    jobId,
    delay,
  });
  return job.id;
}

/** Job states in which a run has not started yet: it will read the config as it is when it starts. */
const NOT_STARTED = new Set(['waiting', 'prioritized', 'delayed', 'waiting-children']);

/**
 * Queue a run of one feed because its config changed (`trigger: 'config'`), the way a manual run
 * is queued. A run of the feed already waiting makes this kick a no-op (deduplication); that run
 * will read the new config, and a scheduled one is marked `config` here, so it cannot skip the
 * feed as unchanged when only its mapping changed. A run already active gets this one as its follow-up.
 */
export async function enqueueConfigRun(queue: Queue, feedId: string): Promise<string | undefined> {
  const id = await enqueueFeedSync(queue, { feedId, trigger: 'config' });
  const job = id === undefined ? undefined : await queue.getJob(id);
  const data = job?.data as SyncFeedPayload | undefined;
  if (job && data?.trigger === 'schedule' && NOT_STARTED.has(await job.getState()))
    await job.updateData({ ...data, trigger: 'config' });
  return id;
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
