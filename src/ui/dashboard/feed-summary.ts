import type { FeedConfig } from '../../config/index.ts';
import { type OutcomeLabel, outcomeLabel, ownedAfter, type RunReport } from '../../reconcile/index.ts';
import { describeCron, nextRuns } from './schedule.ts';

/** The outcome as an operator says it: one definition (`outcomeLabel`, in reconcile's report). */
export { type OutcomeLabel, outcomeLabel };

export const OUTCOMES: readonly OutcomeLabel[] = [
  'ok',
  'partial',
  'failed',
  'cancelled',
  'guard tripped',
  'skipped',
  'paused',
  'never run',
];

/**
 * Records read, accepted (those that are listings: not rejected, not a removal, not an earlier
 * record of a repeated key), rejected, and listings held because their record was rejected.
 */
export function recordCounts(report: RunReport) {
  // Reports saved before `read` was counted: what the run accounted for.
  const read = report.read ?? report.created + report.updated + report.unchanged + report.rejected;
  const notListings = report.rejected + (report.removals ?? 0) + (report.duplicates ?? 0);
  return {
    read,
    accepted: Math.max(0, read - notListings),
    rejected: report.rejected,
    held: report.held ?? 0,
  };
}

/** What the feeds table shows of a feed's state: its last report, what it owns (`FeedState.owned`). */
export interface FeedRow {
  last?: RunReport;
  owned?: number;
  /**
   * When the last run skipped the unchanged feed: the last run that read it, whose rejections and
   * holds still stand (the overview said "all healthy" beside a listing still held).
   */
  lastRead?: RunReport;
}

/** One row of the feeds table. Pure: the config, the last report, the clock. */
export interface FeedSummary {
  id: string;
  chatbot: string;
  enabled: boolean;
  schedule?: { words: string; timezone: string; next?: Date };
  last?: RunReport;
  /** The last run that read the feed, when the last run skipped it (unchanged): the outcome and counts are its. */
  lastRead?: RunReport;
  outcome: OutcomeLabel;
  counts?: ReturnType<typeof recordCounts>;
  /** The feed's listings on the platform after the last run. */
  owned?: number;
  /** Not run for twice its interval since its last run (a feed never run is `never run`). */
  stale: boolean;
  /** Stands out in the table: failed, guard tripped or stale. */
  attention: boolean;
}

/**
 * `row`: the feed's last report, and what it owns after the last run whose report could tell
 * (`FeedState.owned`, `ownedAfter`: a run that skipped the unchanged feed, read it incrementally,
 * failed, paused or was cancelled leaves it). State saved before `owned` was: the last report's.
 */
export function summarizeFeed(feed: FeedConfig, row: FeedRow, now: Date): FeedSummary {
  const { last } = row;
  // A skipped run changed nothing: the feed stands where the last run that read it left it.
  const standing = last?.outcome === 'skipped' && row.lastRead ? row.lastRead : last;
  const outcome = outcomeLabel(standing);
  let schedule: FeedSummary['schedule'];
  let stale = false;
  if (feed.schedule) {
    const { cron, timezone } = feed.schedule;
    const runs = nextRuns(cron, timezone, now);
    schedule = { words: describeCron(cron), timezone, ...(runs ? { next: runs[0] } : {}) };
    if (runs && feed.enabled) {
      const interval = runs[1].getTime() - runs[0].getTime();
      // A feed never run is "never run", not stale: added a minute ago, its first run may be hours
      // away (a new user's fresh feeds all stood out as needing attention).
      const lastAt = last ? new Date(last.finishedAt).getTime() : undefined;
      stale = lastAt !== undefined && now.getTime() - lastAt > 2 * interval;
    }
  }
  const owned = row.owned ?? (last ? ownedAfter(last) : undefined);
  return {
    id: feed.id,
    chatbot: feed.chatbot,
    enabled: feed.enabled,
    ...(schedule ? { schedule } : {}),
    ...(last && standing ? { last, counts: recordCounts(standing) } : {}),
    ...(standing && standing !== last ? { lastRead: standing } : {}),
    ...(owned === undefined ? {} : { owned }),
    outcome,
    stale,
    attention: stale || outcome === 'failed' || outcome === 'guard tripped',
  };
}

export type SortKey = 'id' | 'chatbot' | 'outcome' | 'last' | 'next' | 'rejected';

/** Sorts rows by a column (`last`/`next` by time, `rejected` by count), ties by id. */
export function sortSummaries(rows: FeedSummary[], key: SortKey, descending: boolean): FeedSummary[] {
  const value = (r: FeedSummary): string | number => {
    switch (key) {
      case 'chatbot':
        return r.chatbot;
      case 'outcome':
        return OUTCOMES.indexOf(r.outcome);
      case 'last':
        return r.last ? Date.parse(r.last.finishedAt) : 0;
      case 'next':
        return r.schedule?.next?.getTime() ?? Number.MAX_SAFE_INTEGER;
      case 'rejected':
        return r.counts?.rejected ?? 0;
      default:
        return r.id;
    }
  };
  const sorted = [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const order = x < y ? -1 : x > y ? 1 : a.id.localeCompare(b.id);
    return descending ? -order : order;
  });
  return sorted;
}
