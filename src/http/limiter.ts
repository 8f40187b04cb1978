import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';

/**
 * Bounds the requests to one service: at most `concurrency` in flight and at most
 * `requestsPerSecond` started per second, whatever mix of calls is running. The worker replaces
 * the local one with a Redis-backed limiter shared by every process (src/queue).
 */
export interface Limiter {
  /** Run `fn` once a slot is free and the rate allows; the slot is held until `fn` settles. */
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Hold back every new start for `ms` (a 429 with Retry-After means the whole client is too fast). */
  pause(ms: number): void;
}

export interface LimiterOptions {
  /** Max in flight. */
  concurrency: number;
  /** Max starts per second; unset = no ceiling. */
  requestsPerSecond?: number | undefined;
}

export function createLocalLimiter(options: LimiterOptions): Limiter {
  const limit = pLimit(options.concurrency);
  const spacingMs = options.requestsPerSecond ? 1000 / options.requestsPerSecond : 0;
  let nextStart = 0;
  let pausedUntil = 0;

  /** Reserve the next start time synchronously, so concurrent callers get distinct slots. */
  function reserve(): number {
    const now = Date.now();
    const start = Math.max(now, nextStart, pausedUntil);
    nextStart = start + spacingMs;
    return start - now;
  }

  return {
    run(fn, signal) {
      return limit(async () => {
        signal?.throwIfAborted();
        const wait = reserve();
        if (wait > 0) await sleep(wait, undefined, signal ? { signal } : undefined);
        return fn();
      });
    },
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, Date.now() + ms);
    },
  };
}

/** No bound at all, for tools and tests that want raw behaviour. */
export const unlimited: Limiter = { run: (fn) => fn(), pause: () => {} };
