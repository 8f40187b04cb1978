import { z } from 'zod';
import { FeedSyncError } from '../../errors.ts';
import { describeIssues } from '../issues.ts';
import type { Limit } from './budget.ts';
import type { ResoClock } from './clock.ts';
import { defaultLimits, PROVIDERS, type ProviderName, type ResoSettings } from './settings.ts';

/**
 * Options of `startResoProvider`. Every figure defaults to the provider's published one; see
 * docs/reso-providers.md.
 */
export interface ResoProviderOptions {
  provider: ProviderName;
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Generated listings. Default 1000. */
  listings?: number;
  /** Seed of the generated data. Default 1. */
  seed?: number;
  /** The bearer token the API accepts (MLS Grid, Bridge, Spark). Default `sandbox-token`. */
  token?: string;
  /** Trestle's client credentials. Defaults `sandbox-client` / `sandbox-secret`. */
  clientId?: string;
  clientSecret?: string;
  /** Trestle token lifetime in seconds. Default 28800. */
  tokenLifetimeSeconds?: number;
  /** MLS Grid: the OriginatingSystemName of the MLS. Default `actris`. */
  originatingSystem?: string;
  /** Bridge: the dataset code in the path. Default `actris_ref`. */
  dataset?: string;
  /**
   * Limits by name, replacing the provider's figure; `null` removes a limit. Names: MLS Grid
   * `second`, `hour`, `day`, `bytesPerHour`; Trestle `minute`, `hour`; Bridge `burst`, `hour`;
   * Spark `fiveMinutes`.
   */
  limits?: Record<string, number | null>;
  /** Add `Retry-After` to 429s (no provider documents it). Default false. */
  retryAfter?: boolean;
  /** MLS Grid: refuse requests without `Accept-Encoding: gzip`. Default true for MLS Grid. */
  requireGzip?: boolean;
  /** Trestle: idle time after which a replication link expires, ms. Default 300000. */
  replicationIdleMs?: number;
  /** How long deletion markers stay, ms. Default 7 days for MLS Grid, 0 (vanish) for the others. */
  markerRetentionMs?: number;
  /** Trestle: rows one standard query may reach. Default 1000000. */
  maxQueryRows?: number;
  /** Bridge: the largest `$skip`. Default 10000. */
  maxSkip?: number;
  /** Listings sharing one ModificationTimestamp. Default 3. */
  tieGroup?: number;
  /** ModificationTimestamp of the first listing (ISO). Default 2024-01-01T00:00:00.000Z. */
  baseTime?: string;
  /** Time between groups of tied listings, ms. Default 1000. */
  stepMs?: number;
  /** The clock of budgets and expiries. Default: real time, movable by `advanceClock`. */
  clock?: ResoClock;
}

const ms = z.number().int().min(0);
const positive = z.number().int().min(1);

export const optionsSchema = z.strictObject({
  provider: z.enum(PROVIDERS),
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  listings: z.number().int().min(0).max(5_000_000).optional(),
  seed: z.number().int().optional(),
  token: z.string().min(1).optional(),
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  tokenLifetimeSeconds: positive.optional(),
  originatingSystem: z.string().min(1).optional(),
  dataset: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
  limits: z.record(z.string(), z.number().int().min(0).nullable()).optional(),
  retryAfter: z.boolean().optional(),
  requireGzip: z.boolean().optional(),
  replicationIdleMs: ms.optional(),
  markerRetentionMs: ms.optional(),
  maxQueryRows: positive.optional(),
  maxSkip: ms.optional(),
  tieGroup: positive.optional(),
  baseTime: z.iso.datetime().optional(),
  stepMs: positive.optional(),
  clock: z
    .custom<ResoClock>((v) => typeof v === 'object' && v !== null && 'now' in v && 'advance' in v)
    .optional(),
});

/** A bad option of a provider server; the message names it. */
export class ResoOptionsError extends FeedSyncError {
  constructor(message: string) {
    super(message, { kind: 'CONFIG_INVALID', code: 'E_RESO_SANDBOX_OPTIONS' });
  }
}

export function parseResoOptions(input: unknown): ResoProviderOptions {
  const parsed = optionsSchema.safeParse(input, { reportInput: true });
  if (!parsed.success)
    throw new ResoOptionsError(`invalid RESO sandbox options: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** The provider's limits with some replaced or removed by name; an unknown name is an error. */
export function applyLimits(
  provider: ProviderName,
  current: Limit[],
  change: Record<string, number | null> = {},
): Limit[] {
  const known = new Set(defaultLimits(provider).map((l) => l.name));
  for (const name of Object.keys(change))
    if (!known.has(name))
      throw new ResoOptionsError(
        `limits.${name}: ${provider} has no such limit (it has ${[...known].join(', ')})`,
      );
  const defaults = defaultLimits(provider);
  const out: Limit[] = [];
  for (const base of defaults) {
    const value = base.name in change ? change[base.name] : current.find((l) => l.name === base.name)?.limit;
    if (value === null || value === undefined) continue;
    out.push({ ...base, limit: value });
  }
  return out;
}

export function settingsOf(options: ResoProviderOptions, defaults: ResoSettings): ResoSettings {
  const pick = <K extends keyof ResoSettings>(key: K): ResoSettings[K] =>
    (options as Partial<ResoSettings>)[key] ?? defaults[key];
  return {
    ...defaults,
    token: pick('token'),
    clientId: pick('clientId'),
    clientSecret: pick('clientSecret'),
    tokenLifetimeSeconds: pick('tokenLifetimeSeconds'),
    originatingSystem: pick('originatingSystem'),
    dataset: pick('dataset'),
    retryAfter: pick('retryAfter'),
    requireGzip: pick('requireGzip'),
    replicationIdleMs: pick('replicationIdleMs'),
    markerRetentionMs: pick('markerRetentionMs'),
    maxQueryRows: pick('maxQueryRows'),
    maxSkip: pick('maxSkip'),
    limits: applyLimits(defaults.provider, defaults.limits, options.limits),
  };
}
