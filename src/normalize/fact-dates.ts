/**
 * Dates and times as a person reads them in a listing's facts: `Sat 12 Apr 10:00–10:30`,
 * `1 Dec 2026`. Pure: the weekday is computed from the date, never from the clock. A text that
 * cannot be read is kept as the feed wrote it (the caller's choice), never turned into a guess.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH_INDEX: Readonly<Record<string, number>> = Object.fromEntries(
  MONTHS.map((name, i) => [name.toLowerCase(), i + 1]),
);

export interface DateParts {
  y: number;
  m: number;
  d: number;
}
export interface TimeParts {
  h: number;
  min: number;
  /** `UTC` for a timestamp in `Z`; undefined for a wall-clock time (or one with its own offset). */
  zone?: 'UTC';
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T\s-](\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;
const NAMED = /^(\d{1,2})[-\s]([A-Za-z]{3})[a-z]*[-\s,]+(\d{4})$/;
/** US month first, with a time or not: Redfin's `November-07-2026 01:00 PM`, `Nov 7, 2026`. */
const MONTH_FIRST = /^([A-Za-z]{3})[a-z]*\.?[-\s](\d{1,2})(?:st|nd|rd|th)?[-\s,]+(\d{4})(?:[\sT]+(.+))?$/;
const SLASHED = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const DOTTED = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
const TIME = /^(\d{1,2})(?::(\d{2}))?(?::\d{2}(?:\.\d+)?)?\s*([ap]\.?m\.?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

function valid(y: number, m: number, d: number): DateParts | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
    ? { y, m, d }
    : undefined;
}

/**
 * `2026-04-12`, `2026-04-12T10:00:00Z`, REAXML's `2026-04-12-10:00:00`, `12-Apr-2026`,
 * `12 April 2026`, German `12.04.2026`, US `April-12-2026 01:00 PM` (Redfin) and `Apr 12, 2026`;
 * `04/12/2026` is read the US way (the formats that write it are US ones: Zillow, ListHub).
 */
export function parseDate(text: string): { date: DateParts; time?: TimeParts } | undefined {
  const t = text.trim();
  const iso = ISO.exec(t);
  if (iso) {
    const date = valid(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    if (!date) return undefined;
    if (iso[4] === undefined) return { date };
    const time: TimeParts = { h: Number(iso[4]), min: Number(iso[5]) };
    if (iso[6] !== undefined && iso[6].toUpperCase() === 'Z') time.zone = 'UTC';
    return time.h < 24 && time.min < 60 ? { date, time } : { date };
  }
  const named = NAMED.exec(t);
  if (named) {
    const month = MONTH_INDEX[named[2]!.toLowerCase()];
    const date = month ? valid(Number(named[3]), month, Number(named[1])) : undefined;
    return date ? { date } : undefined;
  }
  const monthFirst = MONTH_FIRST.exec(t);
  if (monthFirst) {
    const month = MONTH_INDEX[monthFirst[1]!.toLowerCase()];
    const date = month ? valid(Number(monthFirst[3]), month, Number(monthFirst[2])) : undefined;
    if (!date) return undefined;
    if (monthFirst[4] === undefined) return { date };
    const time = parseTime(monthFirst[4]);
    return time ? { date, time } : undefined;
  }
  const slashed = SLASHED.exec(t);
  if (slashed) {
    const date = valid(Number(slashed[3]), Number(slashed[1]), Number(slashed[2]));
    return date ? { date } : undefined;
  }
  const dotted = DOTTED.exec(t);
  if (dotted) {
    const date = valid(Number(dotted[3]), Number(dotted[2]), Number(dotted[1]));
    return date ? { date } : undefined;
  }
  return undefined;
}

/** `10:00`, `10:00:00-07:00`, `5:14 PM`, `11:00am`, `1pm`, or the time of a timestamp. */
export function parseTime(text: string): TimeParts | undefined {
  const t = text.trim();
  const stamp = parseDate(t);
  if (stamp) return stamp.time;
  const match = TIME.exec(t);
  if (!match) return undefined;
  let h = Number(match[1]);
  const min = match[2] === undefined ? 0 : Number(match[2]);
  const half = match[3]?.toLowerCase().replace(/\./g, '');
  if (half !== undefined) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (half === 'pm' ? 12 : 0);
  }
  if (h > 23 || min > 59) return undefined;
  const time: TimeParts = { h, min };
  if (match[4]?.toUpperCase() === 'Z') time.zone = 'UTC';
  return time;
}

const pad = (n: number) => String(n).padStart(2, '0');
const weekday = ({ y, m, d }: DateParts) => WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]!;
export const clock = (t: TimeParts) => `${pad(t.h)}:${pad(t.min)}`;

/** `1 Dec 2026`. */
export function formatDate(date: DateParts): string {
  return `${date.d} ${MONTHS[date.m - 1]} ${date.y}`;
}

/** `Thu 4 Dec 2026 18:30` (`… UTC` for a time in UTC). */
export function formatDateTime(date: DateParts, time: TimeParts | undefined): string {
  const day = `${weekday(date)} ${formatDate(date)}`;
  return time ? `${day} ${clock(time)}${time.zone ? ' UTC' : ''}` : day;
}

/**
 * `Sat 12 Apr 10:00–10:30`: the day without its year (an open house is days away), the times as
 * the feed gave them (`… UTC` when it gave UTC timestamps, never converted to a zone it did not name).
 * The date comes from `date`, else from the start timestamp. Undefined when no date can be read.
 */
export function formatOpenHouse(
  date: string | undefined,
  start: string | undefined,
  end: string | undefined,
) {
  const startStamp = start === undefined ? undefined : parseDate(start);
  const day = (date === undefined ? undefined : parseDate(date)?.date) ?? startStamp?.date;
  if (!day) return undefined;
  const from = start === undefined ? undefined : parseTime(start);
  const to = end === undefined ? undefined : parseTime(end);
  const head = `${weekday(day)} ${day.d} ${MONTHS[day.m - 1]}`;
  if (!from) return head;
  const zone = from.zone || to?.zone ? ' UTC' : '';
  return to ? `${head} ${clock(from)}–${clock(to)}${zone}` : `${head} ${clock(from)}${zone}`;
}

const INSPECTION = /^(.+?)\s+(\d{1,2}(?::\d{2})?\s*[ap]\.?m\.?)\s+to\s+(\d{1,2}(?::\d{2})?\s*[ap]\.?m\.?)$/i;

/**
 * REAXML's `21-Dec-2026 11:00am to 1:00pm` as `Mon 21 Dec 11:00–13:00`; `Sat 11:00am to 11:30am`
 * (a day without a date) as `Sat 11:00–11:30`. Undefined when it is not that shape.
 */
export function formatInspection(text: string): string | undefined {
  const match = INSPECTION.exec(text.trim());
  if (!match) return undefined;
  const from = parseTime(match[2]!);
  const to = parseTime(match[3]!);
  if (!from || !to) return undefined;
  const date = parseDate(match[1]!)?.date;
  const head = date ? `${weekday(date)} ${date.d} ${MONTHS[date.m - 1]}` : match[1]!.trim();
  return `${head} ${clock(from)}–${clock(to)}`;
}
