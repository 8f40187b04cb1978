/** Values that mean "no value" in feeds, compared lowercase. */
const UNSET = new Set(['', 'n/a', 'na', '-', '--', 'null', 'none', 'nil', 'undefined', 'tbd', '?']);

export function isUnsetText(value: string): boolean {
  // The longest marker is 9 characters; most values are longer and need no lowercasing.
  return value.length <= 12 && UNSET.has(value.trim().toLowerCase());
}

export type ParsedNumber =
  | { ok: true; value: number | undefined; suffix: string }
  | { ok: false; reason: 'not_a_number' };

/** Most feed numbers are plain: skip the general parse for them. */
const PLAIN = /^-?\d+(?:\.\d+)?$/;
const SHAPE = /^[^\d+\-.]*?([+-]?\.?\d[\d.,\s'\u00a0\u202f]*)(.*)$/s;

/**
 * Parse feed numbers: `"$1,250,000"`, `"1,250,000.00"`, `"6,534 sqft"` (suffix returned for units),
 * `"84,5"` with `decimalComma`. Unset markers (`N/A`, `-`, `null`, empty) give `value: undefined`.
 */
export function parseNumber(raw: unknown, decimalComma = false): ParsedNumber {
  if (raw === undefined || raw === null) return { ok: true, value: undefined, suffix: '' };
  if (typeof raw === 'number') return Number.isFinite(raw) ? { ok: true, value: raw, suffix: '' } : notNumber;
  if (typeof raw !== 'string') return notNumber;
  if (PLAIN.test(raw)) return { ok: true, value: Number(raw), suffix: '' };
  if (isUnsetText(raw)) return { ok: true, value: undefined, suffix: '' };
  const match = SHAPE.exec(raw.trim());
  if (!match) return notNumber;
  const prefix = raw.trim().slice(0, raw.trim().length - match[1]!.length - match[2]!.length);
  const suffix = match[2]!.trim();
  // A prefix is a currency symbol or code ("$", "EUR", "A$"), never words; a suffix never holds digits.
  if (/[a-z]{4,}/i.test(prefix) || /\d/.test(suffix)) return notNumber;
  const value = Number(clean(match[1]!.replace(/[\s'\u00a0\u202f]/g, ''), decimalComma));
  return Number.isFinite(value) ? { ok: true, value, suffix } : notNumber;
}

const notNumber: ParsedNumber = { ok: false, reason: 'not_a_number' };

function clean(digits: string, decimalComma: boolean): string {
  if (decimalComma) return digits.replace(/\./g, '').replace(',', '.');
  const dots = digits.split('.').length - 1;
  // "1.250.000" without commas: dots are thousands separators.
  if (dots > 1 && !digits.includes(',')) return digits.replace(/\./g, '');
  return digits.replace(/,/g, '');
}
