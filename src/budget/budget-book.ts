import type { BudgetAnswer, BudgetLimits, BudgetUsage, BudgetWindow, Ceiling } from './budget-types.ts';

export const SECOND_MS = 1000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * The windows as enforced: longer than the provider's by a margin, because a request reaches the
 * provider some time after it is counted here (a connection to open, a slow network). Counted at
 * 0 ms and arriving at 5 ms, a request would still be in the provider's second when one counted here
 * at 1,000 ms arrives at 1,001 ms: over the limit, and MLS Grid suspends the key. A quarter second
 * on the second (2/s become 2 per 1.25 s), a second on the hour and the day.
 */
export const SECOND_WINDOW_MS = SECOND_MS + 250;

/** A request in flight counts this long at most (its worker may have died): longer than any attempt. */
export const IN_FLIGHT_MS = 120_000;

/** A second window full of requests still in flight frees as they answer: ask again this soon. */
export const POLL_MS = 50;
export const HOUR_WINDOW_MS = HOUR_MS + 1000;
export const DAY_WINDOW_MS = DAY_MS + 1000;

/**
 * One key's requests, as plain JSON (the state file keeps it as is): the start times of the last
 * second exactly, and counts per minute for the hour and the day. The Redis and Postgres stores
 * keep the same three things in their own form (redis-budget.ts, postgres-budget.ts).
 */
export interface BudgetBook {
  /**
   * Requests of the last second, by ticket: when each answered (epoch ms), or while in flight the
   * instant it stops counting if it never answers (`IN_FLIGHT_MS` after its start).
   */
  seconds: Record<string, number>;
  /** Minute number (`floor(ms / 60000)`) → requests started in it. */
  minutes: Record<string, number>;
  /** Announced ceilings by name, until they reset. */
  ceilings: Record<string, { remaining: number; until: number }>;
}

export const emptyBook = (): BudgetBook => ({ seconds: {}, minutes: {}, ceilings: {} });

/** The second's entries still counted at `now`, ascending. */
function secondsAt(book: BudgetBook, now: number): number[] {
  return Object.values(book.seconds ?? {})
    .filter((t) => t > now - SECOND_WINDOW_MS)
    .sort((a, b) => a - b);
}

/**
 * A minute counts in a window while any part of it is inside: a request at 10:00:59 still counts at
 * 11:00:58. That rounds every count up, never down, so the rolling window can only be stricter than
 * the provider's.
 */
const inWindow = (minute: number, now: number, windowMs: number) => (minute + 1) * MINUTE_MS > now - windowMs;

/** The book without what no window can see any more. Pure. */
export function pruned(book: BudgetBook, now: number): BudgetBook {
  const minutes: Record<string, number> = {};
  for (const [minute, n] of Object.entries(book.minutes))
    if (inWindow(Number(minute), now, DAY_WINDOW_MS)) minutes[minute] = n;
  const ceilings: BudgetBook['ceilings'] = {};
  for (const [name, c] of Object.entries(book.ceilings)) if (c.until > now) ceilings[name] = c;
  const seconds: Record<string, number> = {};
  for (const [ticket, t] of Object.entries(book.seconds ?? {}))
    if (t > now - SECOND_WINDOW_MS) seconds[ticket] = t;
  return { seconds, minutes, ceilings };
}

/**
 * When a window that holds `counts` (minute, requests; ascending) allows one more request under
 * `limit`: now, or the end of the minute whose leaving brings the count under the limit, plus the window.
 */
function minuteWindowRetry(
  counts: [number, number][],
  now: number,
  windowMs: number,
  limit: number,
): number | undefined {
  const inside = counts.filter(([minute]) => inWindow(minute, now, windowMs));
  let count = inside.reduce((sum, [, n]) => sum + n, 0);
  if (count < limit) return undefined;
  for (const [minute, n] of inside) {
    count -= n;
    if (count < limit) return (minute + 1) * MINUTE_MS + windowMs;
  }
  return now + windowMs;
}

/** Whether one more request fits at `now`, and if not, until when (the latest of the bounds that refuse). */
export function checkBook(book: BudgetBook, limits: BudgetLimits, now: number): BudgetAnswer {
  let retryAt = 0;
  let window: BudgetWindow = 'second';
  const later = (at: number | undefined, which: BudgetWindow) => {
    if (at !== undefined && at > retryAt) {
      retryAt = at;
      window = which;
    }
  };
  for (const c of Object.values(book.ceilings))
    if (c.until > now && c.remaining <= 0) later(c.until, 'provider');
  const { perSecond, perHour, perDay } = limits;
  const seconds = secondsAt(book, now);
  if (perSecond && seconds.length >= perSecond) {
    const leaving = seconds[seconds.length - perSecond]!;
    // Still in flight: it frees a second after its answer, which comes soon.
    later(leaving > now ? now + POLL_MS : leaving + SECOND_WINDOW_MS, 'second');
  }
  const counts = Object.entries(book.minutes)
    .map(([minute, n]): [number, number] => [Number(minute), n])
    .sort((a, b) => a[0] - b[0]);
  if (perHour) later(minuteWindowRetry(counts, now, HOUR_WINDOW_MS, perHour), 'hour');
  if (perDay) later(minuteWindowRetry(counts, now, DAY_WINDOW_MS, perDay), 'day');
  return retryAt > now ? { ok: false, window, retryAt } : { ok: true, ticket: '' };
}

/** Take one request at `now` if it fits: the book after it, and the answer. Pure. */
export function takeFromBook(
  book: BudgetBook,
  limits: BudgetLimits,
  now: number,
  ticket: string,
): { book: BudgetBook; answer: BudgetAnswer } {
  const current = pruned(book, now);
  const answer = checkBook(current, limits, now);
  if (!answer.ok) return { book: current, answer };
  const next = counted(current, now, 1);
  next.seconds = { ...current.seconds, [ticket]: now + IN_FLIGHT_MS };
  return { book: next, answer: { ok: true, ticket } };
}

/** The book once the request `ticket` has its answer: it counts in the second from `now`. Pure. */
export function doneInBook(book: BudgetBook, ticket: string, now: number): BudgetBook {
  if (book.seconds?.[ticket] === undefined) return book;
  return { ...book, seconds: { ...book.seconds, [ticket]: now } };
}

/**
 * The book with `n` more requests started at `now` in the hour and the day (ceilings lowered by as
 * many); the second's entries are `takeFromBook`'s. Pure.
 */
export function counted(book: BudgetBook, now: number, n: number): BudgetBook {
  const minute = String(Math.floor(now / MINUTE_MS));
  const ceilings: BudgetBook['ceilings'] = {};
  for (const [name, c] of Object.entries(book.ceilings))
    ceilings[name] = { ...c, remaining: c.remaining - n };
  return {
    seconds: book.seconds,
    minutes: { ...book.minutes, [minute]: (book.minutes[minute] ?? 0) + n },
    ceilings,
  };
}

/**
 * Two announcements less than this apart name the same provider window (a reset given in seconds
 * from now moves by a second between two answers).
 */
export const SAME_WINDOW_MS = 2000;

/** The book with a ceiling the provider announced: the lower of the two within one window. Pure. */
export function announcedTo(book: BudgetBook, ceiling: Ceiling, now: number): BudgetBook {
  const current = pruned(book, now);
  if (ceiling.resetAt <= now) return current;
  const known = current.ceilings[ceiling.name];
  const sameWindow = known !== undefined && Math.abs(known.until - ceiling.resetAt) < SAME_WINDOW_MS;
  const remaining = sameWindow ? Math.min(known.remaining, ceiling.remaining) : ceiling.remaining;
  return {
    ...current,
    ceilings: {
      ...current.ceilings,
      [ceiling.name]: { remaining, until: Math.max(ceiling.resetAt, known?.until ?? 0) },
    },
  };
}

/** Requests counted in each window at `now`. */
export function usageOfBook(book: BudgetBook, now: number): BudgetUsage {
  const sum = (windowMs: number) =>
    Object.entries(book.minutes).reduce(
      (total, [minute, n]) => total + (inWindow(Number(minute), now, windowMs) ? n : 0),
      0,
    );
  return {
    second: secondsAt(book, now).length,
    hour: sum(HOUR_WINDOW_MS),
    day: sum(DAY_WINDOW_MS),
  };
}

/** How many more requests every window allows at `now` (Infinity when none is bounded). */
export function headroom(book: BudgetBook, limits: BudgetLimits, now: number): number {
  const usage = usageOfBook(book, now);
  let room = Number.POSITIVE_INFINITY;
  if (limits.perHour) room = Math.min(room, limits.perHour - usage.hour);
  if (limits.perDay) room = Math.min(room, limits.perDay - usage.day);
  for (const c of Object.values(book.ceilings)) if (c.until > now) room = Math.min(room, c.remaining);
  return Math.max(0, room);
}
