import { setTimeout as sleep } from 'node:timers/promises';
import {
  type BudgetLimits,
  type BudgetStore,
  type BudgetWindow,
  hourIsBytes,
  limitsForBytes,
} from '../../../budget/index.ts';
import { FeedSyncError } from '../../../errors.ts';
import { ceilingsOf } from './rate-headers.ts';

const WINDOW_NAMES: Record<BudgetWindow, string> = {
  second: 'per-second',
  hour: 'per-hour',
  day: 'per-day',
  provider: "provider's announced",
  bytes: 'per-hour byte',
};

/**
 * The budget of the key is spent until `resumesAt` (epoch ms), further than a run waits: the run
 * stops before its next request and ends `paused`.
 */
export class BudgetPause extends FeedSyncError {
  readonly resumesAt: number;
  readonly window: BudgetWindow;
  constructor(resumesAt: number, window: BudgetWindow) {
    // Caught by the replication, which ends the run `paused`; should one escape, it is a fetch that
    // may succeed later, never a failure of the feed's data.
    super(`the ${WINDOW_NAMES[window]} budget is spent until ${new Date(resumesAt).toISOString()}`, {
      kind: 'FEED_FETCH',
      code: 'E_BUDGET_SPENT',
      retryable: true,
    });
    this.resumesAt = resumesAt;
    this.window = window;
  }
}

/**
 * The provider refused for the key's rate (429) past the retries: the run ends `paused` until
 * `resumesAt`, what it read written, rather than failing and coming back on the next schedule (or
 * the worker's retries) to ask again at once.
 */
export class RateLimitPause extends BudgetPause {
  constructor(resumesAt: number, reason: string) {
    super(resumesAt, 'provider');
    this.message = `${reason}: paused until ${new Date(resumesAt).toISOString()}`;
  }
}

/** What every request of a RESO source goes through: before it, the budget; after it, what the provider said. */
export interface BudgetGate {
  /**
   * Resolves when the budget has counted one more request, with what to call once it has its answer
   * (or failed): the request counts in the second from then. Throws `BudgetPause` when the budget
   * allows the request too far off.
   */
  pass(): Promise<() => Promise<void>>;
  /**
   * Read an answer's rate headers (and a 429's Retry-After) into the shared budget; `bytes`, what
   * the answer cost (`answerBytes`), sizes the byte budget.
   */
  heard(
    status: number,
    headers: Readonly<Record<string, string | string[] | undefined>>,
    retryAfterMs?: number,
    bytes?: number,
  ): Promise<void>;
}

export interface BudgetGateOptions {
  budget: BudgetStore;
  key: string;
  limits: BudgetLimits;
  /** The run's clock; it moves on with real time from the instant the gate is made (tests inject it). */
  now: () => Date;
  signal?: AbortSignal | undefined;
  /** Waits up to this long are waited; a longer one pauses the run. Default 60 s. */
  maxWaitMs?: number;
}

/**
 * The largest answer seen per provider key in this process, what a byte budget counts every request
 * at: kept across runs (each run makes its own gate), so a run's first request is bounded by the
 * bytes too. Another process learns it from its own first answer.
 */
const largestAnswers = new Map<string, number>();

export function createBudgetGate(options: BudgetGateOptions): BudgetGate {
  const { budget, key, limits, signal } = options;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  // An injected clock may be frozen; the budget's windows must still move as time passes.
  const base = options.now().getTime();
  const started = performance.now();
  const clock = () => base + Math.round(performance.now() - started);
  return {
    async pass() {
      for (;;) {
        signal?.throwIfAborted();
        const now = clock();
        const inForce = limitsForBytes(limits, largestAnswers.get(key) ?? 0);
        const answer = await budget.take(key, inForce, now);
        if (answer.ok) return () => budget.done(key, answer.ticket, clock());
        const wait = answer.retryAt - now;
        const window = answer.window === 'hour' && hourIsBytes(limits, inForce) ? 'bytes' : answer.window;
        if (wait > maxWaitMs) throw new BudgetPause(answer.retryAt, window);
        await sleep(Math.max(1, wait), undefined, signal ? { signal } : {});
      }
    },
    async heard(status, headers, retryAfterMs, bytes) {
      if (bytes !== undefined && bytes > (largestAnswers.get(key) ?? 0)) largestAnswers.set(key, bytes);
      const now = clock();
      for (const ceiling of ceilingsOf(headers, now)) await budget.announce(key, ceiling, now);
      // A 429 holds every process using the key back, not only this request's retry.
      if (status === 429)
        await budget.announce(
          key,
          { name: 'retry-after', remaining: 0, resetAt: now + (retryAfterMs ?? 1000) },
          now,
        );
    },
  };
}
