/**
 * Request budgets of a provider key (an MLS Grid token, a Trestle client): how many requests may
 * start per second, per hour and per day, counted for every process that uses the key. MLS Grid
 * suspends a key that goes over its limits, so a request is sent only once the budget has taken it.
 */
export interface BudgetLimits {
  /** Requests started in any 1 s. */
  perSecond?: number | undefined;
  /** Requests started in any 60 min (a rolling window: stricter than the provider's clock hour). */
  perHour?: number | undefined;
  /** Requests started in any 24 h (rolling). */
  perDay?: number | undefined;
  /**
   * Bytes downloaded in any 60 min (MLS Grid: 4 GB). The stores count requests, not bytes: the gate
   * turns this into requests per hour at the size of the largest answer seen (`limitsForBytes`).
   */
  bytesPerHour?: number | undefined;
}

/** Which bound refused a request: one of ours, or what the provider announced (rate headers, 429). */
export type BudgetWindow = 'second' | 'hour' | 'day' | 'provider' | 'bytes';

/**
 * A take: counted (`ticket` names the request for `done`), or refused with the first instant (epoch
 * ms) at which every bound allows one more.
 */
export type BudgetAnswer =
  | { ok: true; ticket: string }
  | { ok: false; window: BudgetWindow; retryAt: number };

/**
 * The provider said how many requests are left until when (`X-RateLimit-Remaining`,
 * `Burst-RateLimit-Remaining`, Trestle's `Hour-Quota-Available`, a 429's `Retry-After`). Named, so a
 * burst ceiling and an hourly one live side by side.
 */
export interface Ceiling {
  name: string;
  remaining: number;
  /** Epoch ms at which the provider's window resets. */
  resetAt: number;
}

/** Requests counted in each window at one instant (the hour and day counts round up to whole minutes). */
export interface BudgetUsage {
  second: number;
  hour: number;
  day: number;
}

/**
 * Where the budgets live: memory, the CLI's state file, Redis or Postgres (shared by every worker on
 * the store). Every call is atomic on its store. Times are the caller's clock (epoch ms), so a run's
 * injected clock is the budget's too.
 */
export interface BudgetStore {
  /** Count one request of `key` if every bound allows it at `now`; otherwise say until when to wait. */
  take(key: string, limits: BudgetLimits, now: number): Promise<BudgetAnswer>;
  /**
   * The request `ticket` got its answer at `now`. Until then it counts in every second (the provider
   * may receive it any time before it answers); from then, in the second after its answer. So a
   * request slow to leave (a busy process, a slow network) can never reach the provider within a
   * second of the one before it. A ticket never done (a crashed worker) counts for two minutes.
   */
  done(key: string, ticket: string, now: number): Promise<void>;
  /** Lower a ceiling of `key` to what the provider announced (never raises one within its window). */
  announce(key: string, ceiling: Ceiling, now: number): Promise<void>;
  usage(key: string, now: number): Promise<BudgetUsage>;
  /** Write what is held back (the state file reserves a few requests ahead). Default: nothing to do. */
  flush?(): Promise<void>;
}
