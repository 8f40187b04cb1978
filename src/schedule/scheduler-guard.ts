import type { Queue } from 'bullmq';
import type { Config } from '../config/index.ts';
import { upsertScheduler, wantedSchedulers } from './schedulers.ts';

/**
 * The schedulers the config asks for that the queue does not hold as asked (absent, or with
 * another pattern or zone): lost with a Redis restarted without persistence, or removed by hand
 * in the queue UI. Config is the source of truth.
 */
export async function missingSchedulers(queue: Queue, config: Config): Promise<string[]> {
  const held = new Map((await queue.getJobSchedulers(0, -1)).map((s) => [s.key, s]));
  return wantedSchedulers(config)
    .filter((w) => {
      const s = held.get(w.id);
      return !s || s.pattern !== w.pattern || (s.tz ?? 'UTC') !== w.tz;
    })
    .map((w) => w.id);
}

/** Re-create the missing ones; returns their ids (empty when every scheduler was in place). */
export async function restoreSchedulers(queue: Queue, config: Config): Promise<string[]> {
  const missing = new Set(await missingSchedulers(queue, config));
  for (const w of wantedSchedulers(config)) {
    if (missing.has(w.id)) await upsertScheduler(queue, w);
  }
  return [...missing];
}
