import type { FeedState, StateStore } from '../state/index.ts';
import { type ApplyResult, applyPlan } from './apply.ts';
import { countingClient } from './counting-client.ts';
import { DEFAULT_HASH_KEY } from './ownership.ts';
import { prepareRun } from './prepare-run.ts';
import { outcomeLabel, ownedAfter, reportOf } from './report.ts';
import { failedCountOf, type RunReport } from './report-types.ts';
import type { RunConfig, RunFeedSpec } from './run-config.ts';
import type { PreparedRun, RunResult, SyncDeps, SyncOptions } from './run-types.ts';

/** A run that has made its plan (or stopped before one), and what finishes it. */
export interface PlannedRun {
  /** What the run learned before writing: its plan, when it made one. Reads only. */
  prepared: PreparedRun;
  /**
   * Apply the plan (unless a dry run, or stopped), report, and free the run's records: the
   * `RunResult`. Once; the records of `prepared` are readable until then.
   */
  finish(): Promise<RunResult>;
}

/**
 * The first half of a run: `prepareRun` (ingest, snapshot, plan: reads only), with the clock and the
 * call counts of the whole run started. `feed-sync plan` renders `prepared.plan` and finishes as a
 * dry run; the demo shows the plan before it finishes; `syncFeed` finishes at once.
 */
export async function planRun(
  config: RunConfig,
  feed: RunFeedSpec,
  deps: SyncDeps,
  options: SyncOptions = {},
): Promise<PlannedRun> {
  const now = deps.now ?? (() => new Date());
  const startedAt = now();
  // How long the run took, by the monotonic clock its phases are read on: a run at a clock of the
  // user's (`sync --now`) holds `now` still.
  const elapsed = deps.elapsed ?? (() => performance.now());
  const runFrom = elapsed();
  const { client, calls, failed: callsFailed } = countingClient(deps.client);
  const prepared = await prepareRun(config, feed, client, deps, options);
  let finished = false;
  return {
    prepared,
    finish: async () => {
      if (finished) throw new Error('planRun: finish() was called twice');
      finished = true;
      const writesFrom = elapsed();
      const applied = await applyPrepared(config, feed, prepared, client, deps, options);
      // A dry run (or a run stopped before its writes) made none: 0.
      const writesMs = applied === undefined ? 0 : elapsed() - writesFrom;
      const meta = {
        feedId: feed.id,
        chatbot: feed.chatbot,
        startedAt,
        finishedAt: now(),
        apiCalls: calls,
        apiCallsFailed: callsFailed,
        writesMs,
        durationMs: Math.round(elapsed() - runFrom),
      };
      const trigger = options.trigger ?? 'manual';
      const dryRun = options.dryRun ?? false;
      const report = reportOf(prepared, applied, { ...meta, trigger, dryRun });
      deps.onProgress?.({ phase: 'done', done: 0, total: 0 });
      logFinished(deps, report);
      const state = dryRun
        ? {}
        : { ...stateOf(prepared, report, now(), options), ...clockOf(prepared, applied) };
      return { report, state, ...(prepared.kind === 'failed' ? { error: prepared.error } : {}) };
    },
  };
}

/**
 * One run for one feed: `prepareRun` (ingest, snapshot, plan: reads only) → `applyPlan` (the only
 * writes) → `reportOf` (pure). Data and platform problems end in a report, never a throw;
 * programming and config errors throw. Nothing is saved here: the caller that owns the state store
 * saves `result.state` (`saveRun`), so a run's state is written once, in one place (`runAndSave`).
 */
export async function syncFeed(
  config: RunConfig,
  feed: RunFeedSpec,
  deps: SyncDeps,
  options: SyncOptions = {},
): Promise<RunResult> {
  return (await planRun(config, feed, deps, options)).finish();
}

/** A run: what the CLI, the worker's job, the dashboard's Run now and the demo start. `syncFeed` in production. */
export type RunFeed = typeof syncFeed;

/**
 * A run, and its state saved: the one way the CLI, the worker's job (the dashboard's Run now is a
 * job) and the demo run a feed. `run` is `syncFeed` unless a test says otherwise.
 */
export async function runAndSave(
  config: RunConfig,
  feed: RunFeedSpec,
  deps: SyncDeps & { state: StateStore },
  options: SyncOptions = {},
  run: RunFeed = syncFeed,
): Promise<RunResult> {
  const result = await run(config, feed, deps, options);
  await saveRun(deps.state, result);
  return result;
}

/** The writes of a planned run (none for a dry run, or a stopped one); its records freed either way. */
async function applyPrepared(
  config: RunConfig,
  feed: RunFeedSpec,
  prepared: PreparedRun,
  client: SyncDeps['client'],
  deps: SyncDeps,
  options: SyncOptions,
): Promise<ApplyResult | undefined> {
  if (prepared.kind !== 'planned') return undefined;
  try {
    if (options.dryRun || deps.signal?.aborted) return undefined;
    const { plan } = prepared;
    const batch = Math.max(1, config.api.deleteBatchSize);
    const total = plan.updates.length + plan.creates.length + Math.ceil(plan.deletes.length / batch);
    deps.onProgress?.({ phase: 'applying', done: 0, total });
    return await applyPlan(client, plan, {
      chatbot: feed.chatbot,
      tags: { ownerKey: config.ownerKey, hashKey: DEFAULT_HASH_KEY },
      loader: prepared.loader,
      concurrency: config.api.concurrency,
      deleteBatchSize: config.api.deleteBatchSize,
      signal: deps.signal,
      onProgress: (done, of) => deps.onProgress?.({ phase: 'applying', done, total: of }),
    });
  } finally {
    prepared.close();
  }
}

/**
 * The feed state a run leaves: always its report; the source state (validators, watermark) only
 * after a run that succeeded, so a failed or guarded run fetches in full next time; and when it
 * compared with the platform, the time of that compare.
 */
export function stateOf(
  prepared: PreparedRun,
  report: RunReport,
  at: Date,
  options: Pick<SyncOptions, 'recordCompare'> = {},
): Partial<FeedState> {
  const state: Partial<FeedState> = { lastReport: report };
  // What the feed owns after a run whose report can tell; any other leaves the last one's.
  const owned = ownedAfter(report);
  if (owned !== undefined) state.owned = owned;
  // A run that wrote and cannot tell what it left (a failed write): the count is unknown, not the
  // last one (which would read as listings deleted on the platform).
  else if (!report.dryRun && (report.created > 0 || report.deleted > 0 || failedCountOf(report) > 0))
    state.owned = undefined;
  if (prepared.kind === 'skipped') return { ...prepared.ingest.sourceState, ...state };
  // A run stopped by its provider's budget keeps its source state: its place in the feed.
  if (report.outcome === 'paused') return { ...prepared.ingest?.sourceState, ...state };
  // A run that did not end ok forgets the validators and the last compare, so the next run,
  // scheduled or not, reads the feed in full and compares again instead of skipping it.
  if (prepared.kind !== 'planned' || report.outcome !== 'ok')
    return { ...state, etag: undefined, lastModified: undefined, lastCompareAt: undefined };
  // A run at a clock of the user's (`--now`) keeps no compare time: a `sync --now` in the future
  // must not make scheduled runs skip until then.
  if (options.recordCompare === false) return { ...prepared.ingest.sourceState, ...state };
  const full = prepared.ingest.mode === 'full' ? { lastFullRunAt: at.toISOString() } : {};
  return { ...prepared.ingest.sourceState, ...full, lastCompareAt: at.toISOString(), ...state };
}

/**
 * The grace clock a planned run leaves (`goneSince`): the plan's, less the listings it deleted. A
 * delete that failed or was not issued keeps its clock, so the next run deletes it at once. A run
 * that made no plan leaves the clock as it was.
 */
export function clockOf(prepared: PreparedRun, applied: ApplyResult | undefined): Partial<FeedState> {
  if (prepared.kind !== 'planned') return {};
  const next = { ...prepared.plan.goneSince };
  if (applied) {
    const notDone = new Set([...applied.notApplied.deletes, ...applied.failedDeletes]);
    for (const d of prepared.plan.deletes) if (!notDone.has(d.key)) delete next[d.key];
  }
  // What this run's replaces cleared, and what the platform filled again since an earlier one's:
  // a listing holding either next run is not replaced again (`PlanPolicy.clearedBefore`).
  const cleared = { ...prepared.plan.clearedNotes, ...applied?.cleared };
  return {
    goneSince: Object.keys(next).length > 0 ? next : undefined,
    cleared: Object.keys(cleared).length > 0 ? cleared : undefined,
    // Creates left without coordinates the feed sets on others, until the platform fills them.
    createdUnset: createdNotes(prepared.plan.createdUnset, applied),
    ...(prepared.fieldsSet ? { fieldsSet: prepared.fieldsSet } : {}),
  };
}

/**
 * The plan's notes of creates left without coordinates (`Plan.createdUnset`), less the creates that
 * did not happen: not issued, or refused (a create in doubt, `E_AMBIGUOUS`, may have happened: kept).
 * The next run creates those again and notes them anew (a reviewer: a refused create kept a note).
 */
function createdNotes(notes: string[] | undefined, applied: ApplyResult | undefined): string[] | undefined {
  if (notes === undefined || applied === undefined) return notes;
  // A plain create's failure (no ID: a replace's create names the listing it replaces).
  const failed = applied.failures.filter(
    (f) => f.operation === 'create' && f.id === undefined && f.code !== 'E_AMBIGUOUS',
  );
  if (failed.length === 0 && applied.notApplied.creates.length === 0) return notes;
  const notMade = new Set([...applied.notApplied.creates, ...failed.map((f) => f.key)]);
  const kept = notes.filter((key) => !notMade.has(key));
  return kept.length > 0 ? kept : undefined;
}

/** Save what a run leaves in the feed's state: the one place a run's state is written. */
export async function saveRun(store: StateStore, result: RunResult): Promise<void> {
  if (Object.keys(result.state).length > 0) await store.updateFeed(result.report.feedId, result.state);
  if (result.state.lastReport) await store.recordRun(result.report.feedId, result.report);
}

function logFinished(deps: SyncDeps, report: RunReport): void {
  const { feedId, chatbot, reason, created, updated, deleted, unchanged, held, durationMs, phases } = report;
  // The outcome as the dashboard says it: a run with rejected or held records is `partial`.
  const outcome = outcomeLabel(report);
  const level =
    outcome === 'ok' || outcome === 'partial' || outcome === 'skipped' || outcome === 'paused'
      ? 'info'
      : 'warn';
  deps.logger[level](
    {
      feedId,
      chatbot,
      outcome,
      reason,
      created,
      updated,
      deleted,
      unchanged,
      held,
      failed: failedCountOf(report),
      durationMs,
      ...(phases ? { phases } : {}),
    },
    report.dryRun ? 'plan finished' : 'sync finished',
  );
}
