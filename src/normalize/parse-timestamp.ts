/** REAXML `modTime`: `2024-03-05-14:30` or `2024-03-05-14:30:15`. */
const REAXML = /^(\d{4}-\d{2}-\d{2})-(\d{2}:\d{2}(?::\d{2})?)$/;
const HAS_ZONE = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Parse a feed timestamp to epoch milliseconds, never comparing strings: RESO sends
 * `2024-03-05T14:30:00Z`, `…T14:30:00.123Z` and `…T14:30:00+00:00` for the same kind of instant.
 * A timestamp without a zone is taken as UTC.
 */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  let text = value.trim();
  const reaxml = REAXML.exec(text);
  if (reaxml) text = `${reaxml[1]}T${reaxml[2]}`;
  if (/^\d{4}-\d{2}-\d{2}T/.test(text) && !HAS_ZONE.test(text)) text += 'Z';
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
