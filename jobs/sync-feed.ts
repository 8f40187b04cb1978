import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import type { z } from 'zod';
import { findFeed } from '../src/config/index.ts';
import type { Logger } from '../src/logger.ts';
import {
  enqueueFeedSync,
  enqueueResume,
  feedKey,
  isResumeKick,
  type SyncFeedJobData,
  syncFeedPayloadSchema,
} from '../src/queue/index.ts';
import {
  goesOnNow,
  type MemoStore,
  memoFiles,
  outcomeLabel,
  type RunProgress,
  type RunReport,
  runAndSave,
  scopedMemo,
} from '../src/reconcile/index.ts';
import { percentOf, throttleProgress } from '../src/render/index.ts';
import {
  heldReason,
  type LockOwner,
  lockPathOf,
  RUN_LOCK_STALE_MS,
  takeRunLock,
} from '../src/state/index.ts';
import type { JobContext } from './job-context.ts';
import { mapJobError, PayloadError } from './map-error.ts';
import { runCost } from './memory-gate.ts';

export { type SyncFeedJobData, syncFeedPayloadSchema };

/** A kick that was not deduplicated (a scheduler tick, the UI's add form) hands over to one that is. */
export interface Forwarded {
  forwardedTo: string | undefined;
  feedId: string;
}
export type SyncFeedResult = RunReport | Forwarded | { feedId: string; outcome: 'skipped'; reason: string };

/** Lines of rejections and failures written to the job log; the report has the rest. */
const LOG_FIRST = 20;

export function parsePayload<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new PayloadError(
    `invalid job data: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
  );
}

/**
 * `sync-feed`: one run of one feed (ingest → snapshot → plan → apply), the same run as
 * `feed-sync sync`. The result is the run report; progress is the phase and percent.
 */
export function createSyncFeedProcessor(ctx: JobContext) {
  /** Feeds whose run lock could not be made, said once each (a read-only config folder would say it every run). */
  const unlockedSaid = new Set<string>();
  return async function syncFeedJob(
    job: Job,
    _token?: string,
    signal?: AbortSignal,
  ): Promise<SyncFeedResult> {
    try {
      const payload = parsePayload(syncFeedPayloadSchema, job.data);
      const config = ctx.getConfig();
      if (isResumeKick(job)) {
        const skipped = await resumeSkipped(ctx, job, payload.feedId);
        if (skipped) return skipped;
      }
      // A mistyped id fails, red and once, instead of completing green having done nothing.
      const feed = findFeed(config, payload.feedId);
      // Only deduplicated jobs run: that is what keeps one run per feed across every worker.
      if (!job.deduplicationId) {
        const forwardedTo = await enqueueFeedSync(ctx.queue, payload);
        await job.log(
          `forwarded to job ${forwardedTo ?? '(follow-up of the active run)'}: one run per feed at a time`,
        );
        return { forwardedTo, feedId: payload.feedId };
      }
      if (!feed.enabled) {
        const reason = 'feed is disabled';
        await job.log(`skipped: ${reason}`);
        return { feedId: payload.feedId, outcome: 'skipped', reason };
      }
      const logger = ctx.logger.child({ feed: feed.id, job: job.id });
      const progress = progressReporter(job);
      const deps = {
        client: ctx.client,
        state: ctx.state,
        logger,
        signal: signal ? AbortSignal.any([signal, ctx.shutdownSignal]) : ctx.shutdownSignal,
        onProgress: progress.report,
        memo: scopedMemo(workerMemo(ctx.logger), memoScope(config.api.baseUrl, feed.chatbot)),
      };
      // A worker whose heap, with what its runs are expected to reach, is above its share starts
      // this run once another ends (`maxHeapShare`); the expected size is the feed's last run's.
      const leave = ctx.gate
        ? await ctx.gate.enter(
            runCost(await lastListings(ctx, feed.id), feed.key),
            // A worker shutting down starts no run that waits here.
            signal ? AbortSignal.any([signal, ctx.shutdownSignal]) : ctx.shutdownSignal,
          )
        : () => {};
      // One run of the feed at a time, a `feed-sync sync` by hand's too (state/run-lock.ts): taken
      // once the run may start, so a run waiting at the gate holds nothing. A dry run takes none.
      const lock =
        ctx.runLocks && !payload.dryRun
          ? takeRunLock(config.stateFile, feed.id, (message) => {
              if (unlockedSaid.has(feed.id)) return;
              unlockedSaid.add(feed.id);
              logger.warn(`${message} (said once)`);
            })
          : undefined;
      if (lock && 'heldBy' in lock) {
        leave();
        return await heldElsewhere(ctx, job, feed.id, lockPathOf(config.stateFile, feed.id), lock.heldBy);
      }
      // Saved first, by the run itself: the job log is best-effort and must never cost the report or the state.
      let result: Awaited<ReturnType<typeof runAndSave>>;
      try {
        result = await runAndSave(
          config,
          feed,
          deps,
          {
            dryRun: payload.dryRun ?? false,
            allowMassDelete: payload.allowMassDelete ?? false,
            ...(payload.allowDeletes ? { allowDeletes: payload.allowDeletes } : {}),
            ...(payload.allowMassReplace ? { allowMassReplace: true } : {}),
            ...(payload.allowReplaces ? { allowReplaces: payload.allowReplaces } : {}),
            forceFull: payload.forceFull ?? false,
            trigger: payload.trigger,
          },
          ctx.sync,
        );
      } finally {
        lock?.lock.release();
        leave();
      }
      await progress.flush();
      const { report } = result;
      // Once a run, in the worker's log too: the rows it explains are rejected one by one.
      for (const hint of report.hints ?? []) logger.warn({ hint: hint.code, fix: hint.fix }, hint.message);
      await logReport(job, report).catch((error: unknown) =>
        logger.warn({ err: error }, 'writing the job log failed'),
      );
      await ctx
        .onReport?.(report)
        .catch((error: unknown) => logger.warn({ err: error }, 'report hook failed'));
      if (report.outcome === 'cancelled' && ctx.isShuttingDown()) {
        // The next worker repairs what this run did not apply, without waiting for the schedule.
        await enqueueFeedSync(ctx.queue, { feedId: feed.id, trigger: 'repair' });
        await job.log('cancelled by shutdown: a repair run is queued');
      }
      if (goesOnNow(report) && !payload.dryRun) {
        // A long RESO replication read in parts (`reso.recordsPerRun`): the next part runs at once.
        await enqueueFeedSync(ctx.queue, { feedId: feed.id, trigger: payload.trigger });
        await job.log('the replication goes on: the next part is queued');
      }
      if (report.outcome === 'paused' && report.resumesAt && !payload.dryRun) {
        // The provider's budget stopped the run: it goes on when the budget allows, not at the next
        // tick. The run is recorded already: a store that fails here costs the kick, not the run.
        const { resumesAt } = report;
        await enqueueResume(ctx.queue, feed.id, resumesAt).then(
          () => job.log(`paused by the provider's budget: the run goes on at ${resumesAt}`),
          (error: unknown) =>
            logger.warn({ err: error }, 'could not queue the run that goes on: the next scheduled run will'),
        );
      }
      if (result.error) {
        // The report is recorded; the job now takes BullMQ's meaning of the cause (retry, rate limit, fail).
        await job.log(`run failed before its plan: ${result.error.message}`);
        throw result.error;
      }
      return report;
    } catch (error) {
      throw await mapJobError(error, ctx.rateLimit);
    }
  };
}

/**
 * A run that found its feed held by another run (a `feed-sync sync` by hand, or a lock a run on
 * another host left, taken over once 2 minutes untouched): skipped, and tried again once a held
 * lock can be judged left over, so a run is never dropped for a lock (a stopped `sync` holds it
 * as long as it lives: the run is tried again every 2 minutes meanwhile, said at warn level).
 */
async function heldElsewhere(
  ctx: JobContext,
  job: Job,
  feedId: string,
  lockFile: string,
  holder: LockOwner | undefined,
): Promise<{ feedId: string; outcome: 'skipped'; reason: string }> {
  const retryAt = new Date(Date.now() + RUN_LOCK_STALE_MS).toISOString();
  const queued = await enqueueResume(ctx.queue, feedId, retryAt).then(
    () => true,
    (error: unknown) => {
      ctx.logger.warn({ err: error, feed: feedId }, 'could not queue the run that tries the feed again');
      return false;
    },
  );
  const reason = `${heldReason(feedId, holder, lockFile)}${queued ? `; tried again at ${retryAt}` : ''}`;
  ctx.logger.warn({ feed: feedId, job: job.id }, `skipped: ${reason}`);
  await job.log(`skipped: ${reason}`);
  return { feedId, outcome: 'skipped', reason };
}

/**
 * Why a resume kick hands over to no run, or undefined when it does: its feed has left the config,
 * or a run of the feed is already waiting or running (it goes on from the saved place itself, and
 * a kick handed over now would replace the payload of a Run now waiting to follow it).
 */
async function resumeSkipped(
  ctx: JobContext,
  job: Job,
  feedId: string,
): Promise<{ feedId: string; outcome: 'skipped'; reason: string } | undefined> {
  const reason = !ctx.getConfig().feeds.some((f) => f.id === feedId)
    ? 'the feed is no longer in the config'
    : (await ctx.queue.getDeduplicationJobId(feedKey(feedId)))
      ? 'a run of the feed is already waiting or running'
      : undefined;
  if (reason === undefined) return undefined;
  await job.log(`skipped: ${reason}`);
  return { feedId, outcome: 'skipped', reason };
}

/**
 * Listings on the larger side of the feed's last run (what the memory gate sizes the run by), or
 * undefined for a feed never run or a state that cannot be read (the run itself will say so).
 */
async function lastListings(ctx: JobContext, feedId: string): Promise<number | undefined> {
  try {
    const last = (await ctx.state.getFeed(feedId)).lastReport as Partial<RunReport> | undefined;
    if (!last) return undefined;
    const remote = (last.unchanged ?? 0) + (last.updated ?? 0) + (last.foreign ?? 0) + (last.deleted ?? 0);
    return Math.max(last.read ?? 0, remote);
  } catch {
    return undefined;
  }
}

/**
 * The job's progress (what the dashboard's live line shows): the run's progress through the one
 * throttle (a new phase at once, else at most one update in 500 ms), with its percent and the
 * rate of the writes, at most one update in flight. `flush` waits for the last one, so a finished
 * job never shows an older phase.
 */
function progressReporter(job: Job): { report(progress: RunProgress): void; flush(): Promise<unknown> } {
  let chain: Promise<unknown> = Promise.resolve();
  const report = throttleProgress((progress, rate) => {
    const value = {
      ...progress,
      percent: percentOf(progress),
      ...(rate ? { rate: rate.replace(/^ · /, '') } : {}),
    };
    chain = chain.then(() => job.updateProgress(value)).catch(() => {});
  }, 500);
  return { report, flush: () => chain };
}

async function logReport(job: Job, report: RunReport): Promise<void> {
  for (const hint of report.hints ?? []) await job.log(`hint: ${hint.message}; fix: ${hint.fix}`);
  for (const guard of report.guards) {
    await job.log(`guard ${guard.guard}: ${guard.tripped ? 'tripped' : 'ok'} — ${guard.message}`);
  }
  for (const rejection of report.rejections.slice(0, LOG_FIRST))
    await job.log(`rejected: ${rejection.message}`);
  for (const failure of report.failed.slice(0, LOG_FIRST)) {
    await job.log(`failed: ${failure.operation} ${failure.key}: ${failure.code} ${failure.message}`);
  }
  for (const h of report.heldKeys.slice(0, LOG_FIRST)) await job.log(`held: ${h.key}: ${h.message}`);
  const { created, updated, deleted, unchanged, rejected, held } = report;
  await job.log(
    `${outcomeLabel(report)}${report.reason ? ` (${report.reason})` : ''}: ${created} created, ${updated} updated, ${deleted} deleted, ${unchanged} unchanged, ${rejected} rejected, ${held} held`,
  );
}

let memo: MemoStore | undefined;

/** The platform and chatbot a feed's memos are of, in the worker's shared folder (`scopedMemo`). */
export function memoScope(baseUrl: string, chatbot: string): string {
  return createHash('sha1').update(`${baseUrl}\0${chatbot}`).digest('hex').slice(0, 12);
}

/**
 * The worker's record memos (src/ingest/record-memo.ts): files in the machine's temporary folder,
 * shared by the workers of one host (each memo is replaced whole, by rename). A cache: a worker on
 * another host, or after a restart of the container, maps every record of its first run.
 */
function workerMemo(logger: Logger): MemoStore {
  memo ??= memoFiles(join(tmpdir(), `feed-sync-memo-${process.getuid?.() ?? 'user'}`), (error) =>
    logger.warn(`record memo: ${error.message}; the next run maps every record`),
  );
  return memo;
}
