import { z } from 'zod';
import { PROFILES, RESO_PROVIDERS } from './formats/reso/profiles.ts';

/** Secrets come from `${ENV}` through the config loader's interpolation, never literally. */
export const authSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('basic'), username: z.string(), password: z.string() }),
  z.strictObject({ type: z.literal('bearer'), token: z.string().min(1) }),
  /** A custom header, e.g. `X-Api-Key`. */
  z.strictObject({ type: z.literal('header'), name: z.string().min(1), value: z.string() }),
  /** OAuth2 client credentials (RESO): the token is fetched, cached until it expires, refreshed on 401. */
  z.strictObject({
    type: z.literal('oauth2'),
    tokenUrl: z.url(),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1),
    scope: z.string().optional(),
  }),
]);
export type AuthConfig = z.infer<typeof authSchema>;

export const csvOptionsSchema = z.strictObject({
  /** Field delimiter; default sniffed from the header line among `,` `;` TAB `|`. */
  delimiter: z.string().min(1).max(4).optional(),
  /** Noise lines before the header (titles, export dates). Default 0. */
  skipRows: z.number().int().min(0).default(0),
  /** Quote character. Default `"`. */
  quote: z.string().length(1).default('"'),
  /** Largest record accepted, in bytes (characters): a runaway quoted field stops here. Default 8 MiB. */
  maxRecordBytes: z
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024),
  /**
   * A file whose last row has no line break after it is refused by default: that is what a download
   * cut short or a file still being written looks like, and syncing it would delete the rows after
   * the cut and write the cut row half. Set true for an exporter that writes no final line break.
   */
  allowUnterminatedLastRow: z.boolean().default(false),
});

export const xmlOptionsSchema = z.strictObject({
  /** Dot path of the record elements from the root: `Listings.Listing`; `*` matches any element name. */
  recordPath: z.string().min(1).optional(),
  /** Largest record accepted, in bytes. Default 8 MiB. */
  maxRecordBytes: z
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024),
});

export const blmOptionsSchema = z.strictObject({
  /** Longest row accepted, in characters: a wrong EOR would otherwise read the whole file as one row. Default 1 MiB. */
  maxRecordBytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
});

/** Requests per second, hour and day of one provider key; each defaults to the provider's published figure. */
export const resoLimitsSchema = z.strictObject({
  perSecond: z.number().positive().optional(),
  perHour: z.number().int().positive().optional(),
  perDay: z.number().int().positive().optional(),
  /** Bytes downloaded in any 60 min (MLS Grid: 4 GB); see `limitsForBytes`. */
  bytesPerHour: z.number().int().positive().optional(),
});

/**
 * A RESO Web API source. `provider` picks the published rules of an MLS data provider
 * (src/sources/formats/reso/profiles.ts) as defaults: page size, required filters, deletion markers,
 * paging, limits; every key below overrides its default. Keys left out take the profile's.
 */
export const resoOptionsSchema = z
  .strictObject({
    /** `mlsgrid`, `trestle`, `bridge`, `spark`, or `generic` (any other server). Default generic. */
    provider: z.enum(RESO_PROVIDERS).default('generic'),
    /** MLS Grid: the MLS to read (`OriginatingSystemName`, e.g. `actris`); required there. */
    originatingSystem: z.string().min(1).optional(),
    /** OData resource. Default `Property`. */
    resource: z.string().min(1).default('Property'),
    /** The feed's own `$filter` (e.g. `StandardStatus ne 'Incomplete'`), combined with the provider's and the incremental one. */
    filter: z.string().optional(),
    select: z.array(z.string().min(1)).optional(),
    /** Page size (`$top`). Default: the provider's largest (200 for generic), never above it. */
    top: z.number().int().min(1).max(10_000).optional(),
    /** `incremental`: only records modified since the last run (minus `overlapMinutes`); absent ones are kept. */
    mode: z.enum(['full', 'incremental']).default('full'),
    /** Re-read records modified this long before the watermark, for clock skew and late commits. Default 15 (Spark 20). */
    overlapMinutes: z.number().min(0).optional(),
    /** In incremental mode, a full read this often (0: never). Default 24 for generic, never for the providers. */
    fullEveryHours: z.number().min(0).optional(),
    /** A key sweep (`$select=ListingKey` over the whole feed) this often, deleting listings that left without a marker (0: never). Default 24 for the providers, never for generic. */
    sweepEveryHours: z.number().min(0).optional(),
    /** Records one run reads before it writes them and saves its place; the next run goes on (0: no limit). Default 10,000 for the providers, no limit for generic. */
    recordsPerRun: z.number().int().min(0).optional(),
    /** Requests per second, hour and day of the provider key, shared by every feed and worker using it. */
    limits: resoLimitsSchema.optional(),
    /** The older name of `limits.perSecond`. */
    requestsPerSecond: z.number().positive().optional(),
    /** `expand`: `$expand=Media` (or Media as the provider sends it); `fetch`: one Media query per page of records; `none`. Default expand. */
    media: z.enum(['expand', 'fetch', 'none']).default('expand'),
    /** Hard cap on pages followed in one run. Default 10,000. */
    maxPages: z.number().int().positive().default(10_000),
  })
  .superRefine((reso, ctx) => {
    for (const problem of resoOptionProblems(reso)) ctx.addIssue({ code: 'custom', ...problem });
  });

/** What a provider's rules refuse in a feed's `reso` options: each with its key path and a fix. */
function resoOptionProblems(reso: {
  provider: (typeof RESO_PROVIDERS)[number];
  originatingSystem?: string | undefined;
  top?: number | undefined;
  media: 'expand' | 'fetch' | 'none';
  limits?: { perSecond?: number | undefined } | undefined;
  requestsPerSecond?: number | undefined;
}): { path: string[]; message: string }[] {
  const problems: { path: string[]; message: string }[] = [];
  const profile = PROFILES[reso.provider];
  if (reso.provider === 'mlsgrid' && !reso.originatingSystem)
    problems.push({
      path: ['originatingSystem'],
      message: 'provider mlsgrid reads one MLS per query: give originatingSystem (e.g. actris)',
    });
  if (reso.provider !== 'mlsgrid' && reso.originatingSystem)
    problems.push({
      path: ['originatingSystem'],
      message: `originatingSystem is MLS Grid's; for provider ${reso.provider} put it in filter (OriginatingSystemName eq '…')`,
    });
  const expanded = reso.media === 'expand' && profile.mediaExpand !== undefined;
  const max = expanded ? profile.maxTopExpanded : profile.maxTop;
  if (reso.top !== undefined && reso.top > max)
    problems.push({
      path: ['top'],
      message: `provider ${reso.provider} answers at most ${max} records per page${expanded ? ' with $expand' : ''}: top ${reso.top} is too large`,
    });
  if (reso.requestsPerSecond !== undefined && reso.limits?.perSecond !== undefined)
    problems.push({
      path: ['requestsPerSecond'],
      message: 'give limits.perSecond only (requestsPerSecond is its older name)',
    });
  return problems;
}

/** The formats a source can have; each but blm has a block of its own options (`csv:`, `xml:`, `reso:`). */
export const SOURCE_FORMATS = ['csv', 'xml', 'reso', 'blm'] as const;

export const sourceSchema = z
  .strictObject({
    format: z.enum(SOURCE_FORMATS),
    /** HTTP(S) URL of the feed (for `reso`: the OData service root, e.g. `https://api.mls.example/odata`). */
    url: z.url({ protocol: /^https?$/ }).optional(),
    /** Local file (relative to the config file); `.gz` accepted. For `reso`, a JSON file with a `value` array. */
    path: z.string().min(1).optional(),
    /** Name used in messages (`Row 812 of acme.csv`); default the file name of `path`/`url`. */
    name: z.string().min(1).optional(),
    auth: authSchema.optional(),
    /** Extra request headers. */
    headers: z.record(z.string(), z.string()).optional(),
    /** Per-attempt timeout: connect, first byte and idle socket, in milliseconds. Default 60 s. */
    timeoutMs: z.number().int().positive().default(60_000),
    /** Retries after the first attempt on 429, 5xx, timeouts and network errors. Default 3. */
    retries: z.number().int().min(0).max(20).default(3),
    /**
     * Whole-download deadline of a `url:` feed (every attempt and page, to the last byte), in ms,
     * beside the per-attempt `timeoutMs`: a server dripping bytes is cut here. Default 30 min.
     */
    deadlineMs: z
      .number()
      .int()
      .positive()
      .default(30 * 60_000),
    /** Largest decoded (decompressed) size of a feed, in bytes: stops a gzip bomb. Default 2 GiB. */
    maxBytes: z
      .number()
      .int()
      .positive()
      .default(2 * 1024 ** 3),
    /**
     * Send If-None-Match / If-Modified-Since from the last successful run (for `path:`, compare the
     * file's size and modification time): an unchanged feed skips the run. Default true.
     */
    conditional: z.boolean().default(true),
    /**
     * Text encoding; `auto` = UTF-8, except a line whose bytes are not valid UTF-8, which is read as
     * Windows-1252 and reported (`decodedAs1252`). Decided line by line, never for the whole file.
     */
    encoding: z.enum(['auto', 'utf-8', 'windows-1252', 'latin1']).default('auto'),
    csv: csvOptionsSchema.optional(),
    xml: xmlOptionsSchema.optional(),
    reso: resoOptionsSchema.optional(),
    blm: blmOptionsSchema.optional(),
    /**
     * Where the feed's media files are published, for feeds that name them relative to the feed
     * (BLM `MEDIA_IMAGE_00` = `123_IMG_00.jpg`, OpenImmo `anhang` paths): `https://cdn.example/media/`.
     * Without it such names are dropped, since the platform needs absolute URLs.
     */
    mediaBaseUrl: z.url({ protocol: /^https?$/ }).optional(),
  })
  .refine((s) => Boolean(s.url) !== Boolean(s.path), { message: 'give exactly one of url or path' })
  .superRefine((s, ctx) => {
    for (const problem of mlsGridLimitProblems(s.url, s.reso))
      ctx.addIssue({ code: 'custom', ...problem, path: ['reso', ...problem.path] });
  });

/**
 * MLS Grid suspends a token over its published limits: against its own host, a limit above one is
 * refused, not run into (a tester's `perSecond: 5` was accepted). Lower limits are the user's; a
 * server elsewhere (a proxy, a test double) takes any.
 */
function mlsGridLimitProblems(
  url: string | undefined,
  reso: z.output<typeof resoOptionsSchema> | undefined,
): { path: string[]; message: string }[] {
  // An unparsable URL is the url rule's problem (a reviewer: `new URL` threw out of the refine).
  if (reso?.provider !== 'mlsgrid' || !url || !URL.canParse(url)) return [];
  if (!/(^|\.)mlsgrid\.com$/i.test(new URL(url).hostname)) return [];
  const profile = PROFILES.mlsgrid;
  const given = { ...reso.limits, perSecond: reso.limits?.perSecond ?? reso.requestsPerSecond };
  const problems: { path: string[]; message: string }[] = [];
  for (const name of ['perSecond', 'perHour', 'perDay', 'bytesPerHour'] as const) {
    const value = given[name];
    const ceiling = profile.limits[name];
    if (value !== undefined && ceiling !== undefined && value > ceiling)
      problems.push({
        path:
          name === 'perSecond' && reso.limits?.perSecond === undefined
            ? ['requestsPerSecond']
            : ['limits', name],
        message: `MLS Grid suspends a token over ${ceiling} (limits.${name}, docs.mlsgrid.com): ${value} is above it; give ${ceiling} or less, or leave it out`,
      });
  }
  return problems;
}
export type SourceConfig = z.infer<typeof sourceSchema>;
export type CsvOptions = z.infer<typeof csvOptionsSchema>;
export type XmlOptions = z.infer<typeof xmlOptionsSchema>;
export type ResoOptions = z.infer<typeof resoOptionsSchema>;
export type ResoLimits = z.infer<typeof resoLimitsSchema>;
export type BlmOptions = z.infer<typeof blmOptionsSchema>;
