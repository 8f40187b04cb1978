import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode, type Queue } from 'bullmq';
import type { Config } from '../config/index.ts';
import { chatbotKey, feedKey, PUSH_SETTINGS, SYNC_FEED } from '../queue/index.ts';

export interface SchedulerChanges {
  upserted: string[];
  removed: string[];
}

export interface WantedScheduler {
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

/** Attempts at an upsert that collides with its scheduler's own iteration (see `upsertScheduler`). */
const COLLISION_ATTEMPTS = 5;

/**
 * Upsert one job scheduler. BullMQ refuses a cron scheduler's upsert when the job of the time it
 * computes already exists and cannot be replaced (`SchedulerJobIdCollision`): another worker upserted
 * it in the same instant, or that iteration is running now (several workers starting together, a
 * config reloaded while a feed syncs). Then the scheduler is in place when the queue holds it as
 * asked; otherwise the upsert is tried again a moment later. Any other error is thrown, as is a
 * collision that outlasts the attempts. Before, the collision ended the worker (three workers
 * started at once on a one-second cron: one exited).
 */
export async function upsertScheduler(queue: Queue, w: WantedScheduler): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await queue.upsertJobScheduler(w.id, { pattern: w.pattern, tz: w.tz }, { name: w.name, data: w.data });
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== ErrorCode.SchedulerJobIdCollision) throw error;
      const held = await queue.getJobScheduler(w.id);
      if (held?.pattern === w.pattern && (held.tz ?? 'UTC') === w.tz && held.name === w.name) return;
      if (attempt >= COLLISION_ATTEMPTS) throw error;
      await sleep(100 * attempt);
    }
  }
}

/**
 * Make the queue's job schedulers equal to the config: upsert every wanted one (an unchanged
 * upsert keeps its next run), remove every one the config no longer names.
 */
export async function applySchedulers(queue: Queue, config: Config): Promise<SchedulerChanges> {
  const wanted = wantedSchedulers(config);
  const wantedIds = new Set(wanted.map((w) => w.id));
  for (const w of wanted) await upsertScheduler(queue, w);
  const removed: string[] = [];
  const existing = await queue.getJobSchedulers(0, -1);
  for (const scheduler of existing) {
    if (wantedIds.has(scheduler.key)) continue;
    await queue.removeJobScheduler(scheduler.key);
    removed.push(scheduler.key);
  }
  return { upserted: wanted.map((w) => w.id), removed };
}
