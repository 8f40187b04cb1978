import type { FeedState, StateStore } from '../state/index.ts';
import { type ApplyResult, applyPlan } from './apply.ts';
import { countingClient } from './counting-client.ts';
import { DEFAULT_HASH_KEY } from './ownership.ts';
import { prepareRun } from './prepare-run.ts';
import { reportOf } from './report.ts';
import type { RunReport } from './report-types.ts';
import type { RunConfig, RunFeedSpec } from './run-config.ts';
import type { PreparedRun, RunResult, SyncDeps, SyncOptions } from './run-types.ts';

/**
 * One run for one feed: `prepareRun` (ingest, snapshot, plan: reads only) → `applyPlan` (the only
 * writes) → `reportOf` (pure). Data and platform problems end in a report, never a throw;
 * programming and config errors throw. Nothing is saved here: the caller that owns the state store
 * saves `result.state` (`saveRun`), so a run's state is written once, in one place.
 */
export async function syncFeed(
  config: RunConfig,
  feed: RunFeedSpec,
  deps: SyncDeps,
  options: SyncOptions = {},
): Promise<RunResult> {
  const now = deps.now ?? (() => new Date());
  const startedAt = now();
  const { client, calls } = countingClient(deps.client);
  const prepared = await prepareRun(config, feed, client, deps, options);

  let applied: ApplyResult | undefined;
  if (prepared.kind === 'planned') {
    try {
      if (!options.dryRun && !deps.signal?.aborted) {
        const { plan } = prepared;
        const total = `${plan.creates.length} creates, ${plan.updates.length} updates, ${plan.deletes.length} deletes`;
        deps.onEvent?.({ type: 'progress', phase: 'applying', percent: 40, detail: total });
        applied = await applyPlan(client, plan, {
          chatbot: feed.chatbot,
          tags: { ownerKey: config.ownerKey, hashKey: DEFAULT_HASH_KEY },
          records: prepared.records,
          concurrency: config.api.concurrency,
          deleteBatchSize: config.api.deleteBatchSize,
          signal: deps.signal,
          onProgress: (n, of) =>
            deps.onEvent?.({
              type: 'progress',
              phase: 'applying',
              percent: 40 + Math.floor((60 * n) / Math.max(1, of)),
              detail: `${n}/${of}`,
            }),
        });
      }
    } finally {
      prepared.close();
    }
  }

  const trigger = options.trigger ?? 'manual';
  const meta = {
    feedId: feed.id,
    chatbot: feed.chatbot,
    startedAt,
    finishedAt: now(),
    apiCalls: calls,
    trigger,
  };
  const report = reportOf(prepared, applied, { ...meta, dryRun: options.dryRun ?? false });
  deps.onEvent?.({ type: 'progress', phase: 'done', percent: 100, detail: report.outcome });
  logFinished(deps, report);
  const state = options.dryRun ? {} : { ...stateOf(prepared, report, now()), ...clockOf(prepared, applied) };
  return { report, state, ...(prepared.kind === 'failed' ? { error: prepared.error } : {}) };
}

/**
 * The feed state a run leaves: always its report; the source state (validators, watermark) only
 * after a run that succeeded, so a failed or guarded run fetches in full next time; and when it
 * compared with the platform, the time of that compare.
 */
export function stateOf(prepared: PreparedRun, report: RunReport, at: Date): Partial<FeedState> {
  const state: Partial<FeedState> = { lastReport: report };
  if (prepared.kind === 'skipped') return { ...prepared.ingest.sourceState, ...state };
  // A run that did not end ok forgets the validators and the last compare, so the next run,
  // scheduled or not, reads the feed in full and compares again instead of skipping it.
  if (prepared.kind !== 'planned' || report.outcome !== 'ok')
    return { ...state, etag: undefined, lastModified: undefined, lastCompareAt: undefined };
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
    const notDone = new Set([
      ...applied.notApplied.deletes,
      ...applied.failures.filter((f) => f.operation === 'delete').map((f) => f.key),
    ]);
    for (const d of prepared.plan.deletes) if (!notDone.has(d.key)) delete next[d.key];
  }
  return { goneSince: Object.keys(next).length > 0 ? next : undefined };
}

/** Save what a run leaves in the feed's state: the one place a run's state is written. */
export async function saveRun(store: StateStore, result: RunResult): Promise<void> {
  if (Object.keys(result.state).length > 0) await store.updateFeed(result.report.feedId, result.state);
  if (result.state.lastReport) await store.recordRun(result.report.feedId, result.report);
}

function logFinished(deps: SyncDeps, report: RunReport): void {
  const { feedId, chatbot, outcome, reason, created, updated, deleted, unchanged, held, durationMs } = report;
  const level = outcome === 'ok' || outcome === 'skipped' ? 'info' : 'warn';
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
      failed: report.failed.length,
      durationMs,
    },
    report.dryRun ? 'plan finished' : 'sync finished',
  );
}
