import { z } from 'zod';

/**
 * Redis key prefix of the queue and of everything the worker keeps. The braces make it a Redis
 * Cluster hash tag: every key lands in one slot, which BullMQ's multi-key scripts need.
 */
export const DEFAULT_PREFIX = '{feed-sync}';

const keep = z.strictObject({
  /** Keep at most this many jobs. */
  count: z.number().int().min(0),
  /** Keep jobs at most this many seconds. */
  age: z.number().int().min(0),
});

/**
 * The `worker:` section of the config: how jobs run, retry and are kept. Every field has a
 * default, so the section is optional.
 */
export const workerSettingsSchema = z.strictObject({
  /**
   * Feeds one worker process runs at once (one feed never runs twice at once), or `auto` (the
   * default): `feedsAtOnce` of the platform's budget, 16 × `api.concurrency` within 32–128. A started
   * run costs the platform nothing extra (every call waits for a slot of the shared limiter), so
   * many feeds due at once all start early instead of queueing behind a few; memory is what bounds
   * it, hence the cap (120 small feeds at once peak at ~175 MB under the image's heap bound,
   * bench/results/fleet.md) and `maxHeapShare`.
   */
  concurrency: z
    .union([z.literal('auto'), z.number().int().min(1).max(256)], {
      error: 'expected auto or a whole number of feeds from 1 to 256',
    })
    .default('auto'),
  /**
   * A worker starts no further run while its V8 heap in use is above this share of its heap limit
   * (`--max-old-space-size`; the image's is 160 MB); runs already started go on, and a worker
   * running nothing always starts one. Default 0.6.
   */
  maxHeapShare: z.number().gt(0).max(1).default(0.6),
  /** Attempts of a job before it fails for good (5xx, timeouts, network). Default 5. */
  attempts: z.number().int().min(1).max(50).default(5),
  /** First retry delay in ms; doubles every attempt, with jitter. Default 10 s. */
  backoffMs: z.number().int().min(0).default(10_000),
  /** Completed jobs kept for the UI. Default 200 jobs, 7 days. */
  removeOnComplete: keep.default({ count: 200, age: 7 * 24 * 3600 }),
  /** Failed jobs kept for the UI. Default 1000 jobs, 30 days. */
  removeOnFail: keep.default({ count: 1000, age: 30 * 24 * 3600 }),
  /** On SIGTERM, how long a running sync may go on before it is told to stop issuing calls. Default 10 s. */
  shutdownGraceMs: z.number().int().min(0).default(10_000),
  /** How often stalled jobs (of a crashed worker) are looked for, ms. Default 30 s. */
  stalledIntervalMs: z.number().int().min(1000).default(30_000),
  /** Lock of an active job, renewed while it runs; a worker that dies loses it after this long. Default 30 s. */
  lockDurationMs: z.number().int().min(1000).default(30_000),
  /**
   * How often the worker checks that every scheduler the config asks for exists, ms, and re-creates
   * the missing ones (a store restarted empty, a scheduler removed by hand). Default 60 s.
   */
  schedulerCheckMs: z.number().int().min(100).default(60_000),
  /**
   * Namespace of the queue, the state and the limiter: the Redis key prefix (a Cluster hash tag,
   * `{…}`), or on Postgres the schema names (`{feed-sync}` → `feed_sync`, `feed_sync_state`).
   * Workers share jobs and limits only when they share it. Read at start-up. Default `{feed-sync}`.
   */
  prefix: z
    .string()
    .regex(/^\{[^{}]+\}$/, 'a Redis Cluster hash tag in braces, e.g. {feed-sync}')
    .default(DEFAULT_PREFIX),
  /** Run reports kept per feed in the run history (the dashboard's feed page). Default 50. */
  historyRuns: z.number().int().min(1).max(10_000).default(50),
  alerts: z
    .strictObject({
      /** Where alerts are POSTed (JSON with a Slack-compatible `text`). */
      webhookUrl: z.url(),
      /** Alert when more than this share of a feed's records were rejected. Default 0.1. */
      rejectedShare: z.number().min(0).max(1).default(0.1),
    })
    .optional(),
});
export type WorkerSettings = z.infer<typeof workerSettingsSchema>;

/** The worker settings of a config (the `worker:` section, defaults filled in by the loader). */
export function workerSettingsOf(
  config: { worker: WorkerSettings },
  overrides: Partial<WorkerSettings> = {},
): WorkerSettings {
  return { ...config.worker, ...overrides };
}

/** `auto` worker concurrency: this many feeds at once per `api.concurrency` slot… */
const AUTO_FEEDS_PER_SLOT = 16;
/** …within these bounds (the upper one keeps a worker of small feeds far under the image's heap bound). */
const AUTO_MIN = 32;
const AUTO_MAX = 128;

/**
 * How many feeds one worker runs at once: the number the config sets, or for `auto`,
 * 16 × `api.concurrency` within 32–128. Pure.
 */
export function feedsAtOnce(
  worker: Pick<WorkerSettings, 'concurrency'>,
  api: { concurrency: number },
): number {
  if (worker.concurrency !== 'auto') return worker.concurrency;
  return Math.min(AUTO_MAX, Math.max(AUTO_MIN, AUTO_FEEDS_PER_SLOT * api.concurrency));
}
