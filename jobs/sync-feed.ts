import type { Job } from 'bullmq';
import type { z } from 'zod';
import type { SyncProgress } from '../src/queue/index.ts';
import { enqueueFeedSync, type SyncFeedJobData, syncFeedPayloadSchema } from '../src/queue/index.ts';
import type { RunReport } from '../src/reconcile/index.ts';
import { saveRun } from '../src/reconcile/index.ts';
import { rateOf } from '../src/render/index.ts';
import type { JobContext } from './job-context.ts';
import { mapJobError, PayloadError } from './map-error.ts';

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
  return async function syncFeedJob(
    job: Job,
    _token?: string,
    signal?: AbortSignal,
  ): Promise<SyncFeedResult> {
    try {
      const payload = parsePayload(syncFeedPayloadSchema, job.data);
      const config = ctx.getConfig();
      const feed = config.feeds.find((f) => f.id === payload.feedId);
      // A mistyped id fails, red and once, instead of completing green having done nothing.
      if (!feed) {
        const known = config.feeds.map((f) => f.id).join(', ') || 'none';
        throw new PayloadError(`no feed "${payload.feedId}" in the config (feeds: ${known})`);
      }
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
      const result = await ctx.sync(
        config,
        feed,
        {
          client: ctx.client,
          state: ctx.state,
          logger,
          signal: signal ? AbortSignal.any([signal, ctx.shutdownSignal]) : ctx.shutdownSignal,
          onEvent: (event) => (event.type === 'progress' ? progress.report(event) : undefined),
        },
        {
          dryRun: payload.dryRun ?? false,
          allowMassDelete: payload.allowMassDelete ?? false,
          forceFull: payload.forceFull ?? false,
          trigger: payload.trigger,
        },
      );
      await progress.flush();
      const { report } = result;
      // Once a run, in the worker's log too: the rows it explains are rejected one by one.
      for (const hint of report.hints ?? []) logger.warn({ hint: hint.code, fix: hint.fix }, hint.message);
      // Saved first: the job log is best-effort and must never cost the report or the state.
      await saveRun(ctx.state, result);
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
 * Progress updates in phase order, at most one in flight, only on a phase change or a 5-point step.
 * `flush` waits for the last one, so a finished job never shows an older phase.
 */
function progressReporter(job: Job): { report(progress: SyncProgress): void; flush(): Promise<unknown> } {
  let last: SyncProgress | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  let applyingSince = 0;
  const report = (progress: SyncProgress) => {
    if (progress.phase === 'applying' && !applyingSince) applyingSince = Date.now();
    if (
      last &&
      last.phase === progress.phase &&
      progress.percent - last.percent < 5 &&
      progress.percent < 100
    )
      return;
    last = progress;
    // The rate and ETA of the writes, for the dashboard's live progress.
    const rate = progress.phase === 'applying' ? rateOf(progress.detail, applyingSince, Date.now()) : '';
    const value = {
      phase: progress.phase,
      percent: Math.round(progress.percent),
      ...(progress.detail ? { detail: progress.detail } : {}),
      ...(rate ? { rate: rate.replace(/^ · /, '') } : {}),
    };
    chain = chain.then(() => job.updateProgress(value)).catch(() => {});
  };
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
    `${report.outcome}${report.reason ? ` (${report.reason})` : ''}: ${created} created, ${updated} updated, ${deleted} deleted, ${unchanged} unchanged, ${rejected} rejected, ${held} held`,
  );
}
