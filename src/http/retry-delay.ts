/** Backoff options of the one retry policy. Units: milliseconds. */
export interface BackoffOptions {
  /** First delay. Default 250 ms. */
  baseMs?: number;
  /** Ceiling of any computed delay. Default 30 s. */
  maxMs?: number;
  /** Longest Retry-After honoured; a longer one is capped here. Default 120 s. */
  maxRetryAfterMs?: number;
}

/**
 * Delay before retry number `attempt` (1 = the first retry): the server's Retry-After when it gave
 * one, otherwise exponential backoff with full jitter. Pure: `random` is passed in.
 */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
  options: BackoffOptions = {},
): number {
  const { baseMs = 250, maxMs = 30_000, maxRetryAfterMs = 120_000 } = options;
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.min(retryAfterMs, maxRetryAfterMs);
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  // Full jitter, but never below half the ceiling, so retries of many clients spread without bunching at 0.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Parse a Retry-After header: delta-seconds or an HTTP date. Returns milliseconds, or undefined. */
export function parseRetryAfter(header: string | undefined, now: number = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
