/**
 * AIMD concurrency: the platform documents no rate limit, so the limiter finds it. Every answer is
 * fed back: a success streak adds one request in flight, an overload (429, timeout) halves them,
 * always within [1, max] where max is `api.concurrency`. Pure: the limiters (local and Redis) keep
 * the state and call these functions; nothing here reads a clock.
 *
 * Plain AIMD climbs straight back into the limit it just met, and against a rate limit every
 * overload costs a Retry-After pause of the whole client. So the limit at the last overload is
 * remembered as `ceiling`: below it the limit grows by one per window of successes (one round
 * trip, as TCP does), and the step up to the ceiling waits for a long streak (`probeStreak`).
 * An overload that comes before a window of successes since the last decrease is the tail of the
 * same burst (the platform's window still holds it): it halves again but keeps the ceiling, so the
 * limit climbs back quickly to just below where the trouble started.
 */
export interface AimdState {
  /** Requests allowed in flight now. */
  limit: number;
  /** Successes since the limit last changed. */
  streak: number;
  /** Successes since the last decrease. */
  sinceDecrease: number;
  /** The limit at the last overload; 0 when none is known. */
  ceiling: number;
  /**
   * Bumped at every decrease. An overload answered to a request that started before the last
   * decrease says nothing new (it was sent at the old limit), so it does not halve again.
   */
  generation: number;
}

export interface AimdOptions {
  /** Upper bound: `api.concurrency`. */
  max: number;
  /** Successes needed before stepping up to (or past) the last overload's limit. Default 300. */
  probeStreak?: number;
  /**
   * Successes needed per step below it: at least this many and at least the limit (one window).
   * A rate limit answers with a delay of up to its window, so growing much faster overshoots. Default 10.
   */
  stepStreak?: number;
}

export const DEFAULT_PROBE_STREAK = 300;
export const DEFAULT_STEP_STREAK = 10;

/**
 * A shared state (Redis key, Postgres row) left untouched this long is forgotten: the next run starts
 * at full concurrency. The limit a platform allowed ten minutes ago says little about now.
 */
export const AIMD_TTL_MS = 10 * 60_000;

/** Where a run starts: full concurrency, as if nothing were known (no 429 ever costs anything). */
export function initialAimd(options: AimdOptions): AimdState {
  return { limit: Math.max(1, options.max), streak: 0, sinceDecrease: 0, ceiling: 0, generation: 0 };
}

/**
 * A request answered normally; `startedIn` is the generation it was started in. One started before
 * the last decrease was sent at the old limit: it says nothing about the new one.
 */
export function aimdSuccess(state: AimdState, startedIn: number, options: AimdOptions): AimdState {
  if (startedIn < state.generation) return state;
  const max = Math.max(1, options.max);
  if (state.limit >= max)
    return state.limit === max && state.streak === 0 ? state : { ...state, limit: max, streak: 0 };
  const streak = state.streak + 1;
  const sinceDecrease = state.sinceDecrease + 1;
  const nearCeiling = state.ceiling > 0 && state.limit + 1 >= state.ceiling;
  const needed = nearCeiling
    ? (options.probeStreak ?? DEFAULT_PROBE_STREAK)
    : Math.max(state.limit, options.stepStreak ?? DEFAULT_STEP_STREAK);
  if (streak < needed) return { ...state, streak, sinceDecrease };
  const limit = state.limit + 1;
  // Past the remembered ceiling without an overload: the limit moved, so that memory is stale.
  return { ...state, limit, streak: 0, sinceDecrease, ceiling: limit > state.ceiling ? 0 : state.ceiling };
}

/** A request answered 429 or timed out; `startedIn` is the generation it was started in. */
export function aimdOverload(state: AimdState, startedIn: number, options: AimdOptions): AimdState {
  if (startedIn < state.generation) return state;
  const current = Math.min(state.limit, Math.max(1, options.max));
  // Rounded up: at small limits a floor would drop below half the throughput (3 → 1).
  const limit = Math.max(1, Math.ceil(current / 2));
  const sameBurst = state.generation > 0 && state.sinceDecrease < current;
  const ceiling = sameBurst ? Math.max(state.ceiling, current) : current;
  return { limit, streak: 0, sinceDecrease: 0, ceiling, generation: state.generation + 1 };
}

/**
 * A stored state (parsed JSON, from Redis or a Postgres row) checked field by field, or undefined
 * when it is not one (then the limiter starts afresh rather than trusting it).
 */
export function aimdStateOf(value: unknown): AimdState | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Partial<AimdState>;
  const fields = [v.limit, v.streak, v.sinceDecrease, v.ceiling, v.generation];
  if (!fields.every((n) => typeof n === 'number' && Number.isFinite(n))) return undefined;
  return {
    limit: v.limit!,
    streak: v.streak!,
    sinceDecrease: v.sinceDecrease!,
    ceiling: v.ceiling!,
    generation: v.generation!,
  };
}

/**
 * Errors that say the service is overloaded: rate-limited (HTTP 429, envelope Code 429) or no
 * answer in time. Read by shape (`rateLimited`, `code`), so src/http stays below src/api.
 */
export function isOverload(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { rateLimited?: unknown; code?: unknown };
  return e.rateLimited === true || e.code === 'E_TIMEOUT';
}
