import { UnrecoverableError, Worker } from 'bullmq';
import { HttpError, isApiError } from '../src/api/index.ts';
import { ConfigError } from '../src/config/load.ts';
import { isFeedError } from '../src/sources/feed-error.ts';

/** A job payload that does not fit its schema: retrying cannot fix it. */
export class PayloadError extends Error {
  readonly code = 'E_PAYLOAD';
}

/** Used when a 429 came without Retry-After. */
export const DEFAULT_RATE_LIMIT_MS = 5_000;

/**
 * The one place where our errors get BullMQ's meaning. Returns the error to throw:
 * - bad config or payload, a 4xx other than 429, a platform refusal that is not retryable →
 *   `UnrecoverableError` (fails now, no more attempts);
 * - 429 → the worker's rate limit for Retry-After, and BullMQ's rate-limit error (the job goes
 *   back to wait without spending an attempt);
 * - a feed that could not be fetched (network, 5xx, the feed host's 429) → retried: the feed host's
 *   429 is not the platform's, so it must not hold back the whole worker;
 * - a feed that cannot be read (parse error, empty, unsafe, its config) → `UnrecoverableError`:
 *   the same file fails the same way until someone fixes it;
 * - 5xx, timeouts, network, anything unknown → the error itself: BullMQ retries it with the
 *   queue's exponential backoff and jitter.
 */
export async function mapJobError(error: unknown, rateLimit: (ms: number) => Promise<void>): Promise<Error> {
  if (error instanceof UnrecoverableError) return error;
  if (error instanceof ConfigError || error instanceof PayloadError) return unrecoverable(error);
  if (isFeedError(error)) return error.retryable ? error : unrecoverable(error);
  if (isApiError(error)) {
    if (error.rateLimited) {
      await rateLimit(error.retryAfterMs ?? DEFAULT_RATE_LIMIT_MS);
      return Worker.RateLimitError();
    }
    if (error instanceof HttpError && error.status >= 400 && error.status < 500) return unrecoverable(error);
    if (!error.retryable && error.code !== 'E_ABORTED') return unrecoverable(error);
    return error;
  }
  return error instanceof Error ? error : new Error(String(error));
}

function unrecoverable(error: Error): UnrecoverableError {
  const code = (error as { code?: string }).code;
  const result = new UnrecoverableError(code ? `${code}: ${error.message}` : error.message);
  result.cause = error;
  return result;
}
