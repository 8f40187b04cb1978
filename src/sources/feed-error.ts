import { type ErrorKind, FeedSyncError } from '../errors.ts';

export type FeedErrorCode =
  | 'E_FEED_FETCH'
  | 'E_FEED_PARSE'
  | 'E_FEED_EMPTY'
  | 'E_FEED_CONFIG'
  | 'E_FEED_UNSAFE';

/**
 * A feed that cannot be fetched or parsed, or has zero records: the run fails and yields nothing.
 * Messages name the feed and the reason, never a credential (URLs are shown without user info or query).
 */
const KIND: Record<FeedErrorCode, ErrorKind> = {
  E_FEED_FETCH: 'FEED_FETCH',
  E_FEED_PARSE: 'FEED_PARSE',
  E_FEED_EMPTY: 'FEED_PARSE',
  E_FEED_UNSAFE: 'FEED_PARSE',
  E_FEED_CONFIG: 'CONFIG_INVALID',
};

export class FeedError extends FeedSyncError {
  declare readonly code: FeedErrorCode;
  readonly feedId: string;
  constructor(
    code: FeedErrorCode,
    feedId: string,
    message: string,
    options: { cause?: unknown; retryable?: boolean } = {},
  ) {
    super(`feed ${feedId}: ${message}`, {
      kind: KIND[code],
      code,
      retryable: options.retryable ?? false,
      cause: options.cause,
    });
    this.feedId = feedId;
  }
}

export function isFeedError(error: unknown): error is FeedError {
  return error instanceof FeedError;
}

/** `https://user:pw@host/path?token=x` → `https://host/path`: safe for messages and logs. */
export function safeUrl(url: string | URL): string {
  try {
    const parsed = new URL(String(url));
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(invalid url)';
  }
}
