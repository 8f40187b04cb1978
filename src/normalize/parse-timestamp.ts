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

/**
 * Whole UTC calendar days from a feed date (`2024-05-01`, `2024-05-01T10:00:00Z`, REAXML's
 * `2024-05-01-10:30`) to `now`; 0 for a date in the future; undefined when it is not such a date.
 * Only ISO-like dates: `05/01/2024` means May or January depending on the feed's country.
 */
export function daysSince(value: unknown, now: number): number | undefined {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return undefined;
  const ms = parseTimestamp(value);
  if (ms === undefined) return undefined;
  return Math.max(0, Math.floor(now / DAY_MS) - Math.floor(ms / DAY_MS));
}

export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  let text = value.trim();
  const reaxml = REAXML.exec(text);
  if (reaxml) text = `${reaxml[1]}T${reaxml[2]}`;
  if (/^\d{4}-\d{2}-\d{2}T/.test(text) && !HAS_ZONE.test(text)) text += 'Z';
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
