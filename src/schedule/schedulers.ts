import type { Queue } from 'bullmq';
import type { Config } from '../config/index.ts';
import { chatbotKey, feedKey, PUSH_SETTINGS, SYNC_FEED } from '../queue/index.ts';

export interface SchedulerChanges {
  upserted: string[];
  removed: string[];
}

interface WantedScheduler {
  id: string;
  name: string;
  pattern: string;
  tz: string;
  data: Record<string, unknown>;
}

/** The schedulers a config asks for: one per enabled feed and per chatbot with a schedule. Pure. */
export function wantedSchedulers(config: Config): WantedScheduler[] {
  const wanted: WantedScheduler[] = [];
  for (const feed of config.feeds) {
    if (!feed.schedule || !feed.enabled) continue;
    const { cron, timezone } = feed.schedule;
    wanted.push({
      id: feedKey(feed.id),
      name: SYNC_FEED,
      pattern: cron,
      tz: timezone,
      data: { feedId: feed.id, trigger: 'schedule' },
    });
  }
  for (const chatbot of config.chatbots) {
    if (!chatbot.schedule || !chatbot.settings) continue;
    const { cron, timezone } = chatbot.schedule;
    wanted.push({
      id: chatbotKey(chatbot.chatbot),
      name: PUSH_SETTINGS,
      pattern: cron,
      tz: timezone,
      data: { chatbot: chatbot.chatbot, trigger: 'schedule' },
    });
  }
  return wanted;
}

/**
 * Make the queue's job schedulers equal to the config: upsert every wanted one (an unchanged
 * upsert keeps its next run), remove every one the config no longer names.
 */
export async function applySchedulers(queue: Queue, config: Config): Promise<SchedulerChanges> {
  const wanted = wantedSchedulers(config);
  const wantedIds = new Set(wanted.map((w) => w.id));
  for (const w of wanted) {
    await queue.upsertJobScheduler(w.id, { pattern: w.pattern, tz: w.tz }, { name: w.name, data: w.data });
  }
  const removed: string[] = [];
  const existing = await queue.getJobSchedulers(0, -1);
  for (const scheduler of existing) {
    if (wantedIds.has(scheduler.key)) continue;
    await queue.removeJobScheduler(scheduler.key);
    removed.push(scheduler.key);
  }
  return { upserted: wanted.map((w) => w.id), removed };
}
