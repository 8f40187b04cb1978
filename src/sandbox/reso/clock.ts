/**
 * The servers' notion of time: budgets, marker expiry (MLS Grid's 7 days) and replication-link
 * expiry (Trestle's 5 idle minutes) all read it, so a test can move it forward instead of waiting.
 */
export interface ResoClock {
  now(): number;
  /** Move time forward by `ms` (never backward). */
  advance(ms: number): void;
}

/** Real time plus whatever tests advanced it by. */
export function systemClock(): ResoClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms) {
      if (!(ms >= 0)) throw new RangeError(`cannot move the clock by ${ms} ms`);
      offset += ms;
    },
  };
}

/** A clock that stands still until advanced: for tests of windows and expiries to the millisecond. */
export function manualClock(start: number): ResoClock {
  let now = start;
  return {
    now: () => now,
    advance(ms) {
      if (!(ms >= 0)) throw new RangeError(`cannot move the clock by ${ms} ms`);
      now += ms;
    },
  };
}
