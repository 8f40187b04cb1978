import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { parseConfig } from '../../src/config/load.ts';
import type { Config } from '../../src/config/schema.ts';
import { emptyReport } from '../../src/reconcile/report.ts';
import type { RunReport } from '../../src/reconcile/report-types.ts';
import type { RunResult } from '../../src/reconcile/run-types.ts';
import { REDIS_URL } from '../helpers/services.ts';

export { REDIS_URL, testPrefix as uniquePrefix } from '../helpers/services.ts';

/** Delete every key under the prefix. */
export async function cleanupPrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

interface FeedSpec {
  id: string;
  cron?: string;
  timezone?: string;
  enabled?: boolean;
}

/** A config with file feeds (never read by the fake sync) and optional chatbots. */
export function testConfig(feeds: FeedSpec[], extra = ''): Config {
  const lines = ['api: { baseUrl: "http://127.0.0.1:9", concurrency: 4 }', 'feeds:'];
  for (const feed of feeds) {
    lines.push(`  - id: ${feed.id}`, '    chatbot: BOT1', '    source: { format: csv, path: /dev/null }');
    if (feed.enabled === false) lines.push('    enabled: false');
    if (feed.cron) lines.push(`    schedule: { cron: "${feed.cron}", timezone: ${feed.timezone ?? 'UTC'} }`);
  }
  if (feeds.length === 0) lines[1] = 'feeds: []';
  return parseConfig(`${lines.join('\n')}\n${extra}`);
}

/** A run report as the real sync would return it (one create, one list call), with overrides. */
export function fakeReport(feedId: string, overrides: Partial<RunReport> = {}): RunReport {
  const now = new Date();
  const apiCalls = { edit: 0, session: 0, ask: 0, create: 1, update: 0, list: 1, delete: 0 };
  const meta = { feedId, chatbot: 'BOT1', startedAt: now, finishedAt: now, apiCalls, dryRun: false };
  return { ...emptyReport(meta), created: 1, durationMs: 1, ...overrides };
}

/** A run result as the real sync would return it: the report, saved as the feed's last report. */
export function fakeRun(feedId: string, overrides: Partial<RunReport> = {}): RunResult {
  const report = fakeReport(feedId, overrides);
  return { report, state: report.dryRun ? {} : { lastReport: report } };
}

/** Poll until `check` returns a truthy value or time runs out. */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}
