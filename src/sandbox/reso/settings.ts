import { DAY, HOUR, type Limit, MINUTE, SECOND } from './budget.ts';

export const PROVIDERS = ['mlsgrid', 'trestle', 'bridge', 'spark'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** What a provider server does; defaults are the provider's published figures (docs/reso-providers.md). */
export interface ResoSettings {
  provider: ProviderName;
  /** Bearer token the API accepts (MLS Grid, Bridge, Spark). Trestle accepts the tokens it issued. */
  token: string;
  /** Trestle's OAuth2 client credentials. */
  clientId: string;
  clientSecret: string;
  /** Lifetime of a Trestle access token, in seconds. Default 28800 (8 hours, as documented). */
  tokenLifetimeSeconds: number;
  /** MLS Grid's OriginatingSystemName (the MLS the key reads); the value every record carries. */
  originatingSystem: string;
  /** Bridge's dataset code, the path segment after /OData/. */
  dataset: string;
  /** Request and byte limits, per key. */
  limits: Limit[];
  /** Send `Retry-After` with 429s. None of the four documents it; default false. */
  retryAfter: boolean;
  /** MLS Grid: answer 400 `COMPRESSION REQUIRED` to a request without `Accept-Encoding: gzip`. */
  requireGzip: boolean;
  /** Trestle: a replication link unused for this long expires, in ms. Default 5 minutes. */
  replicationIdleMs: number;
  /** How long a deleted listing stays as a marker (MLS Grid: 7 days); 0 = it vanishes at once. */
  markerRetentionMs: number;
  /** Trestle's cap on the rows one standard query may reach ($skip + $top). Default 1 000 000. */
  maxQueryRows: number;
  /** Bridge's cap on `$skip` of the standard endpoint. Default 10 000. */
  maxSkip: number;
  /** Share of a window's budget at which MLS Grid's warning e-mail goes out. */
  warnAt: number;
}

function limit(name: string, windowMs: number, n: number, unit: Limit['unit'] = 'requests'): Limit {
  return { name, windowMs, limit: n, unit };
}

/** The published limits of each provider (the stricter figure where two sources disagree). */
export function defaultLimits(provider: ProviderName): Limit[] {
  switch (provider) {
    case 'mlsgrid':
      return [
        limit('second', SECOND, 2),
        limit('hour', HOUR, 7200),
        limit('day', DAY, 40_000),
        limit('bytesPerHour', HOUR, 4 * 1024 ** 3, 'bytes'),
      ];
    case 'trestle':
      return [limit('minute', MINUTE, 180), limit('hour', HOUR, 7200)];
    case 'bridge':
      // The burst limit is 1/15 of the hourly one, per minute (Bridge, August 2024).
      return [limit('burst', MINUTE, Math.ceil(5000 / 15)), limit('hour', HOUR, 5000)];
    case 'spark':
      // Spark publishes no figure we could find; this is our choice (docs/reso-providers.md).
      return [limit('fiveMinutes', 5 * MINUTE, 1500)];
  }
}

export function defaultSettings(provider: ProviderName): ResoSettings {
  return {
    provider,
    token: 'sandbox-token',
    clientId: 'sandbox-client',
    clientSecret: 'sandbox-secret',
    tokenLifetimeSeconds: 28_800,
    originatingSystem: provider === 'mlsgrid' ? 'actris' : 'ACTRIS',
    dataset: 'actris_ref',
    limits: defaultLimits(provider),
    retryAfter: false,
    requireGzip: provider === 'mlsgrid',
    replicationIdleMs: 5 * MINUTE,
    markerRetentionMs: provider === 'mlsgrid' ? 7 * DAY : 0,
    maxQueryRows: 1_000_000,
    maxSkip: 10_000,
    warnAt: 0.8,
  };
}

/** ListingKey prefix per provider: MLS Grid prefixes keys with the MLS's code (ACT for ACTRIS). */
export function keyPrefixOf(provider: ProviderName): string {
  return { mlsgrid: 'ACT', trestle: 'T', bridge: 'B', spark: 'S' }[provider];
}
