import type { PlatformClient } from '../api/client.ts';
import { isApiError } from '../api/errors.ts';
import type { Config, FeedConfig } from '../config/schema.ts';
import type { Logger } from '../logger.ts';
import type { StateStore } from '../state/state-store.ts';
import { applyPlan } from './apply.ts';
import { countingClient } from './counting-client.ts';
import { defaultIngest } from './default-ingest.ts';
import { type Ingest, type IngestResult, isFeedError } from './ingest-contract.ts';
import { DEFAULT_HASH_KEY } from './ownership.ts';
import { makePlan } from './plan.ts';
import type { Plan, PlanPolicy } from './plan-types.ts';
import { finishReport, outcomeOf, type ReportDraft, startReport } from './report.ts';
import { HELD_KEPT, REJECTIONS_KEPT, type RunReport } from './report-types.ts';
import { readSnapshot, SnapshotError } from './snapshot.ts';

export type SyncPhase = 'fetching' | 'normalizing' | 'snapshot' | 'planning' | 'applying' | 'done';

export interface SyncDeps {
  /** Already wired with the limiter: every attempt of every call goes through it. */
  client: PlatformClient;
  state: StateStore;
  logger: Logger;
  /** Cancels the run: no new call is issued, the ones in flight finish. */
  signal?: AbortSignal;
  onProgress?: (p: { phase: SyncPhase; percent: number; detail?: string }) => void;
  now?: () => Date;
  /** Ingestion; default `ingestFeed` of src/sources. Tests pass listings built in code. */
  ingest?: Ingest;
  /** Sees the plan before it is applied (`feed-sync plan` prints it). */
  onPlan?: (plan: Plan) => void;
  /**
   * Sees the error that stopped the run before its plan (the feed could not be read, the snapshot
   * failed). The report still ends `failed`; the worker uses the error to retry, back off or give up.
   */
  onRunError?: (error: unknown) => void;
}

export interface SyncOptions {
  /** Plan only: read the feed and the remote, write nothing (not even state). */
  dryRun?: boolean;
  /** Let a run delete more than `maxDeleteShare` of the feed's owned listings. */
  allowMassDelete?: boolean;
  /** Ignore validators and watermarks: fetch and compare everything. */
  forceFull?: boolean;
}

/** The policy of the pure plan for one feed. */
export function policyOf(
  config: Config,
  feed: FeedConfig,
  ingest: IngestResult,
  options: SyncOptions = {},
): PlanPolicy {
  return {
    feedId: feed.id,
    chatbot: feed.chatbot,
    keyField: feed.key,
    ownerKey: config.ownerKey,
    hashKey: DEFAULT_HASH_KEY,
    ownership: feed.ownership,
    adopt: feed.adopt,
    maxDeleteShare: feed.maxDeleteShare,
    allowMassDelete: options.allowMassDelete ?? false,
    mode: ingest.mode,
    removals: ingest.removals,
    held: ingest.held,
  };
}

/**
 * One run for one feed: ingest → snapshot → plan → apply. Data and platform problems end in a failed
 * report, never a throw; programming and config errors throw. State (validators, watermark) is saved
 * only after a run that succeeded, so a failed or guarded run is fetched in full next time.
 */
export async function syncFeed(
  config: Config,
  feed: FeedConfig,
  deps: SyncDeps,
  options: SyncOptions = {},
): Promise<RunReport> {
  const now = deps.now ?? (() => new Date());
  const { client, calls } = countingClient(deps.client);
  const draft = startReport(feed, now(), calls, options.dryRun ?? false);
  const progress = (phase: SyncPhase, percent: number, detail?: string) =>
    deps.onProgress?.({ phase, percent, ...(detail ? { detail } : {}) });
  const done = async (report: RunReport) => {
    progress('done', 100, report.outcome);
    const { outcome, reason, created, updated, deleted, unchanged, durationMs } = report;
    const level = outcome === 'ok' || outcome === 'skipped' ? 'info' : 'warn';
    deps.logger[level](
      {
        feedId: feed.id,
        chatbot: feed.chatbot,
        outcome,
        reason,
        created,
        updated,
        deleted,
        unchanged,
        failed: report.failed.length,
        durationMs,
      },
      'sync finished',
    );
    if (!options.dryRun) await deps.state.updateFeed(feed.id, { lastReport: report });
    return report;
  };

  progress('fetching', 0);
  let ingest: IngestResult;
  try {
    const state = await deps.state.getFeed(feed.id);
    ingest = await (deps.ingest ?? defaultIngest)(feed, {
      state,
      logger: deps.logger,
      signal: deps.signal,
      forceFull: options.forceFull,
      now,
    });
  } catch (error) {
    if (!isFeedError(error)) throw error;
    deps.onRunError?.(error);
    const guard = {
      guard: 'source-failed' as const,
      tripped: true,
      message: 'the source failed: nothing is deleted',
    };
    return done(finishReport({ ...draft, guards: [guard] }, now(), 'failed', `feed: ${error.message}`));
  }
  progress('normalizing', 20, `${ingest.listings.length} listings, ${ingest.rejections.length} rejected`);
  draft.mode = ingest.mode;
  draft.read = ingest.stats.records;
  draft.rejected = ingest.rejections.length;
  draft.rejectedWithoutKey = ingest.rejectedWithoutKey;
  draft.rejections = ingest.rejections.slice(0, REJECTIONS_KEPT);
  if (ingest.notModified) {
    if (!options.dryRun) await deps.state.updateFeed(feed.id, ingest.statePatch);
    return done(finishReport(draft, now(), 'skipped', 'the feed has not changed since the last run'));
  }

  const plan = await planRun(config, feed, client, ingest, draft, deps, options);
  if (!plan) return done(finishReport(draft, now(), 'failed', draft.reason));
  if (options.dryRun || deps.signal?.aborted) {
    const outcome = deps.signal?.aborted ? 'cancelled' : outcomeOf(draft);
    return done(
      finishReport(draft, now(), outcome, deps.signal?.aborted ? 'cancelled before applying' : undefined),
    );
  }

  progress(
    'applying',
    40,
    `${plan.creates.length} creates, ${plan.updates.length} updates, ${plan.deletes.length} deletes`,
  );
  const applied = await applyPlan(client, plan, {
    serialNumber: feed.chatbot,
    tags: { ownerKey: config.ownerKey, hashKey: DEFAULT_HASH_KEY },
    concurrency: config.api.concurrency,
    deleteBatchSize: config.api.deleteBatchSize,
    signal: deps.signal,
    onProgress: (n, total) =>
      progress('applying', 40 + Math.floor((60 * n) / Math.max(1, total)), `${n}/${total}`),
  });
  Object.assign(draft, {
    created: applied.created,
    updated: applied.updated,
    adopted: applied.adopted,
    deleted: applied.deleted,
    duplicatesDeleted: applied.duplicatesDeleted,
    ambiguousResolved: applied.ambiguousResolved,
    failed: applied.failures,
  });
  if (applied.cancelled) draft.notApplied = applied.notApplied;
  const outcome = applied.cancelled ? 'cancelled' : outcomeOf(draft);
  if (outcome === 'ok') {
    const full = ingest.mode === 'full' ? { lastFullRunAt: now().toISOString() } : {};
    await deps.state.updateFeed(feed.id, { ...ingest.statePatch, ...full });
  }
  return done(finishReport(draft, now(), outcome));
}

/** Snapshot and plan; fills the planned counts into the draft. Undefined when the snapshot failed. */
async function planRun(
  config: Config,
  feed: FeedConfig,
  client: PlatformClient,
  ingest: IngestResult,
  draft: ReportDraft,
  deps: SyncDeps,
  options: SyncOptions,
): Promise<Plan | undefined> {
  deps.onProgress?.({ phase: 'snapshot', percent: 25 });
  try {
    const snapshot = await readSnapshot(client, {
      serialNumber: feed.chatbot,
      pageSize: config.api.pageSize,
      concurrency: config.api.concurrency,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    draft.drift = snapshot.drift;
    draft.snapshot = {
      remoteCount: snapshot.listings.length,
      pages: snapshot.pages,
      pageSize: snapshot.pageSize,
      requestedPageSize: snapshot.requestedPageSize,
    };
    deps.onProgress?.({ phase: 'planning', percent: 35 });
    const plan = makePlan(ingest.listings, snapshot.listings, policyOf(config, feed, ingest, options));
    fillPlanned(draft, plan);
    deps.onPlan?.(plan);
    return plan;
  } catch (error) {
    if (!(error instanceof SnapshotError) && !isApiError(error)) throw error;
    deps.onRunError?.(error);
    draft.reason = `snapshot: ${error.message}`;
    return undefined;
  }
}

/** The plan's counts: the report of a dry run, and the base a real run overwrites with what it did. */
function fillPlanned(draft: ReportDraft, plan: Plan): void {
  draft.created = plan.creates.length;
  draft.updated = plan.updates.length;
  draft.adopted = plan.updates.filter((u) => u.adopt).length;
  draft.deleted = plan.deletes.length;
  draft.duplicatesDeleted = plan.deletes.filter((d) => d.reason === 'duplicate').length;
  draft.unchanged = plan.unchanged.length;
  draft.foreign = plan.foreign.length;
  draft.skipped = plan.skipped.map((s) => ({
    key: s.key,
    reason: s.reason,
    id: s.id,
    ...(s.owner ? { owner: s.owner } : {}),
  }));
  draft.heldDeletes = plan.heldDeletes.length;
  draft.held = plan.held.length;
  draft.heldKeys = plan.held.slice(0, HELD_KEPT);
  draft.guards = plan.guards;
}
