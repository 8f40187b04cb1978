import { type ErrorKind, FeedSyncError } from '../errors.ts';
import { isRetryableStatus } from './failure.ts';

/**
 * A non-2xx answer: the one HTTP status error, whoever answered. Retryable for 408, 429 and 5xx (the
 * one list, failure.ts), with the server's `Retry-After`. The server answered, so the request reached
 * it (a create may have been done). Its kind and code say whose answer it was: the platform's
 * (`API_TRANSPORT`, `E_HTTP`, src/api), a feed server's (`FEED_FETCH`, `E_FEED_HTTP`, src/sources) or
 * the alert webhook's (`SERVICE_UNAVAILABLE`, `E_WEBHOOK_HTTP`, src/alerts). Messages carry the
 * status and what was asked, never a credential.
 */
export class HttpStatusError extends FeedSyncError {
  readonly status: number;
  /** Milliseconds the server asked us to wait (Retry-After), if it said. */
  readonly retryAfterMs: number | undefined;
  /** Always true: an answer means the request was sent. */
  readonly requestSent = true;

  constructor(
    status: number,
    message: string,
    options: { kind: ErrorKind; code: string; retryAfterMs?: number | undefined; cause?: unknown },
  ) {
    super(message, {
      kind: options.kind,
      code: options.code,
      retryable: isRetryableStatus(status),
      cause: options.cause,
    });
    this.status = status;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** The server refused the request for its rate (429): nothing was done. */
  get rateLimited(): boolean {
    return this.status === 429;
  }
}
