import { type BudgetStore, createMemoryBudget } from '../budget/index.ts';
import { appendRun, DEFAULT_HISTORY_RUNS, type HistoryOptions, type RunRecord } from './run-history.ts';

/**
 * State that must outlive a run. The worker keeps it in its queue store (Redis under the queue
 * prefix, or Postgres tables, src/state/postgres-store.ts); the one-shot CLI keeps it in a local
 * JSON file; tests use the in-memory store. One interface for all.
 */
export interface FeedState {
  /** Conditional-GET validators of the last successful run. */
  etag?: string;
  lastModified?: string;
  /** RESO incremental watermark: ISO timestamp of the newest ModificationTimestamp applied. */
  resoWatermark?: string;
  /** ISO time of the last full (non-incremental) run. */
  lastFullRunAt?: string;
  /** ISO time of the last run that compared the feed with the platform and ended ok. */
  lastCompareAt?: string;
  /** The last run report, as JSON. */
  lastReport?: unknown;
  /**
   * The feed's listings on the platform after the last run whose report could tell (a full compare
   * that ended ok or guarded, no write failed: `ownedAfter`): what the dashboard says a feed owns,
   * kept through later runs that skip the unchanged feed, read it incrementally, fail, pause or stop.
   */
  owned?: number;
  /**
   * Listings that left the feed and are not deleted yet (a `gone.afterDays` grace, a `markSold`, a
   * delete a guard held): key → ISO time of the run that first found it gone. The grace clock.
   */
  goneSince?: Record<string, string>;
  /**
   * A RESO replication under way (src/sources/formats/reso/checkpoint.ts): its query and its place after
   * the last page written, so a paused or killed first import goes on from there.
   */
  resoCheckpoint?: unknown;
  /** ISO time of the last completed RESO key sweep (listings that left the feed without a marker). */
  resoSweepAt?: string;
  /** A RESO key sweep is owed (a full read over several runs ended; the sweep after it did not finish). */
  resoSweepDue?: boolean;
  /** A RESO full read is owed: an incremental run found fewer of the feed's listings on the platform than it had. */
  resoFullDue?: boolean;
  /**
   * Listings a replace cleared fields of, by key: the fields (`PlannedUpdate.replace`), kept while
   * the next run finds them cleared, or finds the platform holding them again (it fills them itself:
   * not replaced again, `platform-fills`).
   */
  cleared?: Record<string, string[]>;
  /**
   * The keys of listings a run created without coordinates the feed sets on others
   * (`Plan.createdUnset`): one a later run finds holding them had them filled by the platform (a
   * geocoder), not sent, and is not replaced for it (`platform-fills`; its note then moves to
   * `cleared`). Kept while the listing is found without them and its record leaves them unset.
   */
  createdUnset?: string[];
  /**
   * The fields the feed's listings set (`DesiredIndex.clearable`'s own part), from its last full
   * read and the incremental ones since: an incremental run, which reads only the changed records,
   * clears in those too.
   */
  fieldsSet?: string[];
}

export interface StateStore {
  getFeed(feedId: string): Promise<FeedState>;
  /** Shallow-merge `patch` into the feed's state; a key set to undefined is removed. */
  updateFeed(feedId: string, patch: Partial<FeedState>): Promise<void>;
  getSettingsFingerprint(chatbot: string): Promise<string | undefined>;
  setSettingsFingerprint(chatbot: string, fingerprint: string): Promise<void>;
  /**
   * Save a finished run: it becomes the feed's `lastReport` and the newest entry of its history
   * (the last `historyRuns`). Recording the same run again (same `startedAt`) replaces it.
   */
  recordRun(feedId: string, report: RunRecord): Promise<void>;
  /** The feed's recorded runs, newest first, at most `limit`. */
  listRuns(feedId: string, limit?: number): Promise<unknown[]>;
  /**
   * Request budgets of provider keys (src/budget), kept where the state is: a RESO source counts
   * every request there before it sends it, across runs, restarts and worker processes.
   */
  readonly budgets?: BudgetStore;
}

export function createMemoryStateStore(options: HistoryOptions = {}): StateStore {
  const feeds = new Map<string, FeedState>();
  const fingerprints = new Map<string, string>();
  const runs = new Map<string, RunRecord[]>();
  const keep = options.historyRuns ?? DEFAULT_HISTORY_RUNS;
  return {
    budgets: createMemoryBudget(),
    async getFeed(feedId) {
      return { ...feeds.get(feedId) };
    },
    async updateFeed(feedId, patch) {
      feeds.set(feedId, mergeFeedState(feeds.get(feedId) ?? {}, patch));
    },
    async getSettingsFingerprint(chatbot) {
      return fingerprints.get(chatbot);
    },
    async setSettingsFingerprint(chatbot, fingerprint) {
      fingerprints.set(chatbot, fingerprint);
    },
    async recordRun(feedId, report) {
      feeds.set(feedId, mergeFeedState(feeds.get(feedId) ?? {}, { lastReport: report }));
      runs.set(feedId, appendRun(runs.get(feedId) ?? [], report, keep));
    },
    async listRuns(feedId, limit = keep) {
      return (runs.get(feedId) ?? []).slice(0, limit);
    },
  };
}

export function mergeFeedState(current: FeedState, patch: Partial<FeedState>): FeedState {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return next as FeedState;
}
