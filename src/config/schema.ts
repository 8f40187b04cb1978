import { z } from 'zod';
import { mappingSchema } from '../normalize/mapping-schema.ts';
import { workerSettingsSchema } from '../queue/worker-settings.ts';
import { settingsSchema } from '../settings/settings-schema.ts';
import { sourceSchema } from '../sources/source-schema.ts';

/** An empty string from `${VAR:-}` means "not set". */
const secret = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());
/** A chatbot's id: its serial number on the platform (sent as `serialNumber`/`SerialNumber` there). */
const chatbotId = z.string().min(1, 'a chatbot serial number is required');

export const scheduleSchema = z.object({
  /** Cron expression (5 or 6 fields), evaluated in `timezone`. */
  cron: z.string().min(1),
  /** IANA time zone, default UTC. */
  timezone: z.string().default('UTC'),
});

export const apiConfigSchema = z.object({
  /** The spec's {base_url}. The platform documents this host, so it is the default. */
  baseUrl: z.url().default('https://usapi.hottask.com'),
  /** Sent as `Authorization: <key>` (raw, no Bearer). */
  secretKey: secret,
  /** Sent as `chatrobot-sessionkey`. */
  sessionKey: secret,
  /** Max requests in flight to the platform, across every operation (and every worker). Default 8. */
  concurrency: z.number().int().min(1).max(256).default(8),
  /** Optional ceiling of requests started per second. */
  requestsPerSecond: z.number().positive().optional(),
  /** RealEstateList page size. Default 100; the server may cap it silently. */
  pageSize: z.number().int().min(1).max(10_000).default(100),
  /** Per-attempt timeout in milliseconds. Default 30 s. */
  timeoutMs: z.number().int().positive().default(30_000),
  /** Retries after the first attempt for 429, 5xx, timeouts and network errors. Default 4. */
  retries: z.number().int().min(0).max(20).default(4),
  /** Keys per RealEstateDelete call. Default 100 (the spec shows no maximum). */
  deleteBatchSize: z.number().int().min(1).max(10_000).default(100),
});
export type ApiConfig = z.infer<typeof apiConfigSchema>;

export const chatbotConfigSchema = z.object({
  /** The chatbot's id (serial number), as `feeds[].chatbot` names it. */
  chatbot: chatbotId,
  settings: settingsSchema.optional(),
  /** Optional schedule of the settings push; it also runs whenever the config changes them. */
  schedule: scheduleSchema.optional(),
});
export type ChatbotConfig = z.infer<typeof chatbotConfigSchema>;

export const feedConfigSchema = z.object({
  /** Stable id: names the feed in reports, state keys and the ownership tag. */
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, . _ - (max 64)'),
  chatbot: chatbotId,
  schedule: scheduleSchema.optional(),
  source: sourceSchema,
  mapping: mappingSchema.default({}),
  /** The listing field that matches feed listings to remote ones. */
  key: z.enum(['MLSNumber', 'Url']).default('MLSNumber'),
  /** `tagged`: only listings carrying this feed's ownership tag are ours. `all`: every listing of the chatbot. */
  ownership: z.enum(['tagged', 'all']).default('tagged'),
  /** Adopt a foreign listing whose key is in the feed instead of creating a duplicate. */
  adopt: z.boolean().default(true),
  /** Refuse to delete more than this share of the feed's owned listings in one run. Default 0.2. */
  maxDeleteShare: z.number().min(0).max(1).default(0.2),
  /**
   * Scheduled runs may skip a feed that has not changed (HTTP 304, same file), but compare it with the
   * platform at least this often, so listings edited or deleted behind feed-sync's back are repaired.
   * Manual runs always compare. Default 24 hours.
   */
  fullCompareEveryHours: z.number().positive().default(24),
  enabled: z.boolean().default(true),
});
export type FeedConfig = z.infer<typeof feedConfigSchema>;

export const configSchema = z
  .object({
    api: apiConfigSchema.default(apiConfigSchema.parse({})),
    chatbots: z.array(chatbotConfigSchema).default([]),
    feeds: z.array(feedConfigSchema).default([]),
    /** ExtensionColumn key that names the feed owning a listing. */
    ownerKey: z.string().min(1).default('feed-sync:feed'),
    /** Where the one-shot CLI keeps run state (validators, watermarks, fingerprints). */
    stateFile: z.string().default('.feed-sync-state.json'),
    /** How the background worker runs, retries and keeps jobs; alerts. See docs/worker.md. */
    worker: workerSettingsSchema.default(workerSettingsSchema.parse({})),
  })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.feeds.forEach((feed, i) => {
      if (seen.has(feed.id))
        ctx.addIssue({ code: 'custom', path: ['feeds', i, 'id'], message: `duplicate feed id "${feed.id}"` });
      seen.add(feed.id);
    });
  });
export type Config = z.infer<typeof configSchema>;
