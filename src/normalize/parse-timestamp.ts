/** REAXML `modTime`: `2024-03-05-14:30` or `2024-03-05-14:30:15`. */
const REAXML = /^(\d{4}-\d{2}-\d{2})-(\d{2}:\d{2}(?::\d{2})?)$/;
const HAS_ZONE = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Parse a feed timestamp to epoch milliseconds, never comparing strings: RESO sends
 * `2024-03-05T14:30:00Z`, `…T14:30:00.123Z` and `…T14:30:00+00:00` for the same kind of instant.
 * A timestamp without a zone is taken as UTC.
 */
const DAY_MS = 86_400_000;
const ISO_DATE = /^\s*\d{4}-\d{2}-\d{2}(?:$|[T\s-])/;

/** `05/01/2024`, `5.1.2024`, `05-01-2024`: day and month in an order only the feed's country knows. */
const NUMERIC_DATE = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[\sT]|$)/;
/** `May 1, 2024`, `1 May 2024`: a month name says which number is the day. */
const MONTH_NAME = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\b/i;

/** Which number comes first in a date such as `05/01/2024`: `mdy` (US exports) or `dmy`. */
export type DateOrder = 'mdy' | 'dmy';

/**
 * Whole UTC calendar days from a feed date (`2024-05-01`, `2024-05-01T10:00:00Z`, REAXML's
 * `2024-05-01-10:30`, `May 1, 2024`) to `now`; 0 for a date in the future; undefined when it is not
 * such a date. `05/01/2024` means May or January depending on the feed's country, so it is read
 * only with a `dateOrder`.
 */
export function daysSince(value: unknown, now: number, order?: DateOrder): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = ISO_DATE.test(value)
    ? parseTimestamp(value)
    : NUMERIC_DATE.test(value)
      ? numericDate(value, order)
      : MONTH_NAME.test(value)
        ? namedDate(value)
        : undefined;
  if (ms === undefined) return undefined;
  return Math.max(0, Math.floor(now / DAY_MS) - Math.floor(ms / DAY_MS));
}

function numericDate(value: string, order: DateOrder | undefined): number | undefined {
  const match = NUMERIC_DATE.exec(value);
  if (!match || order === undefined) return undefined;
  const [first, second, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [month, day] = order === 'mdy' ? [first, second] : [second, first];
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  // 02/30/2024 is not a date (Date.UTC would roll it into March).
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? ms : undefined;
}

function namedDate(value: string): number | undefined {
  // Read as a calendar date in UTC: the time and zone of a listing date do not change its day.
  const ms = Date.parse(`${value.trim()} UTC`);
  const fallback = Number.isNaN(ms) ? Date.parse(value.trim()) : ms;
  return Number.isNaN(fallback) ? undefined : fallback;
}

export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  let text = value.trim();
  const reaxml = REAXML.exec(text);
  if (reaxml) text = `${reaxml[1]}T${reaxml[2]}`;
  // Without a zone, UTC (`2024-03-05T14:30`, and `2024-03-05 14:30` as MLS exports write it): never
  // the zone of the machine that runs the sync, which would change the listing with the machine.
  if (/^\d{4}-\d{2}-\d{2}[T ]\d/.test(text) && !HAS_ZONE.test(text)) text = `${text.replace(' ', 'T')}Z`;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
