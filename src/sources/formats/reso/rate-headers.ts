import type { Ceiling } from '../../../budget/index.ts';

/**
 * The headers providers announce what is left of a key's budget in: `X-RateLimit-*` (common),
 * Bridge's `Application-RateLimit-*` (hourly) and `Burst-RateLimit-*` (per minute), Trestle's
 * `Hour-Quota-*` and `Minute-Quota-*`. Each: the remaining count, its reset, and the window assumed
 * when no reset is given.
 */
const FAMILIES = [
  { name: 'x-ratelimit', remaining: 'x-ratelimit-remaining', reset: 'x-ratelimit-reset', windowMs: 60_000 },
  {
    name: 'application',
    remaining: 'application-ratelimit-remaining',
    reset: 'application-ratelimit-reset',
    windowMs: 3_600_000,
  },
  { name: 'burst', remaining: 'burst-ratelimit-remaining', reset: 'burst-ratelimit-reset', windowMs: 60_000 },
  {
    name: 'hour-quota',
    remaining: 'hour-quota-available',
    reset: 'hour-quota-resettime',
    windowMs: 3_600_000,
  },
  {
    name: 'minute-quota',
    remaining: 'minute-quota-available',
    reset: 'minute-quota-resettime',
    windowMs: 60_000,
  },
] as const;

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * A reset as providers write it: epoch milliseconds, epoch seconds, seconds from now, or a date.
 * Undefined when unreadable.
 */
export function parseReset(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    if (n > 1e12) return n;
    if (n > 1e9) return n * 1000;
    return now + n * 1000;
  }
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at;
}

/** The ceilings an answer's headers announce (header names lower-case, as Node gives them). Pure. */
export function ceilingsOf(headers: Headers, now: number): Ceiling[] {
  const ceilings: Ceiling[] = [];
  for (const family of FAMILIES) {
    const text = first(headers[family.remaining]);
    // Trestle writes its figures as floats (`7150.0`).
    if (text === undefined || !/^\s*-?\d+(\.\d+)?\s*$/.test(text)) continue;
    const resetAt = parseReset(first(headers[family.reset]), now) ?? now + family.windowMs;
    if (resetAt <= now) continue;
    ceilings.push({ name: family.name, remaining: Math.floor(Number(text)), resetAt });
  }
  return ceilings;
}
