/**
 * The one error base of feed-sync (got's RequestError is the model). Every error a run, a command or
 * a job can meet extends it, so the two places that give errors a meaning (the worker's BullMQ
 * mapping in jobs/map-error.ts and the CLI's exit codes in src/cli/exit-codes.ts) key on `kind`
 * in one table each, instead of guessing from classes.
 *
 * - `kind`: the family, what a caller decides on (retry? exit code?).
 * - `code`: stable and specific (`E_PLATFORM`, `E_FEED_FETCH`, `E_CONFIG`…), for people and logs.
 * - `retryable`: whether the same attempt may succeed later (network, 5xx, 429).
 * - `cause`: kept. Messages never carry a secret.
 */
export type ErrorKind =
  /** Bad config, job payload or CLI usage: nothing works until someone fixes it. */
  | 'CONFIG_INVALID'
  /** The feed could not be downloaded (network, HTTP status, deadline). */
  | 'FEED_FETCH'
  /** The feed was downloaded but cannot be read (parse error, empty, unsafe XML, too large). */
  | 'FEED_PARSE'
  /** The platform answered with an envelope error (`Success: false`, `Code`). */
  | 'API_BUSINESS'
  /** The platform could not be reached or answered something unusable (HTTP status, timeout, JSON). */
  | 'API_TRANSPORT'
  /** The listing read was refused as partial (page limit). */
  | 'SNAPSHOT'
  /** A delete guard held deletes back. */
  | 'GUARD_TRIPPED'
  /** The run was stopped (Ctrl-C, SIGTERM): the next run repairs what was not applied. */
  | 'RUN_CANCELLED'
  /** A service feed-sync needs (Redis, the queue store) is not there. */
  | 'SERVICE_UNAVAILABLE'
  /** A bug or an impossible state. */
  | 'INTERNAL';

export interface FeedSyncErrorOptions {
  kind: ErrorKind;
  code: string;
  retryable?: boolean;
  cause?: unknown;
}

export class FeedSyncError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly retryable: boolean;

  constructor(message: string, options: FeedSyncErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.kind = options.kind;
    this.code = options.code;
    this.retryable = options.retryable ?? false;
  }
}

export function isFeedSyncError(error: unknown): error is FeedSyncError {
  return error instanceof FeedSyncError;
}

/** The run was stopped by its signal before it could finish. */
export class RunCancelledError extends FeedSyncError {
  constructor(message = 'the run was cancelled') {
    super(message, { kind: 'RUN_CANCELLED', code: 'E_CANCELLED' });
  }
}
