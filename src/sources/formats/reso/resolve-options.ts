import type { BudgetLimits } from '../../../budget/index.ts';
import type { ResoOptions } from '../../source-schema.ts';
import { PROFILES, type ProviderProfile } from './profiles.ts';

const HOUR_MS = 3_600_000;

/** A feed's `reso` options over its provider's profile: every default filled in. Pure. */
export interface ResolvedReso {
  profile: ProviderProfile;
  originatingSystem: string | undefined;
  resource: string;
  filter: string | undefined;
  select: string[] | undefined;
  /** Page size of record reads. */
  top: number;
  mode: 'full' | 'incremental';
  overlapMs: number;
  /** undefined: never. */
  fullEveryMs: number | undefined;
  /** undefined: never (a full read cut over several runs still ends with one). */
  sweepEveryMs: number | undefined;
  /** undefined: no limit. */
  recordsPerRun: number | undefined;
  limits: BudgetLimits;
  media: 'expand' | 'fetch' | 'none';
  /** The `$expand` of record reads, if any. */
  expand: string | undefined;
  maxPages: number;
}

/** 0 means "never" / "no limit" in the config; undefined keeps the profile's. */
const positive = (value: number | undefined) => (value === undefined || value <= 0 ? undefined : value);

export function resolveResoOptions(options: ResoOptions): ResolvedReso {
  const profile = PROFILES[options.provider];
  const expand = options.media === 'expand' ? profile.mediaExpand : undefined;
  const max = expand ? profile.maxTopExpanded : profile.maxTop;
  const fullEveryHours = options.fullEveryHours ?? profile.fullEveryHours;
  const sweepEveryHours = options.sweepEveryHours ?? profile.sweepEveryHours;
  return {
    profile,
    originatingSystem: options.originatingSystem,
    resource: options.resource,
    filter: options.filter,
    select: options.select,
    top: Math.min(options.top ?? profile.defaultTop ?? max, max),
    mode: options.mode,
    overlapMs: (options.overlapMinutes ?? profile.overlapMinutes) * 60_000,
    fullEveryMs: positive(fullEveryHours) === undefined ? undefined : fullEveryHours! * HOUR_MS,
    sweepEveryMs: positive(sweepEveryHours) === undefined ? undefined : sweepEveryHours! * HOUR_MS,
    recordsPerRun: positive(options.recordsPerRun ?? profile.recordsPerRun),
    limits: {
      perSecond: options.limits?.perSecond ?? options.requestsPerSecond ?? profile.limits.perSecond,
      perHour: options.limits?.perHour ?? profile.limits.perHour,
      perDay: options.limits?.perDay ?? profile.limits.perDay,
      bytesPerHour: options.limits?.bytesPerHour ?? profile.limits.bytesPerHour,
    },
    media: options.media,
    expand,
    maxPages: options.maxPages,
  };
}
