import {
  classifyRequestError,
  HttpStatusError,
  isRequestError,
  isRetryableStatus,
  parseRetryAfter,
} from '../../http/index.ts';

/** A non-2xx answer from a feed server (`url` shown without credentials): retryable for 408, 429 and 5xx. */
export function feedStatusError(status: number, url: string, retryAfter?: number | string): HttpStatusError {
  return new HttpStatusError(status, `HTTP ${status} from ${url}`, {
    kind: 'FEED_FETCH',
    code: 'E_FEED_HTTP',
    retryAfterMs: typeof retryAfter === 'string' ? parseRetryAfter(retryAfter) : retryAfter,
  });
}

/** The one list of retryable conditions (src/http/failure.ts), applied to a feed request's failure. */
export function isRetryableHttpError(error: unknown): boolean {
  if (error instanceof HttpStatusError) return isRetryableStatus(error.status);
  if (isRequestError(error)) return classifyRequestError(error).retryable;
  return false;
}

/** A 429: the server refused for our rate. */
export function isRateLimitedHttpError(error: unknown): boolean {
  return error instanceof HttpStatusError && error.status === 429;
}

/** The `Retry-After` an HTTP status error carried, in ms (the headers' own reader is `retryAfterOf` in src/http). */
export function retryAfterOfError(error: unknown): number | undefined {
  return error instanceof HttpStatusError ? error.retryAfterMs : undefined;
}

/** One line for a failed request: status or network code, never headers. */
export function describeHttpError(error: unknown): string {
  if (error instanceof HttpStatusError) return error.message;
  if (isRequestError(error)) {
    const failure = classifyRequestError(error);
    return `${failure.code}${failure.kind === 'timeout' ? ' (timeout)' : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
