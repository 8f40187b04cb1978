import { setTimeout as sleep } from 'node:timers/promises';
import type { Limiter } from './limiter.ts';
import { type BackoffOptions, retryDelay } from './retry-delay.ts';

/** The one retry policy, shared by the platform client and the feed transports. */
export interface RetryOptions {
  /** Retries after the first attempt. */
  retries: number;
  isRetryable: (error: unknown) => boolean;
  retryAfterMs?: (error: unknown) => number | undefined;
  /**
   * Whether the server refused for our rate (429): then `limiter` is paused for the retry delay, so
   * every request sharing it backs off, not only this one.
   */
  isRateLimited?: (error: unknown) => boolean;
  limiter?: Pick<Limiter, 'pause'>;
  signal?: AbortSignal;
  backoff?: BackoffOptions;
  /**
   * The backoff of a rate-limited answer that says no Retry-After (a provider's 429): longer than a
   * network hiccup's, as the providers ask (Trestle: 1, 2, 4 … 32 s). Default `backoff`.
   */
  rateLimitedBackoff?: BackoffOptions;
  random?: () => number;
  /** Called before each wait, e.g. to log. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/** Run `attempt` until it succeeds, fails with a non-retryable error, or the retries are spent. */
export async function withRetries<T>(attempt: (n: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (n > options.retries || !options.isRetryable(error) || options.signal?.aborted) throw error;
      const retryAfter = options.retryAfterMs?.(error);
      const limited = options.isRateLimited?.(error) ?? false;
      const backoff =
        limited && retryAfter === undefined
          ? (options.rateLimitedBackoff ?? options.backoff)
          : options.backoff;
      const delay = retryDelay(n, retryAfter, options.random, backoff);
      if (options.limiter && limited) options.limiter.pause(delay);
      options.onRetry?.(error, n, delay);
      await sleep(delay, undefined, options.signal ? { signal: options.signal } : undefined).catch(() => {
        throw error;
      });
    }
  }
}
