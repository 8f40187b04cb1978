import type { Limiter } from '../../http/index.ts';
import { proxyNoteFor, withRetries } from '../../http/index.ts';
import type { Logger } from '../../logger.ts';
import { FeedError, safeUrl } from '../feed-error.ts';
import type { SourceConfig } from '../source-schema.ts';
import {
  describeHttpError,
  isRateLimitedHttpError,
  isRetryableHttpError,
  retryAfterOfError,
} from './http-errors.ts';

export interface FeedRequestContext {
  feedId: string;
  /** Gives `retries`, the retries after the first attempt. */
  source: SourceConfig;
  signal?: AbortSignal;
  logger?: Logger;
  /** Paused on a 429 for the retry delay, so every request of the feed backs off (RESO). */
  limiter?: Pick<Limiter, 'pause'>;
}

/** A feed server's 429 without Retry-After, backed off as providers publish it (Trestle: 1, 2, 4 … 32 s). */
export const RATE_LIMITED_BACKOFF = { baseMs: 1000, maxMs: 32_000 } as const;

export interface FeedRetryOptions {
  /** Log message of each retry, e.g. `feed fetch retry`. */
  retryMessage: string;
  /** Whether a 429 is retried at all (MLS Grid suspends a token that goes on asking). Default true. */
  retryRateLimited?: boolean;
  /** The reason in the final error message. Default `describeHttpError` (status or network code). */
  describe?: (error: unknown) => string;
}

/**
 * Run `attempt` on `url` under the one retry policy (src/http) (408, 429, 5xx, timeouts and network errors,
 * honouring `Retry-After`), logging each retry. A failure that is not already a `FeedError` becomes
 * `E_FEED_FETCH` naming the URL without credentials, the cause kept; an abort is rethrown as is.
 */
export async function withFeedRetries<T>(
  context: FeedRequestContext,
  url: string,
  attempt: () => Promise<T>,
  options: FeedRetryOptions,
): Promise<T> {
  const { feedId, signal } = context;
  let attempts = 1;
  try {
    return await withRetries(attempt, {
      retries: context.source.retries,
      isRetryable: (error) =>
        isRetryableHttpError(error) && (options.retryRateLimited !== false || !isRateLimitedHttpError(error)),
      rateLimitedBackoff: RATE_LIMITED_BACKOFF,
      retryAfterMs: retryAfterOfError,
      isRateLimited: isRateLimitedHttpError,
      ...(context.limiter ? { limiter: context.limiter } : {}),
      ...(signal ? { signal } : {}),
      onRetry: (error, n, delayMs) => {
        attempts++;
        context.logger?.warn(
          { feedId, attempt: n, delayMs, reason: describeHttpError(error) },
          options.retryMessage,
        );
      },
    });
  } catch (error) {
    if (error instanceof FeedError || signal?.aborted) throw error;
    // The URL is named once, at the front.
    const reason = (options.describe ?? describeHttpError)(error).replace(` from ${safeUrl(url)}`, '');
    const tries = `after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
    // Through a proxy, what failed may be the proxy: the message says one is set.
    const via = proxyNoteFor(url);
    const where = via ? `${safeUrl(url)} (${via})` : safeUrl(url);
    throw new FeedError('E_FEED_FETCH', feedId, `cannot fetch ${where} ${tries}: ${reason}`, {
      cause: error,
      retryable: isRetryableHttpError(error),
    });
  }
}
