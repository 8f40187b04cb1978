import { setTimeout as sleep } from 'node:timers/promises';
import type { BudgetLimits, BudgetStore, BudgetWindow } from '../../../budget/index.ts';
import { ceilingsOf } from './rate-headers.ts';

/**
 * The budget of the key is spent until `resumesAt` (epoch ms), further than a run waits: the run
 * stops before its next request and ends `paused`.
 */
export class BudgetPause extends Error {
  readonly resumesAt: number;
  readonly window: BudgetWindow;
  constructor(resumesAt: number, window: BudgetWindow) {
    super(
      `the ${window === 'provider' ? "provider's announced" : `per-${window}`} budget is spent until ${new Date(resumesAt).toISOString()}`,
    );
    this.name = 'BudgetPause';
    this.resumesAt = resumesAt;
    this.window = window;
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
  /** Read an answer's rate headers (and a 429's Retry-After) into the shared budget. */
  heard(
    status: number,
    headers: Readonly<Record<string, string | string[] | undefined>>,
    retryAfterMs?: number,
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
        const answer = await budget.take(key, limits, now);
        if (answer.ok) return () => budget.done(key, answer.ticket, clock());
        const wait = answer.retryAt - now;
        if (wait > maxWaitMs) throw new BudgetPause(answer.retryAt, answer.window);
        await sleep(Math.max(1, wait), undefined, signal ? { signal } : {});
      }
    },
    async heard(status, headers, retryAfterMs) {
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
