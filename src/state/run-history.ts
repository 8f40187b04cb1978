/**
 * The per-feed run history: the last `historyRuns` run reports, newest first. Pure helpers shared
 * by the three stores, so they keep the same rules.
 */

/** What the history needs of a report; the full `RunReport` of src/reconcile is stored as is. */
export interface RunRecord {
  feedId: string;
  /** ISO time: identifies a run, so recording one run twice replaces it instead of adding it again. */
  startedAt: string;
}

/** Runs kept per feed when no retention is given (`worker.historyRuns`). */
export const DEFAULT_HISTORY_RUNS = 50;

export interface HistoryOptions {
  /** Runs kept per feed, newest first. Default 50. */
  historyRuns?: number;
}

/**
 * The history after recording `run`: the same run (same `startedAt`) recorded again replaces the
 * newest entry, so the report saved by the run and again by its caller is one entry.
 */
export function appendRun<T extends RunRecord>(history: readonly T[], run: T, keep: number): T[] {
  const rest = history[0]?.startedAt === run.startedAt ? history.slice(1) : history;
  return [run, ...rest].slice(0, Math.max(1, keep));
}
