import { UnrecoverableError, Worker } from 'bullmq';
import { isApiError } from '../src/api/index.ts';
import { type ErrorKind, FeedSyncError, isFeedSyncError } from '../src/errors.ts';
import { HttpStatusError } from '../src/http/index.ts';

/** A job payload that does not fit its schema: retrying cannot fix it. */
export class PayloadError extends FeedSyncError {
  constructor(message: string) {
    super(message, { kind: 'CONFIG_INVALID', code: 'E_PAYLOAD' });
  }
}

/** Used when a 429 came without Retry-After. */
export const DEFAULT_RATE_LIMIT_MS = 5_000;

/**
 * What a job does with an error of each kind, in BullMQ's terms:
 * - `fail`: `UnrecoverableError`, no more attempts (the same input fails the same way);
 * - `retry`: the error itself, retried with the queue's exponential backoff and jitter;
 * - `flag`: retried when the error says a later attempt may succeed (`retryable`), else `fail`.
 * A feed host's 429 is a FEED_FETCH: retried, never the worker's rate limit (it is not the platform's).
 */
const JOB_MEANING: Record<ErrorKind, 'fail' | 'retry' | 'flag'> = {
  CONFIG_INVALID: 'fail',
  FEED_FETCH: 'flag',
  FEED_PARSE: 'fail',
  API_BUSINESS: 'flag',
  API_TRANSPORT: 'flag',
  SNAPSHOT: 'fail',
  GUARD_TRIPPED: 'fail',
  RUN_CANCELLED: 'retry',
  SERVICE_UNAVAILABLE: 'retry',
  INTERNAL: 'retry',
};

/**
 * The one place where our errors get BullMQ's meaning, by kind (the table above). The platform's
 * 429 pauses the whole worker for Retry-After and puts the job back without spending an attempt; a
 * 4xx other than 429 fails at once. Anything that is not a FeedSyncError is retried.
 */
export async function mapJobError(error: unknown, rateLimit: (ms: number) => Promise<void>): Promise<Error> {
  if (error instanceof UnrecoverableError) return error;
  if (isApiError(error)) {
    if (error.rateLimited) {
      await rateLimit(error.retryAfterMs ?? DEFAULT_RATE_LIMIT_MS);
      return Worker.RateLimitError();
    }
    if (error instanceof HttpStatusError && error.status >= 400 && error.status < 500)
      return unrecoverable(error);
  }
  if (!isFeedSyncError(error)) return error instanceof Error ? error : new Error(String(error));
  const meaning = JOB_MEANING[error.kind];
  if (meaning === 'fail' || (meaning === 'flag' && !error.retryable)) return unrecoverable(error);
  return error;
}

function unrecoverable(error: FeedSyncError): UnrecoverableError {
  const result = new UnrecoverableError(`${error.code}: ${error.message}`);
  result.cause = error;
  return result;
}
