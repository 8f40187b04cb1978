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
export class FeedError extends Error {
  readonly code: FeedErrorCode;
  readonly feedId: string;
  /** Whether a later attempt may succeed (network, 5xx, 429). */
  readonly retryable: boolean;
  constructor(
    code: FeedErrorCode,
    feedId: string,
    message: string,
    options: { cause?: unknown; retryable?: boolean } = {},
  ) {
    super(`feed ${feedId}: ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FeedError';
    this.code = code;
    this.feedId = feedId;
    this.retryable = options.retryable ?? false;
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
