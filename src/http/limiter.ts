import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import {
  type AimdOptions,
  type AimdState,
  aimdOverload,
  aimdSuccess,
  initialAimd,
  isOverload,
} from './aimd.ts';

/**
 * Bounds the requests to one service: at most `concurrency` in flight and at most
 * `requestsPerSecond` started per second, whatever mix of calls is running. The worker replaces
 * the local one with a Redis-backed limiter shared by every process (src/queue).
 */
export interface Limiter {
  /**
   * Run `fn` once a slot is free and the rate allows; the slot is held until `fn` settles. How `fn`
   * settles is fed to the AIMD controller: an overload (429, timeout) halves the requests in flight.
   */
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Hold back every new start for `ms` (a 429 with Retry-After means the whole client is too fast). */
  pause(ms: number): void;
}

export interface LimiterOptions {
  /** Max in flight: the ceiling of the adaptive (AIMD) limit. */
  concurrency: number;
  /** Max starts per second; unset = no ceiling. */
  requestsPerSecond?: number | undefined;
  /** Tuning of the adaptive limit (src/http/aimd.ts); `max` is `concurrency`. */
  aimd?: Omit<AimdOptions, 'max'>;
}

export function createLocalLimiter(options: LimiterOptions): Limiter {
  const aimd: AimdOptions = { ...options.aimd, max: options.concurrency };
  let state: AimdState = initialAimd(aimd);
  const limit = pLimit(state.limit);
  const spacingMs = options.requestsPerSecond ? 1000 / options.requestsPerSecond : 0;
  let nextStart = 0;
  let pausedUntil = 0;

  /** Reserve the next start time synchronously, so concurrent callers get distinct slots. */
  function reserve(): number {
    // Monotonic and sub-millisecond: starts reserved a few µs apart stay exactly `spacingMs` apart.
    const start = Math.max(performance.now(), nextStart, pausedUntil);
    nextStart = start + spacingMs;
    return start;
  }

  /** Wait until `start`. Timers run on the loop's cached millisecond clock and may fire a little early. */
  async function waitUntil(start: number, signal?: AbortSignal): Promise<void> {
    for (let wait = start - performance.now(); wait > 0; wait = start - performance.now())
      await sleep(Math.ceil(wait), undefined, signal ? { signal } : undefined);
  }

  function feed(next: AimdState): void {
    state = next;
    // p-limit starts queued tasks when raised and lets running ones finish when lowered.
    if (limit.concurrency !== state.limit) limit.concurrency = state.limit;
  }

  return {
    run(fn, signal) {
      return limit(async () => {
        signal?.throwIfAborted();
        const start = reserve();
        if (start > performance.now()) await waitUntil(start, signal);
        const generation = state.generation;
        try {
          const value = await fn();
          feed(aimdSuccess(state, generation, aimd));
          return value;
        } catch (error) {
          if (isOverload(error)) feed(aimdOverload(state, generation, aimd));
          throw error;
        }
      });
    },
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, performance.now() + ms);
    },
  };
}

/** No bound at all, for tools and tests that want raw behaviour. */
export const unlimited: Limiter = { run: (fn) => fn(), pause: () => {} };
