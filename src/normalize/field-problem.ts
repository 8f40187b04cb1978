/** Why one field of one record cannot become a listing field. Pure data; the feed adds where. */
export interface FieldProblem {
  field: string;
  /** The raw value from the feed, as it was. */
  value: unknown;
  /** Stable reason code: missing, not_a_number, unknown_status, unknown_unit, invalid_enum, out_of_range, invalid_url, invalid. */
  reason: string;
  /** `Bedrooms "three" is not a number` */
  message: string;
}

/** `"three"`, `"a very long descr…"`: a raw value quoted for a message, cut to stay readable. */
export function quoteValue(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}…` : text);
}

export function problem(field: string, value: unknown, reason: string, text: string): FieldProblem {
  const shown = value === undefined ? '' : ` ${quoteValue(value)}`;
  return { field, value, reason, message: `${field}${shown} ${text}` };
}
