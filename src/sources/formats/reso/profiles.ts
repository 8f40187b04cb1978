import type { BudgetLimits } from '../../../budget/index.ts';

/** The RESO Web API providers feed-sync knows the published rules of; `generic` is any other server. */
export const RESO_PROVIDERS = ['generic', 'mlsgrid', 'trestle', 'bridge', 'spark'] as const;
export type ResoProvider = (typeof RESO_PROVIDERS)[number];

/**
 * A provider's published rules for a replication client, as defaults a feed may override
 * (`source.reso`). Where two published sources disagree, the stricter figure is taken. Read from
 * the providers' documentation (README "MLS providers" names each page).
 */
export interface ProviderProfile {
  provider: ResoProvider;
  /** Largest `$top` the provider answers, without and with `$expand`. */
  maxTop: number;
  maxTopExpanded: number;
  /** Default page size; undefined: the largest the provider answers. */
  defaultTop: number | undefined;
  /**
   * How the page size is asked: `$top` (most providers treat it as the page size), or the OData
   * `Prefer: odata.maxpagesize` header where `$top` is the size of the whole result (Bridge).
   */
  pageSizeBy: 'top' | 'prefer';
  /** Requests per second, hour and day of one key. */
  limits: BudgetLimits;
  /** Re-read this long before the watermark (server-side caching, late commits). */
  overlapMinutes: number;
  /** A full re-read this often; undefined: never (markers and the key sweep keep the feed right). */
  fullEveryHours: number | undefined;
  /** A key sweep this often; undefined: never. */
  sweepEveryHours: number | undefined;
  /** Records one run reads before it writes them and saves its place; undefined: no limit. */
  recordsPerRun: number | undefined;
  /** The `$orderby` sent, or undefined to take the server's own order (some refuse `$orderby`). */
  orderBy: string | undefined;
  /** The order records arrive in: by ModificationTimestamp, or by ListingKey. */
  order: 'timestamp' | 'key';
  /** A replication cut off goes on from its position (`filter`) or from its saved nextLink (`link`). */
  resume: 'filter' | 'link';
  /** nextLinks expire this long after the page that gave them (Trestle: 5 min idle); undefined: never. */
  linkLifetimeMs: number | undefined;
  /** Extra query parameters of a read of the whole feed (Trestle's replication mode beyond 1M rows). */
  fullReadParams: Readonly<Record<string, string>>;
  /** `$expand` for photos; undefined when Media arrives without one. */
  mediaExpand: string | undefined;
  /** Filters every query must carry. */
  requiredFilters(options: { originatingSystem?: string | undefined }): string[];
  /** Filters of a read of the whole feed only (MLS Grid's initial import). */
  fullReadFilters: readonly string[];
  /** The record is a deletion marker: the listing must go. */
  isDeletion(record: Readonly<Record<string, unknown>>): boolean;
  /** Page size of a key sweep (`$select` of the key fields only, no `$expand`). */
  sweepTop: number;
  /**
   * A 429 the retries did not get past (or, `retry: false`, the first): the run ends `paused` for
   * `pauseMs` (or the server's longer Retry-After), its records written, and says `note`.
   */
  rateLimited: { retry: boolean; pauseMs: number; note?: string };
}

/** An OData string literal: quotes doubled. */
export const odataString = (value: string) => `'${value.replace(/'/g, "''")}'`;

const none = () => [];
/**
 * MLS Grid's deletion marker, honoured from every provider: vendors and proxies that pass MLS Grid
 * data through keep the field, and a record that says it must not be shown is never published.
 */
export const notViewable = (record: Readonly<Record<string, unknown>>) =>
  record.MlgCanView === false || record.MlgCanView === 'false';

const generic: ProviderProfile = {
  provider: 'generic',
  maxTop: 10_000,
  maxTopExpanded: 10_000,
  defaultTop: 200,
  pageSizeBy: 'top',
  // feed-sync's behaviour before profiles: 2 requests per second, nothing else known.
  limits: { perSecond: 2 },
  overlapMinutes: 15,
  fullEveryHours: 24,
  sweepEveryHours: undefined,
  recordsPerRun: undefined,
  orderBy: 'ModificationTimestamp asc,ListingKey asc',
  order: 'timestamp',
  resume: 'filter',
  linkLifetimeMs: undefined,
  fullReadParams: {},
  mediaExpand: 'Media',
  requiredFilters: none,
  fullReadFilters: [],
  isDeletion: notViewable,
  sweepTop: 200,
  rateLimited: { retry: true, pauseMs: 60_000 },
};

/**
 * MLS Grid v2 (docs.mlsgrid.com, API Version 2.0): 2 requests/s, 7,200/hour, 40,000/24 h and 4 GB/hour
 * per token, over them a 429 and the token suspended; `$top` up to 5,000, 1,000 with `$expand`; every
 * request filters one `OriginatingSystemName`; the initial import filters `MlgCanView eq true`;
 * `MlgCanView: false` means delete (such records leave the feed after 7 days); results come ordered
 * by ModificationTimestamp and `$orderby` is not among the replication features, so none is sent;
 * only a few fields are searchable (ModificationTimestamp, MlgCanView, ListingId…), not ListingKey.
 */
const mlsgrid: ProviderProfile = {
  ...generic,
  provider: 'mlsgrid',
  defaultTop: undefined,
  maxTop: 5000,
  maxTopExpanded: 1000,
  // 4 GB taken as 4 × 10⁹ bytes: the stricter reading of "GB".
  limits: { perSecond: 2, perHour: 7200, perDay: 40_000, bytesPerHour: 4_000_000_000 },
  fullEveryHours: undefined,
  sweepEveryHours: 24,
  recordsPerRun: 10_000,
  orderBy: undefined,
  requiredFilters: ({ originatingSystem }) =>
    originatingSystem ? [`OriginatingSystemName eq ${odataString(originatingSystem)}`] : [],
  fullReadFilters: ['MlgCanView eq true'],
  sweepTop: 5000,
  // Its 429 means the token went over a limit and is suspended (an e-mail goes to the account):
  // asking again digs deeper. An hour, its shortest window.
  rateLimited: {
    retry: false,
    pauseMs: 3_600_000,
    note: 'MLS Grid suspends a token that goes over its limits and e-mails the account holder: check the token’s standing',
  },
};

/**
 * CoreLogic (Cotality) Trestle (trestle-documentation.corelogic.com): `$top` up to 1,000; a standard
 * query stops at 1 million rows, so a read of the whole feed uses `replication=true`, whose nextLink
 * (`/Property/replication?id=…`) expires after 5 minutes of inactivity and is followed until a page
 * comes back empty; ordered by ListingKey as its replication example is. Quotas: 7,200 queries/hour
 * and 180/minute (3/s), announced in `Hour-Quota-*` / `Minute-Quota-*` headers. Media URLs are signed
 * and change on every read: photos are compared by `PhotosChangeTimestamp`, not by URL.
 */
const trestle: ProviderProfile = {
  ...generic,
  provider: 'trestle',
  defaultTop: undefined,
  maxTop: 1000,
  maxTopExpanded: 1000,
  limits: { perSecond: 3, perHour: 7200 },
  fullEveryHours: undefined,
  sweepEveryHours: 24,
  recordsPerRun: 10_000,
  orderBy: 'ListingKey asc',
  order: 'key',
  linkLifetimeMs: 5 * 60_000,
  fullReadParams: { replication: 'true' },
  sweepTop: 1000,
};

/**
 * Bridge Interactive (bridgedataoutput.com docs): pages of up to 200, asked with `Prefer:
 * odata.maxpagesize` (since its RESO Web API update `$top` is the size of the whole result, as OData
 * says, so no `$top` is sent); `$skip` stops at 10,000, where a read goes on from its position with
 * a new query; 5,000 requests per hour by default, and since August 2024 a per-minute burst limit of
 * 1/15 of the hourly one (333/min, so 5/s), announced in `Application-RateLimit-*` and
 * `Burst-RateLimit-*` headers. Media is a property of Property on Bridge (its docs `unselect` it),
 * so no `$expand` is sent.
 */
const bridge: ProviderProfile = {
  ...generic,
  provider: 'bridge',
  defaultTop: undefined,
  pageSizeBy: 'prefer',
  maxTop: 200,
  maxTopExpanded: 200,
  limits: { perSecond: 5, perHour: 5000 },
  fullEveryHours: undefined,
  sweepEveryHours: 24,
  recordsPerRun: 10_000,
  mediaExpand: undefined,
  sweepTop: 200,
};

/**
 * FBS Spark (sparkplatform.com/docs/reso/replication): replication keys read
 * `replication.sparkapi.com/Reso/OData` with `$top` up to 1,000, paged by the `$skiptoken` of each
 * nextLink in ListingKey order (applied by default: no `$orderby` is sent); updates by
 * `ModificationTimestamp gt` the last successful retrieval minus 20 minutes; stale listings purged
 * by reading every ListingKey. Its replication guide publishes no request rate: 2/s is a
 * conservative default, raised with `limits.perSecond` where the key allows more.
 */
const spark: ProviderProfile = {
  ...generic,
  provider: 'spark',
  defaultTop: undefined,
  maxTop: 1000,
  maxTopExpanded: 1000,
  limits: { perSecond: 2 },
  overlapMinutes: 20,
  fullEveryHours: undefined,
  sweepEveryHours: 24,
  recordsPerRun: 10_000,
  orderBy: undefined,
  order: 'key',
  resume: 'link',
  sweepTop: 1000,
};

export const PROFILES: Readonly<Record<ResoProvider, ProviderProfile>> = {
  generic,
  mlsgrid,
  trestle,
  bridge,
  spark,
};
