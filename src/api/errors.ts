import { type ErrorKind, FeedSyncError } from '../errors.ts';
import { HttpStatusError } from '../http/index.ts';
import type { Operation } from './schemas.ts';

/**
 * The error hierarchy of the platform client. Every error has a stable `code`, names the operation,
 * keeps the `cause`, and never carries a key: messages are built from the operation, status and the
 * platform's own `Message`, never from request headers.
 */
export class ApiError extends FeedSyncError {
  override readonly code: string = 'E_API';
  readonly operation: Operation;
  /** Milliseconds the server asked us to wait (Retry-After), if it said. */
  readonly retryAfterMs: number | undefined;
  /** False only when the request provably never reached the server (connection refused, DNS). */
  readonly requestSent: boolean;

  constructor(
    operation: Operation,
    message: string,
    options: {
      cause?: unknown;
      retryable?: boolean;
      retryAfterMs?: number;
      requestSent?: boolean;
      kind?: ErrorKind;
    } = {},
  ) {
    super(`${operation}: ${message}`, {
      kind: options.kind ?? 'API_TRANSPORT',
      code: 'E_API',
      retryable: options.retryable ?? false,
      cause: options.cause,
    });
    this.operation = operation;
    this.retryAfterMs = options.retryAfterMs;
    this.requestSent = options.requestSent ?? true;
  }

  /** The server refused the request for its rate (HTTP 429 or envelope Code 429): nothing was done. */
  get rateLimited(): boolean {
    return false;
  }
}

/** The envelope said `Success: false` or `Code != 200`. */
export class PlatformError extends ApiError {
  override readonly code = 'E_PLATFORM';
  readonly platformCode: number | undefined;
  readonly platformMessage: string;
  constructor(operation: Operation, platformCode: number | undefined, platformMessage: string) {
    super(operation, `platform answered Code ${platformCode ?? '?'}: ${platformMessage || '(no message)'}`, {
      kind: 'API_BUSINESS',
      retryable: platformCode === 429 || (platformCode !== undefined && platformCode >= 500),
    });
    this.platformCode = platformCode;
    this.platformMessage = platformMessage;
  }

  override get rateLimited(): boolean {
    return this.platformCode === 429;
  }
}

/**
 * The platform answered a non-2xx status: the HTTP layer's one status error (`E_HTTP`,
 * `API_TRANSPORT`), its message led by the operation like every platform error's.
 */
export function platformStatusError(
  operation: Operation,
  status: number,
  options: { cause?: unknown; retryAfterMs?: number } = {},
): HttpStatusError {
  return new HttpStatusError(status, `${operation}: HTTP ${status}`, {
    kind: 'API_TRANSPORT',
    code: 'E_HTTP',
    ...options,
  });
}

/** Where a transport failure happened, for its message: the platform's origin and the attempts made. */
export interface FailedAt {
  /** `https://usapi.hottask.com`: the base URL's origin (never a path, never credentials). */
  origin: string;
  /** Attempts made, retries included; known once the retries are spent. */
  attempts?: number;
  /** A proxy the request went through, for the message: `HTTPS_PROXY is set`. */
  via?: string;
}

/** The origin, with the proxy when one is set: what failed may be the proxy. */
const whereText = (at: FailedAt) => (at.via ? `${at.origin} (${at.via})` : at.origin);

const attemptsText = (at?: FailedAt) =>
  at?.attempts === undefined ? '' : ` after ${at.attempts} attempt${at.attempts === 1 ? '' : 's'}`;

export class TimeoutError extends ApiError {
  override readonly code = 'E_TIMEOUT';
  readonly timeoutMs: number;
  readonly at: FailedAt | undefined;
  constructor(operation: Operation, timeoutMs: number, cause?: unknown, at?: FailedAt) {
    super(
      operation,
      at
        ? `no answer from ${whereText(at)} within ${timeoutMs} ms${attemptsText(at)}`
        : `no answer within ${timeoutMs} ms`,
      { cause, retryable: true },
    );
    this.timeoutMs = timeoutMs;
    this.at = at;
  }

  /** The same failure, saying how many attempts were made. */
  afterAttempts(attempts: number): TimeoutError {
    if (!this.at) return this;
    return new TimeoutError(this.operation, this.timeoutMs, this.cause, { ...this.at, attempts });
  }
}

/**
 * The connection failed (reset, refused, DNS). Says where and, once the retries are spent, after
 * how many attempts, as a feed's fetch errors do: `list: cannot reach https://… after 5 attempts: ECONNRESET`.
 */
export class NetworkError extends ApiError {
  override readonly code = 'E_NETWORK';
  readonly detail: string;
  readonly failure: { retryable: boolean; requestSent: boolean };
  readonly at: FailedAt | undefined;
  constructor(
    operation: Operation,
    detail: string,
    cause?: unknown,
    failure: { retryable: boolean; requestSent: boolean } = { retryable: true, requestSent: true },
    at?: FailedAt,
  ) {
    super(
      operation,
      at ? `cannot reach ${whereText(at)}${attemptsText(at)}: ${detail}` : `network error: ${detail}`,
      {
        cause,
        retryable: failure.retryable,
        requestSent: failure.requestSent,
      },
    );
    this.detail = detail;
    this.failure = failure;
    this.at = at;
  }

  /** The same failure, saying how many attempts were made. */
  afterAttempts(attempts: number): NetworkError {
    if (!this.at) return this;
    return new NetworkError(this.operation, this.detail, this.cause, this.failure, { ...this.at, attempts });
  }
}

export class InvalidJsonError extends ApiError {
  override readonly code = 'E_INVALID_JSON';
  constructor(operation: Operation, cause?: unknown) {
    // Malformed JSON usually means a proxy or a half-written answer: worth one more try.
    super(operation, 'response is not valid JSON', { cause, retryable: true });
  }
}

/** The response was JSON but did not fit the operation's schema. */
export class SchemaError extends ApiError {
  override readonly code = 'E_SCHEMA';
  readonly field: string;
  constructor(operation: Operation, field: string, detail: string) {
    super(operation, `unexpected response: ${field}: ${detail}`);
    this.field = field;
  }
}

/**
 * A create failed after the request was sent (timeout, 5xx, dropped connection): the listing may or
 * may not exist now. Never retried blindly; the sync looks the listing up first.
 */
export class AmbiguousCreateError extends ApiError {
  override readonly code = 'E_AMBIGUOUS';
  constructor(cause: ApiFailure) {
    super('create', `outcome unknown after ${cause.code} (${cause.message}); look it up before retrying`, {
      cause,
    });
  }
}

export class AbortedError extends ApiError {
  override readonly code = 'E_ABORTED';
  constructor(operation: Operation) {
    super(operation, 'aborted', { kind: 'RUN_CANCELLED' });
  }
}

/** What the platform client throws: one of its own errors, or the platform's non-2xx answer. */
export type ApiFailure = ApiError | HttpStatusError;

export function isApiError(error: unknown): error is ApiFailure {
  return error instanceof ApiError || (error instanceof HttpStatusError && error.kind === 'API_TRANSPORT');
}
