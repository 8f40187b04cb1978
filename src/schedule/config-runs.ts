import { canonicalJson } from '../canonical-json.ts';
import type { Config, FeedConfig } from '../config/index.ts';

/** A feed to run because the config changed, and why (for the log). */
export interface ConfigRun {
  feedId: string;
  /** `mapping, source changed`, `new feed`, `api.baseUrl changed`… */
  why: string;
}

/**
 * Keys of a feed's entry that say when it runs (or compares), not what a run writes: a change of
 * them alone runs nothing (the scheduler is updated). `enabled` is looked at on its own (a disabled feed never runs).
 */
const WHEN_KEYS: ReadonlySet<string> = new Set(['schedule', 'enabled', 'fullCompareEveryHours']);

/**
 * Keys of `api` that say how fast a run goes, not what it reads or writes: a change of them alone
 * runs nothing (the limiter and the client are rebuilt).
 */
const PACE_KEYS: ReadonlySet<string> = new Set(['concurrency', 'requestsPerSecond', 'timeoutMs', 'retries']);

/**
 * The feeds a config change should run now, with `trigger: 'config'`, so the user who fixed a
 * mapping sees the result without waiting for the cron. Pure.
 *
 * - a feed whose entry changed (mapping, source, key, chatbot, ownership, guards… anything but its
 *   schedule), and a feed new in the config or enabled again;
 * - every feed, when a global setting that decides what a run does changed: `ownerKey`, or `api`
 *   (where and as whom it writes, page and batch sizes; not its pace: concurrency, requests per
 *   second, timeouts, retries).
 *
 * A disabled feed is never run; a removed one loses its scheduler and nothing more.
 */
export function runsForConfigChange(previous: Config, next: Config): ConfigRun[] {
  const global = changedKeys(previous.api, next.api, PACE_KEYS).map((key) => `api.${key}`);
  if (canonicalJson(previous.ownerKey) !== canonicalJson(next.ownerKey)) global.push('ownerKey');
  const before = new Map(previous.feeds.map((feed) => [feed.id, feed]));
  const runs: ConfigRun[] = [];
  for (const feed of next.feeds) {
    if (!feed.enabled) continue;
    const old = before.get(feed.id);
    const why = !old ? 'new feed' : !old.enabled ? 'enabled' : feedChange(old, feed);
    if (why) runs.push({ feedId: feed.id, why });
    else if (global.length > 0) runs.push({ feedId: feed.id, why: `${global.join(', ')} changed` });
  }
  return runs;
}

function feedChange(old: FeedConfig, feed: FeedConfig): string | undefined {
  const keys = changedKeys(old, feed, WHEN_KEYS);
  return keys.length > 0 ? `${keys.join(', ')} changed` : undefined;
}

/** Top-level keys whose values differ (deeply, whatever the order of object keys), but `ignore`. */
function changedKeys(a: object, b: object, ignore: ReadonlySet<string>): string[] {
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])];
  return keys.filter((key) => !ignore.has(key) && canonicalJson(left[key]) !== canonicalJson(right[key]));
}
