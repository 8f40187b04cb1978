import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createProcessor, type JobContext } from '../../jobs/index.ts';
import { createAlerter } from '../alerts/webhook.ts';
import type { PlatformClient } from '../api/index.ts';
import { clientFromConfig } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import type { Logger } from '../logger.ts';
import { createRedisStateStore } from '../state/redis-store.ts';
import type { StateStore } from '../state/state-store.ts';
import type { Metrics } from '../ui/metrics.ts';
import { enqueueSettingsPush } from './enqueue.ts';
import { DEFAULT_PREFIX, QUEUE_NAME } from './names.ts';
import { checkRedis, connectRedis } from './redis.ts';
import { createRedisLimiter } from './redis-limiter.ts';
import { applySchedulers } from './schedulers.ts';
import type { RunReport, SyncFeed } from './sync-contract.ts';
import { type WorkerSettings, workerSettingsOf } from './worker-settings.ts';

export interface WorkerServiceOptions {
  config: Config;
  /** Default `redis://127.0.0.1:6379`. */
  redisUrl?: string;
  /** Default `{feed-sync}`; tests give each run its own. */
  prefix?: string;
  logger: Logger;
  /** The run of one feed: `syncFeed` of src/reconcile in production. */
  sync: SyncFeed;
  /** Override the config's `worker:` settings (tests: short timeouts). */
  settings?: Partial<WorkerSettings>;
  /** Platform client; default one from `config.api` through the Redis limiter. */
  client?: PlatformClient;
  /** Called with every run report after it is recorded (metrics, alerts). */
  onReport?: (report: RunReport) => Promise<void>;
  /** Called when a job fails for good (no attempt left, or unrecoverable). */
  onJobFailed?: (info: { name: string; data: unknown; error: Error }) => Promise<void>;
  /** Runs, durations, listings and API calls are recorded here. */
  metrics?: Metrics;
  /** Set false to create the queue and schedulers without taking jobs (the `ui` command). */
  process?: boolean;
}

export interface WorkerService {
  readonly queue: Queue;
  readonly worker: Worker | undefined;
  readonly state: StateStore;
  readonly redis: Redis;
  readonly prefix: string;
  config(): Config;
  /** Apply a new config: schedulers, settings pushes, client limits. */
  applyConfig(next: Config): Promise<void>;
  /** Redis answers and the worker takes jobs. */
  healthy(): Promise<{ ok: boolean; redis: boolean; worker: boolean }>;
  /** Stop taking jobs, let the running ones stop (aborted after the grace period), close Redis. */
  close(): Promise<void>;
}

/**
 * The worker: a BullMQ queue and worker on `{feed-sync}`, processors from jobs/, state and the
 * limiter in Redis, schedulers from the config. Throws `RedisUnavailableError` (one line) when
 * Redis cannot be reached.
 */
export async function startWorkerService(options: WorkerServiceOptions): Promise<WorkerService> {
  const redisUrl = options.redisUrl ?? 'redis://127.0.0.1:6379';
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const { logger } = options;
  await checkRedis(redisUrl);
  const redis = connectRedis(redisUrl, 'feed-sync');
  redis.on('error', (error) => logger.warn({ err: error.message }, 'redis connection error'));

  let config = options.config;
  let settings = workerSettingsOf(config, options.settings);
  const state = createRedisStateStore(redis, prefix, { historyRuns: settings.historyRuns });
  const makeClient = (c: Config) =>
    options.client ??
    clientFromConfig(c, {
      limiter: createRedisLimiter(redis, {
        prefix,
        concurrency: c.api.concurrency,
        requestsPerSecond: c.api.requestsPerSecond,
      }),
      ...(options.metrics ? { onCall: options.metrics.recordCall } : {}),
    });
  const alerter = () =>
    settings.alerts ? createAlerter({ ...settings.alerts, redis, prefix, logger }) : undefined;
  const onReport = async (report: RunReport) => {
    options.metrics?.recordRun(report);
    await alerter()?.onReport(report);
    await options.onReport?.(report);
  };
  const onJobFailed = async (info: { name: string; data: unknown; error: Error }) => {
    await alerter()?.onJobFailed(info);
    await options.onJobFailed?.(info);
  };

  const queue = new Queue(QUEUE_NAME, { connection: redis, prefix, defaultJobOptions: jobOptions(settings) });
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
    rateLimit: async (ms) => {
      await worker?.rateLimit(ms);
    },
    onReport,
  };

  if (options.process !== false) {
    worker = new Worker(QUEUE_NAME, createProcessor(ctx), {
      connection: redis,
      prefix,
      concurrency: settings.concurrency,
      stalledInterval: settings.stalledIntervalMs,
      lockDuration: settings.lockDurationMs,
      maxStalledCount: 2,
      // No job-rate limit of our own (the platform's limits are the Redis limiter's job), but BullMQ
      // only honours `worker.rateLimit()` (our 429 → Retry-After pause) when a limiter max is set.
      limiter: { max: Number.MAX_SAFE_INTEGER - 1, duration: 1000 },
    });
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
    await worker.waitUntilReady();
  }

  async function applyConfig(next: Config): Promise<void> {
    const apiChanged = JSON.stringify(next.api) !== JSON.stringify(config.api);
    config = next;
    settings = workerSettingsOf(next, options.settings);
    if (apiChanged) ctx.client = makeClient(next);
    if (worker) worker.concurrency = settings.concurrency;
    const changes = await applySchedulers(queue, next);
    logger.info(changes, 'job schedulers applied');
    // Every config change queues a settings push per chatbot; unchanged settings end as `unchanged`.
    for (const chatbot of next.chatbots) {
      if (chatbot.settings) await enqueueSettingsPush(queue, { chatbot: chatbot.chatbot, trigger: 'config' });
    }
  }

  await applyConfig(config);

  let closing: Promise<void> | undefined;
  async function close(): Promise<void> {
    shuttingDown = true;
    const abortTimer = setTimeout(() => {
      logger.warn({ graceMs: settings.shutdownGraceMs }, 'grace period over: stopping running jobs');
      shutdown.abort(new Error('worker shutting down'));
    }, settings.shutdownGraceMs);
    try {
      await worker?.close();
    } finally {
      clearTimeout(abortTimer);
      await queue.close().catch(() => {});
      await redis.quit().catch(() => redis.disconnect());
    }
  }

  return {
    queue,
    get worker() {
      return worker;
    },
    state,
    redis,
    prefix,
    config: () => config,
    applyConfig,
    async healthy() {
      const redisOk = await Promise.race([
        redis.ping().then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => setTimeout(resolve, 1000, false)),
      ]);
      const workerOk = worker ? worker.isRunning() && !shuttingDown : !shuttingDown;
      return { ok: redisOk && workerOk, redis: redisOk, worker: workerOk };
    },
    close() {
      closing ??= close();
      return closing;
    },
  };
}

function jobOptions(settings: WorkerSettings) {
  return {
    attempts: settings.attempts,
    backoff: { type: 'exponential' as const, delay: settings.backoffMs, jitter: 0.5 },
    removeOnComplete: settings.removeOnComplete,
    removeOnFail: settings.removeOnFail,
  };
}
