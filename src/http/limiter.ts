import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import {
  type AimdOptions,
  type AimdState,
  aimdOverload,
  aimdSuccess,
  initialAimd,
  isOverload,
  rateEvidence,
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

/** Slack of the one-second window of paced starts: the lateness of a timer on a busy loop. */
const WINDOW_SLACK_MS = 5;

export function createLocalLimiter(options: LimiterOptions): Limiter {
  const aimd: AimdOptions = { ...options.aimd, max: options.concurrency };
  let state: AimdState = initialAimd(aimd);
  const limit = pLimit(state.limit);
  const ceiling = options.requestsPerSecond ?? 0;
  let nextStart = 0;
  let pausedUntil = 0;
  /**
   * Start times of the last second, oldest first, from `starts[head]` on: what the platform saw of
   * us when it said 429. Dropped from the front by moving `head` (compacted now and then), not by
   * shifting the array: at thousands of requests a second, a shift and a count over the whole
   * second cost each request ~5 µs.
   */
  let starts: number[] = [];
  let head = 0;

  /** The paced rate: the configured ceiling or the learned rate, whichever is lower; 0 = none. */
  function rate(): number {
    return ceiling > 0 && state.rate > 0 ? Math.min(ceiling, state.rate) : ceiling || state.rate;
  }

  /**
   * Reserve the next start time synchronously, so concurrent callers get distinct slots; returns
   * it with the starts of the second before it. Starts are spaced 1/rate apart, and no more than
   * the rate fall in any second (give or take `WINDOW_SLACK_MS`): a timer that fires late would
   * otherwise bunch two starts, and a platform counting a sliding window sees one too many.
   */
  function reserve(): { start: number; recent: number } {
    const perSecond = rate();
    // Monotonic and sub-millisecond: starts reserved a few µs apart stay exactly the spacing apart.
    let start = Math.max(performance.now(), nextStart, pausedUntil);
    while (head < starts.length && (starts[head] as number) <= start - 1000 - WINDOW_SLACK_MS) head++;
    if (head > 1024 && head * 2 > starts.length) {
      starts = starts.slice(head);
      head = 0;
    }
    const cap = Math.max(1, Math.floor(perSecond));
    if (perSecond > 0 && starts.length - head >= cap)
      start = Math.max(start, (starts[starts.length - cap] as number) + 1000 + WINDOW_SLACK_MS);
    nextStart = start + (perSecond > 0 ? 1000 / perSecond : 0);
    // The starts in the second before this one: all kept but those of the slack's few ms before it.
    let older = head;
    while (older < starts.length && (starts[older] as number) <= start - 1000) older++;
    const recent = starts.length - older;
    starts.push(start);
    return { start, recent };
  }

  /** Wait until `start`. Timers run on the loop's cached millisecond clock and may fire a little early. */
  async function waitUntil(start: number, signal?: AbortSignal): Promise<void> {
    for (let wait = start - performance.now(); wait > 0; wait = start - performance.now())
      await sleep(Math.ceil(wait), undefined, signal ? { signal } : undefined);
  }

  function feed(next: AimdState): void {
    // A rate just learned (the second 429 of a burst confirmed it) shortens the first one's pause.
    if (next.rate > 0 && state.rate <= 0)
      pausedUntil = Math.min(pausedUntil, performance.now() + pauseOf(Number.POSITIVE_INFINITY, next.rate));
    state = next;
    // p-limit starts queued tasks when raised and lets running ones finish when lowered.
    if (limit.concurrency !== state.limit) limit.concurrency = state.limit;
  }

  return {
    run(fn, signal) {
      return limit(async () => {
        signal?.throwIfAborted();
        const { start, recent } = reserve();
        if (start > performance.now()) await waitUntil(start, signal);
        const generation = state.generation;
        try {
          const value = await fn();
          feed(aimdSuccess(state, generation, aimd));
          return value;
        } catch (error) {
          if (isOverload(error)) feed(aimdOverload(state, generation, aimd, rateEvidence(error, recent)));
          throw error;
        }
      });
    },
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, performance.now() + pauseOf(ms, state.rate));
    },
  };
}

/**
 * How long a 429's Retry-After holds back every start. Once a rate is learned, the starts are paced
 * below the platform's window, so the whole client waits at most one window (1 s); the refused
 * request itself still waits the full Retry-After (the retry policy's sleep). A platform that
 * really shuts the door for longer answers the next paced start 429 again, one request a second.
 */
export function pauseOf(retryAfterMs: number, rate: number): number {
  return rate > 0 ? Math.min(retryAfterMs, 1000) : retryAfterMs;
}

/** No bound at all, for tools and tests that want raw behaviour. */
export const unlimited: Limiter = { run: (fn) => fn(), pause: () => {} };
