import { z } from 'zod';
import { mappingSchema } from '../normalize/index.ts';
import { isIanaTimeZone, settingsSchema } from '../settings/index.ts';
import { sourceSchema } from '../sources/index.ts';
import { cronProblem } from './cron.ts';
import { isLoopbackHost } from './loopback.ts';
import { workerSettingsSchema } from './worker-settings.ts';

/**
 * A platform key. Absent means "not sent" (the sandbox needs none); present but empty or blank is
 * an error: it is an unset or mistyped environment variable, and every call would fail with 401.
 */
const secret = z
  .string()
  .refine(
    (v) => v.trim() !== '',
    'is empty or blank (an unset environment variable?); set it, or remove the key to send none',
  )
  .optional();
/** A chatbot's id: its serial number on the platform (sent as `serialNumber`/`SerialNumber` there). */
/** The longest delay a Node timer keeps (2^31 − 1 ms, ~24.8 days): a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

const chatbotId = z.string().min(1, 'a chatbot serial number is required');

export const scheduleSchema = z.strictObject({
  /** Cron expression (5 or 6 fields, or `@daily`…), evaluated in `timezone`. Checked when the config loads. */
  cron: z.string().superRefine((cron, ctx) => {
    const problem = cronProblem(cron);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  /** IANA time zone, default UTC. */
  timezone: z
    .string()
    .refine(isIanaTimeZone, {
      error: (issue) => `"${String(issue.input)}" is not an IANA time zone (e.g. America/New_York)`,
    })
    .default('UTC'),
});

/** https, or http to this machine's loopback (the sandbox), or http allowed by `allowInsecureHttp`. */
function insecureBaseUrl(api: { baseUrl: string; allowInsecureHttp: boolean }): boolean {
  const url = URL.parse(api.baseUrl);
  // An unparseable URL is reported by `z.url()` already.
  if (!url || url.protocol === 'https:' || api.allowInsecureHttp) return false;
  return url.protocol !== 'http:' || !isLoopbackHost(url.hostname);
}

/** The base URL names this machine (the sandbox): no key is needed there. */
function onLoopback(baseUrl: string): boolean {
  const url = URL.parse(baseUrl);
  return url !== null && isLoopbackHost(url.hostname);
}

const hostOf = (baseUrl: string | undefined) =>
  baseUrl ? (URL.parse(baseUrl)?.host ?? baseUrl) : 'the platform';

export const apiConfigSchema = z
  .strictObject({
    /** The spec's {base_url}. The platform documents this host, so it is the default. https unless loopback. */
    baseUrl: z.url().default('https://usapi.hottask.com'),
    /** Allow `http://` to a host that is not loopback (a sandbox container on a private network). Default false. */
    allowInsecureHttp: z.boolean().default(false),
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
    timeoutMs: z.number().int().positive().max(MAX_TIMER_MS).default(30_000),
    /** Retries after the first attempt for 429, 5xx, timeouts and network errors. Default 4. */
    retries: z.number().int().min(0).max(20).default(4),
    /** Keys per RealEstateDelete call. Default 100 (the spec shows no maximum). */
    deleteBatchSize: z.number().int().min(1).max(10_000).default(100),
  })
  .refine((api) => !insecureBaseUrl(api), {
    path: ['baseUrl'],
    message:
      'must be https:// (the keys travel in every request); http:// only to a loopback address, or with api.allowInsecureHttp: true',
  });
export type ApiConfig = z.infer<typeof apiConfigSchema>;

/**
 * The platform answers every call without a key with 401: a config with neither key is refused when
 * it loads, not at the first request (`parseConfig`), unless the command never calls the platform
 * (`validate`), which notes it. The local sandbox needs none, so a loopback baseUrl is exempt.
 * Read from the interpolated config before the schema (its `baseUrl` may be unset: the default).
 */
export function missingPlatformKey(api: {
  baseUrl?: unknown;
  secretKey?: unknown;
  sessionKey?: unknown;
}): string | undefined {
  const baseUrl = typeof api.baseUrl === 'string' ? api.baseUrl : 'https://usapi.hottask.com';
  if (api.secretKey !== undefined || api.sessionKey !== undefined || onLoopback(baseUrl)) return undefined;
  return `neither api.secretKey nor api.sessionKey is set, so every request to ${hostOf(baseUrl)} would be refused; set secretKey: \${CHATBOT_SECRET_KEY} (or sessionKey), or point api.baseUrl at a local sandbox (http://127.0.0.1:4010 needs no key)`;
}

export const chatbotConfigSchema = z.strictObject({
  /** The chatbot's id (serial number), as `feeds[].chatbot` names it. */
  chatbot: chatbotId,
  settings: settingsSchema.optional(),
  /** Optional schedule of the settings push; it also runs whenever the config changes them. */
  schedule: scheduleSchema.optional(),
});
export type ChatbotConfig = z.infer<typeof chatbotConfigSchema>;

/**
 * What happens to a listing that leaves the feed (gone from a full feed, or marked removed by an
 * incremental one): `delete` it, or `markSold` (updated once to `Status: Sold`, nothing else), and
 * keep it `afterDays` first (default 0 for delete, 30 for markSold). A listing back in the feed
 * within the grace keeps its platform ID.
 */
const GONE_ACTIONS = ['delete', 'markSold'] as const;
export const goneSchema = z
  .preprocess(
    // `gone: markSold` says the same as `gone: { action: markSold }`.
    (value) => (typeof value === 'string' ? { action: value } : value),
    z.strictObject({
      action: z.enum(GONE_ACTIONS).default('delete'),
      /** Days a listing missing from the feed is kept first (at most ten years). */
      afterDays: z.number().min(0).max(3650).optional(),
    }),
  )
  .transform(({ action, afterDays }) => ({
    action,
    afterDays: afterDays ?? (action === 'markSold' ? 30 : 0),
  }))
  .refine((gone) => gone.action !== 'markSold' || gone.afterDays > 0, {
    message:
      'markSold with afterDays: 0 would delete at once and never mark a listing Sold; give afterDays > 0, or action: delete',
  });

/** A feed's id: it names the feed in reports, state keys and the ownership tag. */
const feedIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, . _ - (max 64)');

export const feedConfigSchema = z.strictObject({
  /** Stable id: names the feed in reports, state keys and the ownership tag. */
  id: feedIdSchema,
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
  /**
   * Former ids of this feed (it was renamed): listings tagged with one are this feed's, retagged on
   * their next run. Without it a renamed feed skips every key its old id's listings hold.
   */
  adoptFrom: z
    // One id written alone is a list of one: its problems then read as a list's (`adoptFrom[0]: …`).
    .preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(feedIdSchema))
    .default([]),
  /** Refuse to delete more than this share of the feed's owned listings in one run. Default 0.2. */
  maxDeleteShare: z.number().min(0).max(1).default(0.2),
  /** What a listing that leaves the feed becomes: deleted (default) or marked Sold, after a grace. */
  gone: goneSchema.default({ action: 'delete', afterDays: 0 }),
  /**
   * A value the feed stops sending (a price gone "on request", the last photo removed): `clear` it
   * on the platform (default: in the fields the feed sets on some listing, and the prices its
   * mapping maps; any other field is never touched), or `keep` what the platform holds. The spec has
   * no value that clears a field, so a listing with a value to clear is replaced: created anew, then
   * the old one deleted (guard `mass-replace` holds many at once).
   */
  unsetFields: z.enum(['clear', 'keep']).default('clear'),
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
  .strictObject({
    // Parsed like a written one: a config without `api:` talks to the default host, so needs a key too.
    api: apiConfigSchema.prefault({}),
    chatbots: z.array(chatbotConfigSchema).default([]),
    feeds: z.array(feedConfigSchema).default([]),
    /** ExtensionColumn key that names the feed owning a listing. */
    ownerKey: z.string().min(1).default('feed-sync:feed'),
    /** Where the one-shot CLI keeps run state (validators, watermarks, fingerprints). */
    stateFile: z.string().default('.feed-sync-state.json'),
    /** How the background worker runs, retries and keeps jobs; alerts. See docs/worker.md. */
    worker: workerSettingsSchema.default(workerSettingsSchema.parse({})),
  })
  // Run even when other parts of the config are invalid, so every problem is reported at once:
  // the value may then be malformed anywhere, hence the checks on `unknown`.
  .superRefine(
    (config, ctx) => {
      const feeds: unknown = (config as { feeds?: unknown }).feeds;
      if (!Array.isArray(feeds)) return;
      const seen = new Set<string>();
      feeds.forEach((feed: unknown, i) => {
        const id = (feed as { id?: unknown } | null)?.id;
        if (typeof id !== 'string') return;
        if (seen.has(id))
          ctx.addIssue({ code: 'custom', path: ['feeds', i, 'id'], message: `duplicate feed id "${id}"` });
        seen.add(id);
      });
      // A listing has one owner: a former id another feed still has, or two feeds claim, would have two.
      const claimed = new Map<string, string>();
      feeds.forEach((feed: unknown, i) => {
        const { id, adoptFrom } = (feed ?? {}) as { id?: unknown; adoptFrom?: unknown };
        // `adoptFrom: acme` reaches here as `[acme]` (the schema's preprocess).
        if (!Array.isArray(adoptFrom)) return;
        adoptFrom.forEach((former: unknown, j) => {
          if (typeof former !== 'string') return;
          const path = ['feeds', i, 'adoptFrom', j];
          if (seen.has(former))
            ctx.addIssue({
              code: 'custom',
              path,
              message: `"${former}" is ${former === id ? 'this feed' : 'another feed of this config'}: adoptFrom names a former id, no feed has it now`,
            });
          else if (claimed.has(former) && claimed.get(former) !== id)
            ctx.addIssue({
              code: 'custom',
              path,
              message: `"${former}" is adopted by feed "${claimed.get(former)}" too: a former id's listings go to one feed`,
            });
          else if (typeof id === 'string') claimed.set(former, id);
        });
      });
    },
    { when: () => true },
  );
export type Config = z.infer<typeof configSchema>;
