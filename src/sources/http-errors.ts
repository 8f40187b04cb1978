import { RequestError } from 'got';
import { FeedSyncError } from '../errors.ts';
import { parseRetryAfter } from '../http/retry-delay.ts';

/** A non-2xx answer from a feed server. Retryable for 408, 429 and 5xx. */
export class HttpStatusError extends FeedSyncError {
  readonly status: number;
  readonly retryAfterMs: number | undefined;
  constructor(status: number, url: string, retryAfter?: string) {
    super(`HTTP ${status} from ${url}`, {
      kind: 'FEED_FETCH',
      code: 'E_FEED_HTTP',
      retryable: status === 408 || status === 429 || status >= 500,
    });
    this.status = status;
    this.retryAfterMs = parseRetryAfter(retryAfter);
  }
}

const RETRYABLE_CODES = new Set([
  'ETIMEDOUT',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ENOTFOUND',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

export function isRetryableHttpError(error: unknown): boolean {
  if (error instanceof HttpStatusError)
    return error.status === 408 || error.status === 429 || error.status >= 500;
  if (error instanceof RequestError) return RETRYABLE_CODES.has(error.code) || error.name === 'TimeoutError';
  return false;
}

export function retryAfterOf(error: unknown): number | undefined {
  return error instanceof HttpStatusError ? error.retryAfterMs : undefined;
}

/** One line for a failed request: status or network code, never headers. */
export function describeHttpError(error: unknown): string {
  if (error instanceof HttpStatusError) return error.message;
  if (error instanceof RequestError)
    return `${error.code}${error.name === 'TimeoutError' ? ' (timeout)' : ''}`;
  return error instanceof Error ? error.message : String(error);
}
