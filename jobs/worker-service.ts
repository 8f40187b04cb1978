import type { Queue, Worker } from 'bullmq';
import { createAlerter } from '../src/alerts/index.ts';
import type { PlatformClient } from '../src/api/index.ts';
import { clientFromConfig } from '../src/api/index.ts';
import type { Config } from '../src/config/index.ts';
import { feedsAtOnce, type WorkerSettings, workerSettingsOf } from '../src/config/index.ts';
import type { Logger } from '../src/logger.ts';
import type {
  ConfigRefusal,
  RunMetrics,
  SchedulerStatus,
  StoreChoice,
  WorkerService,
} from '../src/queue/index.ts';
import { DEFAULT_PREFIX, enqueueConfigRun, enqueueSettingsPush, openQueueStore } from '../src/queue/index.ts';
import type { RunFeed, RunReport } from '../src/reconcile/index.ts';
import {
  applySchedulers,
  missingSchedulers,
  restoreSchedulers,
  runsForConfigChange,
} from '../src/schedule/index.ts';
import type { JobContext } from './job-context.ts';
import { createMemoryGate } from './memory-gate.ts';
import { createProcessor } from './processor.ts';

export type { RunMetrics, SchedulerStatus, WorkerService } from '../src/queue/index.ts';

export interface WorkerServiceOptions {
  config: Config;
  /** Where the queue and the state live (`storeChoiceOf(env, stateDir)`). */
  store: StoreChoice;
  /** Default `{feed-sync}`; tests give each run its own. */
  prefix?: string;
  logger: Logger;
  /** The run of one feed: `syncFeed` of src/reconcile in production. */
  sync: RunFeed;
  /** Override the config's `worker:` settings (tests: short timeouts). */
  settings?: Partial<WorkerSettings>;
  /** Platform client; default one from `config.api` through the store's shared limiter. */
  client?: PlatformClient;
  /**
   * Take each feed's run lock beside the config's `stateFile` for its runs (`JobContext.runLocks`),
   * so that a `feed-sync sync` by hand of a feed is skipped while the worker runs it, and the other
   * way round. Off unless set: the tests run many workers of feed `a` at once on one default state
   * path; the `worker` and `start` commands set it.
   */
  runLocks?: boolean;
  /** Called with every run report after it is recorded (metrics, alerts). */
  onReport?: (report: RunReport) => Promise<void>;
  /** Called when a job fails for good (no attempt left, or unrecoverable). */
  onJobFailed?: (info: { name: string; data: unknown; error: Error }) => Promise<void>;
  /** Runs and API calls are recorded here. */
  metrics?: RunMetrics;
  /** Set false to create the queue and schedulers without taking jobs. */
  process?: boolean;
  /**
   * Set false to leave the config's schedules out of the queue: the worker takes only runs queued by
   * hand or by another process, and its health asks for no scheduler. The dashboard tests use it, so
   * that a cron coming due mid-test (the fixtures' `*\/30`, `0 *\/2`) adds no run of its own.
   */
  schedules?: boolean;
}

/**
 * The worker: a BullMQ queue and worker on the chosen store, processors from jobs/, state and the
 * limiter in the same store, schedulers from the config (re-applied on reconnect and every
 * `schedulerCheckMs`). Throws a one-line error when the store cannot be reached or is locked.
 */
export async function startWorkerService(options: WorkerServiceOptions): Promise<WorkerService> {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const { logger } = options;
  let config = options.config;
  let settings = workerSettingsOf(config, options.settings);
  const store = await openQueueStore(options.store, prefix, { historyRuns: settings.historyRuns });
  const { state } = store;
  const makeClient = (c: Config) =>
    options.client ??
    clientFromConfig(c, {
      limiter: store.createLimiter({
        concurrency: c.api.concurrency,
        requestsPerSecond: c.api.requestsPerSecond,
      }),
      ...(options.metrics ? { onCall: options.metrics.recordCall } : {}),
    });
  const alerter = () =>
    settings.alerts ? createAlerter({ ...settings.alerts, incidents: store.incidents, logger }) : undefined;
  const onReport = async (report: RunReport) => {
    options.metrics?.recordRun(report);
    await alerter()?.onReport(report);
    await options.onReport?.(report);
  };
  const onJobFailed = async (info: { name: string; data: unknown; error: Error }) => {
    await alerter()?.onJobFailed(info);
    await options.onJobFailed?.(info);
  };

  const queue = store.createQueue({ defaultJobOptions: jobOptions(settings) });
  queue.on('error', (error) => logger.warn({ err: error.message }, 'queue error'));
  const shutdown = new AbortController();
  let shuttingDown = false;
  let worker: Worker | undefined;

  const ctx: JobContext = {
    getConfig: () => config,
    client: makeClient(config),
    state,
    logger,
    queue,
    sync: options.sync,
    shutdownSignal: shutdown.signal,
    isShuttingDown: () => shuttingDown,
    gate: createMemoryGate(() => settings.maxHeapShare),
    rateLimit: async (ms) => {
      await worker?.rateLimit(ms);
    },
    onReport,
    ...(options.runLocks ? { runLocks: true } : {}),
  };

  if (options.process !== false) {
    worker = store.createWorker(createProcessor(ctx), {
      concurrency: feedsAtOnce(settings, config.api),
      stalledInterval: settings.stalledIntervalMs,
      lockDuration: settings.lockDurationMs,
      maxStalledCount: 2,
      // No job-rate limit of our own (the platform's limits are the shared limiter's job), but BullMQ
      // only honours `worker.rateLimit()` (our 429 → Retry-After pause) when a limiter max is set.
      // The largest Postgres `integer`: BullMQ's Postgres backend stores the max in one.
      limiter: { max: 2 ** 31 - 1, duration: 1000 },
    });
    logWorkerEvents(worker, logger, onJobFailed);
    await worker.waitUntilReady();
  }

  const scheduling = options.schedules !== false;
  const schedulers = watchSchedulers(
    queue,
    () => config,
    logger,
    () => scheduling && !shuttingDown,
  );
  const { status } = schedulers;
  const checkSchedulers = scheduling ? schedulers.checkSchedulers : async () => [];
  store.onReconnect(schedulers.check);
  const timer = setInterval(schedulers.check, settings.schedulerCheckMs);
  timer.unref();

  async function applyConfig(next: Config): Promise<void> {
    const apiChanged = JSON.stringify(next.api) !== JSON.stringify(config.api);
    // Feeds whose own config (or a global setting of every run) changed: run now, not at the next tick.
    const runs = runsForConfigChange(config, next);
    config = next;
    settings = workerSettingsOf(next, options.settings);
    if (apiChanged) ctx.client = makeClient(next);
    if (worker) worker.concurrency = feedsAtOnce(settings, next.api);
    if (scheduling) {
      const changes = await applySchedulers(queue, next);
      logger.info(changes, 'job schedulers applied');
    }
    status.missing = [];
    for (const run of runs) await enqueueConfigRun(queue, run.feedId);
    if (runs.length > 0)
      logger.info(
        { runs: runs.map((r) => `${r.feedId} (${r.why})`) },
        `config changed: ${runs.length} feed run(s) queued with trigger config`,
      );
    // Every config change queues a settings push per chatbot; unchanged settings end as `unchanged`.
    for (const chatbot of next.chatbots) {
      if (chatbot.settings) await enqueueSettingsPush(queue, { chatbot: chatbot.chatbot, trigger: 'config' });
    }
  }

  try {
    await applyConfig(config);
  } catch (error) {
    clearInterval(timer);
    await worker?.close(true).catch(() => {});
    await queue.close().catch(() => {});
    await store.close();
    throw error;
  }

  let closing: Promise<void> | undefined;
  let refusal: ConfigRefusal | undefined;
  async function close(): Promise<void> {
    shuttingDown = true;
    clearInterval(timer);
    const abortTimer = setTimeout(() => {
      logger.warn({ graceMs: settings.shutdownGraceMs }, 'grace period over: stopping running jobs');
      shutdown.abort(new Error('worker shutting down'));
    }, settings.shutdownGraceMs);
    try {
      await worker?.close();
    } finally {
      clearTimeout(abortTimer);
      await queue.close().catch(() => {});
      await store.close();
    }
  }

  return {
    queue,
    get worker() {
      return worker;
    },
    state,
    store,
    prefix,
    config: () => config,
    applyConfig,
    checkSchedulers,
    schedulers: () => ({ ...status }),
    healthy: () =>
      healthOf({
        store,
        queue,
        config,
        status,
        scheduling,
        takingJobs: worker ? worker.isRunning() : true,
        shuttingDown,
      }),
    close() {
      closing ??= close();
      return closing;
    },
    stopNow() {
      shutdown.abort(new Error('worker stopped at once (a second signal)'));
    },
    configRefused: () => refusal,
    noteConfigRefused(next) {
      refusal = next;
    },
  };
}

/**
 * The worker's health (the heartbeat and `/healthz`): the store answers, the worker takes jobs and
 * is not shutting down, and every scheduler the config asks for is in the queue (asked of the queue
 * each time: a scheduler lost a second ago is unhealthy now, not at the next check).
 */
async function healthOf(w: {
  store: { ping(): Promise<boolean> };
  queue: Queue;
  config: Config;
  status: SchedulerStatus;
  scheduling: boolean;
  takingJobs: boolean;
  shuttingDown: boolean;
}) {
  const storeOk = await w.store.ping();
  const workerOk = w.takingJobs && !w.shuttingDown;
  const asked = storeOk && w.scheduling;
  const missing = asked ? await missingSchedulers(w.queue, w.config).catch(() => w.status.missing) : [];
  w.status.missing = missing;
  return {
    ok: storeOk && workerOk && missing.length === 0,
    store: storeOk,
    worker: workerOk,
    missingSchedulers: missing,
  };
}

/** A job's end in the worker's log; a job failed for good also goes to `onJobFailed` (alerts). */
function logWorkerEvents(
  worker: Worker,
  logger: Logger,
  onJobFailed: (info: { name: string; data: unknown; error: Error }) => Promise<void>,
): void {
  worker.on('error', (error) => logger.warn({ err: error.message }, 'worker error'));
  worker.on('failed', (job, error) => {
    if (!job) return;
    const final = error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
    logger.error({ job: job.id, name: job.name, data: job.data, err: error.message, final }, 'job failed');
    if (final) onJobFailed({ name: job.name, data: job.data, error }).catch(() => {});
  });
  worker.on('completed', (job) =>
    logger.info({ job: job.id, name: job.name, data: job.data }, 'job completed'),
  );
}

/**
 * The config's schedulers kept in the queue: `checkSchedulers` re-creates the missing ones (a store
 * restarted empty, a scheduler removed by hand) and says so; `check` does it in the background
 * while `active()`, for the reconnect hook and the periodic timer; `status` is what the health
 * check and the dashboard show.
 */
function watchSchedulers(queue: Queue, config: () => Config, logger: Logger, active: () => boolean) {
  const status: SchedulerStatus = { missing: [], restored: undefined };
  async function checkSchedulers(): Promise<string[]> {
    const restored = await restoreSchedulers(queue, config());
    status.missing = [];
    if (restored.length > 0) {
      status.restored = { ids: restored, at: new Date().toISOString() };
      logger.warn(
        { schedulers: restored },
        'job schedulers missing from the queue (store restarted empty, or removed by hand): re-created from config',
      );
    }
    return restored;
  }
  const check = () => {
    if (active())
      checkSchedulers().catch((error: unknown) =>
        logger.warn({ err: (error as Error).message }, 'scheduler check failed'),
      );
  };
  return { status, checkSchedulers, check };
}

function jobOptions(settings: WorkerSettings) {
  return {
    attempts: settings.attempts,
    backoff: { type: 'exponential' as const, delay: settings.backoffMs, jitter: 0.5 },
    removeOnComplete: settings.removeOnComplete,
    removeOnFail: settings.removeOnFail,
  };
}
