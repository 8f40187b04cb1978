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
 *
 * A concurrency alone cannot pace a rate limit at low latency: at 50 ms one request in flight
 * already starts 20 a second. So the controller also learns a rate (`rate`, starts per second)
 * from the overloads: the starts the limiter counted in the second before the request that met
 * the 429 (`recent`) is what the platform admitted; the limiter then paces starts a little below
 * it (`rateMargin`) and probes up slowly (`rateProbe` every `rateProbeSeconds` of successes), so a
 * limit that rose is found again at the cost of one 429 now and then.
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
  /** Starts per second allowed; 0 = none learned (unpaced). */
  rate: number;
  /** Successes since `rate` last changed. */
  rateStreak: number;
  /** The rate met by the first 429 of a burst, paced once a second one confirms it; 0 = none. */
  pendingRate: number;
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
  /** The paced rate as a share of the rate met at an overload. Default 0.95. */
  rateMargin?: number;
  /** Growth of the paced rate per probe. Default 0.05 (5%). */
  rateProbe?: number;
  /** Seconds of successes at the paced rate before each probe. Default 30: a probe past the limit costs a 429 and its Retry-After (often seconds). */
  rateProbeSeconds?: number;
}

export const DEFAULT_PROBE_STREAK = 300;
export const DEFAULT_STEP_STREAK = 10;
export const DEFAULT_RATE_MARGIN = 0.95;
export const DEFAULT_RATE_PROBE = 0.05;
export const DEFAULT_RATE_PROBE_SECONDS = 30;

/**
 * A shared state (Redis key, Postgres row) left untouched this long is forgotten: the next run starts
 * at full concurrency. The limit a platform allowed ten minutes ago says little about now.
 */
export const AIMD_TTL_MS = 10 * 60_000;

/** Where a run starts: full concurrency, as if nothing were known (no 429 ever costs anything). */
export function initialAimd(options: AimdOptions): AimdState {
  return {
    limit: Math.max(1, options.max),
    streak: 0,
    sinceDecrease: 0,
    ceiling: 0,
    generation: 0,
    rate: 0,
    rateStreak: 0,
    pendingRate: 0,
  };
}

/** One success at the paced rate: after `rateProbeSeconds` of them, the rate grows by `rateProbe`. */
function rateSuccess(state: AimdState, options: AimdOptions): Pick<AimdState, 'rate' | 'rateStreak'> {
  if (state.rate <= 0) return { rate: 0, rateStreak: 0 };
  const rateStreak = state.rateStreak + 1;
  if (rateStreak < state.rate * (options.rateProbeSeconds ?? DEFAULT_RATE_PROBE_SECONDS))
    return { rate: state.rate, rateStreak };
  return { rate: state.rate * (1 + (options.rateProbe ?? DEFAULT_RATE_PROBE)), rateStreak: 0 };
}

/**
 * The rate after an overload met with `recent` starts in the second before it (started in the
 * current generation: `news`).
 *
 * None is known yet: a rate limit refuses everything past it, so the 429 that first met it is
 * followed by more from the same burst (requests already sent). The first one's count is kept
 * aside (`pendingRate`) and paced only once a second 429 of the burst confirms it; a lone 429 (a
 * hiccup, a fault) teaches nothing. Nor does one met after fewer starts than `max` in the second:
 * a rate that low is the concurrency's to find.
 *
 * One is known: a later overload lowers it only after a second's worth of successes at the paced
 * rate (before that it is the tail of the same burst, and the retry's pause deals with it). Met
 * while running at about the paced rate, the platform's limit is just there (its clock and ours
 * disagree by a request or so): a nudge of `rateMargin` down. Met well below it, the limit fell (or
 * others share it): down to what it admitted, but never below half the paced rate at once.
 */
function rateOverload(
  state: AimdState,
  recent: number,
  news: boolean,
  options: AimdOptions,
): Pick<AimdState, 'rate' | 'rateStreak' | 'pendingRate'> {
  const kept = { rate: state.rate, rateStreak: state.rateStreak, pendingRate: state.pendingRate };
  const margin = options.rateMargin ?? DEFAULT_RATE_MARGIN;
  if (state.rate <= 0) {
    if (!news)
      return state.pendingRate > 0 ? { rate: state.pendingRate, rateStreak: 0, pendingRate: 0 } : kept;
    const pendingRate = recent >= Math.max(2, options.max) ? recent * margin : 0;
    return { ...kept, pendingRate };
  }
  if (!(recent > 0) || state.rateStreak < state.rate) return kept;
  const atPace = recent >= state.rate * 0.9 - 1;
  const rate = Math.max(1, state.rate / 2, (atPace ? state.rate : recent) * margin);
  return { rate, rateStreak: 0, pendingRate: 0 };
}

/**
 * A request answered normally; `startedIn` is the generation it was started in. One started before
 * the last decrease was sent at the old limit: it says nothing about the new one.
 */
export function aimdSuccess(state: AimdState, startedIn: number, options: AimdOptions): AimdState {
  if (startedIn < state.generation) return state;
  const max = Math.max(1, options.max);
  const paced = rateSuccess(state, options);
  if (state.limit >= max)
    return state.limit === max && state.streak === 0 && state.rate <= 0
      ? state
      : { ...state, ...paced, limit: max, streak: 0 };
  const streak = state.streak + 1;
  const sinceDecrease = state.sinceDecrease + 1;
  const nearCeiling = state.ceiling > 0 && state.limit + 1 >= state.ceiling;
  const needed = nearCeiling
    ? (options.probeStreak ?? DEFAULT_PROBE_STREAK)
    : Math.max(state.limit, options.stepStreak ?? DEFAULT_STEP_STREAK);
  if (streak < needed) return { ...state, ...paced, streak, sinceDecrease };
  const limit = state.limit + 1;
  // Past the remembered ceiling without an overload: the limit moved, so that memory is stale.
  const ceiling = limit > state.ceiling ? 0 : state.ceiling;
  return { ...state, ...paced, limit, streak: 0, sinceDecrease, ceiling };
}

/**
 * A request answered 429 or timed out; `startedIn` is the generation it was started in, `recent`
 * the starts the limiter counted in the second before it started (0 = not counted: the rate is
 * left alone).
 */
export function aimdOverload(
  state: AimdState,
  startedIn: number,
  options: AimdOptions,
  recent = 0,
): AimdState {
  const news = startedIn >= state.generation;
  const paced = rateOverload(state, recent, news, options);
  if (!news) return paced.rate === state.rate ? state : { ...state, ...paced };
  const current = Math.min(state.limit, Math.max(1, options.max));
  // Rounded up: at small limits a floor would drop below half the throughput (3 → 1).
  const limit = Math.max(1, Math.ceil(current / 2));
  const sameBurst = state.generation > 0 && state.sinceDecrease < current;
  const ceiling = sameBurst ? Math.max(state.ceiling, current) : current;
  return { limit, streak: 0, sinceDecrease: 0, ceiling, generation: state.generation + 1, ...paced };
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
  // A state written before the rate was learned has none: unpaced.
  const finite = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);
  return {
    limit: v.limit!,
    streak: v.streak!,
    sinceDecrease: v.sinceDecrease!,
    ceiling: v.ceiling!,
    generation: v.generation!,
    rate: finite(v.rate),
    rateStreak: finite(v.rateStreak),
    pendingRate: finite(v.pendingRate),
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

/**
 * The starts a refusal teaches the rate from: a 429 says what the platform admitted; a timeout
 * says it was slow, not how many requests a second it takes (it lowers the concurrency only).
 */
export function rateEvidence(error: unknown, recent: number): number {
  return (error as { rateLimited?: unknown } | null)?.rateLimited === true ? recent : 0;
}
