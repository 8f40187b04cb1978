/** Values that mean "no value" in feeds, compared lowercase. */
const UNSET = new Set(['', 'n/a', 'na', '-', '--', 'null', 'none', 'nil', 'undefined', 'tbd', '?']);

/** A cell of dashes only: what spreadsheets and exporters write for "nothing here". */
const DASHES = /^[-\u2012-\u2015]+$/;

export function isUnsetText(value: string): boolean {
  // Most values start with a digit or a letter no marker starts with: no trimming, no lowercasing.
  const first = value.charCodeAt(0);
  if ((first >= 48 && first <= 57) || (MARKER_START[first & ~0x20] === 0 && first > 64 && first < 123))
    return false;
  const text = value.trim();
  // The longest marker is 9 characters. Any run of dashes (`-`, `--`, `---`, `—`) is a blank cell.
  if (text.length <= 9 && UNSET.has(text.toLowerCase())) return true;
  const dash = text.charCodeAt(0);
  return (dash === 45 || (dash >= 0x2012 && dash <= 0x2015)) && DASHES.test(text);
}

/** Upper-case first letters of the markers (N/A, NULL, NONE, NIL, UNDEFINED, TBD), indexed by char code. */
const MARKER_START = new Uint8Array(128);
for (const letter of 'NUT') MARKER_START[letter.charCodeAt(0)] = 1;

/**
 * How a feed writes its decimals: `true`, a decimal comma (`84,5`; dots group thousands); `false`, a
 * decimal point; `'unsaid'` (a mapping that does not say, and no preset whose format does): as
 * `false`, except that a dot before exactly three final digits after one to three digits
 * (`1.649`, `450.000`) is refused, being 1649 in one country's feeds and 1.649 in another's.
 */
export type DecimalComma = boolean | 'unsaid';

export type ParsedNumber =
  | { ok: true; value: number | undefined; suffix: string }
  | { ok: false; reason: 'not_a_number' };

const SHAPE = /^[^\d+\-.]*?([+-]?\.?\d[\d.,\s'\u00a0\u202f]*)(.*)$/s;

/**
 * Parse feed numbers: `"$1,250,000"`, `"1,250,000.00"`, `"6,534 sqft"` (suffix returned for units),
 * `"84,5"` (a comma before one or two final digits is a decimal comma), `"1.250,5"` with or without
 * `decimalComma`. Unset markers (`N/A`, `-`, `null`, empty) give `value: undefined`.
 */
export function parseNumber(raw: unknown, decimalComma: DecimalComma = false): ParsedNumber {
  if (raw === undefined || raw === null) return { ok: true, value: undefined, suffix: '' };
  if (typeof raw === 'number') return Number.isFinite(raw) ? { ok: true, value: raw, suffix: '' } : notNumber;
  if (typeof raw !== 'string') return notNumber;
  const quick = quickValue(raw, decimalComma);
  if (quick !== undefined) return { ok: true, value: quick, suffix: trailingLetters(raw) };
  return withMagnitude(parseText(raw, decimalComma));
}

/**
 * Listing prices are often written short: `$1.2M`, `$450K`, `1.5 million`. The magnitude is applied
 * rather than dropped (which read `$1.2M` as 1.2). A lowercase `m` is not one: it is metres (in a
 * price, which is never in metres, it is: money.ts `readPrice`).
 */
const MAGNITUDES: Readonly<Record<string, number>> = {
  K: 1e3,
  k: 1e3,
  M: 1e6,
  MM: 1e6,
  B: 1e9,
  thousand: 1e3,
  million: 1e6,
  mil: 1e6,
  mio: 1e6,
  mn: 1e6,
  billion: 1e9,
  bn: 1e9,
};

function magnitudeOf(suffix: string): number | undefined {
  return MAGNITUDES[suffix] ?? (suffix.length > 2 ? MAGNITUDES[suffix.toLowerCase()] : undefined);
}

function withMagnitude(parsed: ParsedNumber): ParsedNumber {
  if (!parsed.ok || parsed.value === undefined) return parsed;
  const magnitude = magnitudeOf(parsed.suffix);
  if (magnitude === undefined) return parsed;
  // Rounded to cents: 1.15 × 1e6 is 1149999.9999999998 in binary floating point.
  return { ok: true, value: Math.round(parsed.value * magnitude * 100) / 100, suffix: '' };
}

/**
 * The value alone, without allocating for the common shapes: a number, `undefined` when unset
 * (`N/A`, empty), `NaN` when not a number. Same verdicts as `parseNumber`.
 */
export function numberValue(raw: unknown, decimalComma: DecimalComma = false): number | undefined {
  if (typeof raw === 'string') {
    const quick = quickValue(raw, decimalComma);
    if (quick !== undefined) return quick;
  }
  const parsed = parseNumber(raw, decimalComma);
  return parsed.ok ? parsed.value : Number.NaN;
}

/** The general parse of a text; `parseNumber` skips it for the common shapes. Exported for tests. */
export function parseText(raw: string, decimalComma: DecimalComma): ParsedNumber {
  if (isUnsetText(raw)) return { ok: true, value: undefined, suffix: '' };
  const match = SHAPE.exec(raw.trim());
  if (!match) return notNumber;
  const prefix = raw.trim().slice(0, raw.trim().length - match[1]!.length - match[2]!.length);
  const suffix = match[2]!.trim();
  // A prefix is a currency symbol or code ("$", "EUR", "A$"), never words; a suffix never holds
  // digits but an area's square (`85 m2`, `m^2`, `ft2`: a tester's `85 m2` was refused beside `111 m²`).
  if (/[a-z]{4,}/i.test(prefix) || (/\d/.test(suffix) && !SQUARED.test(suffix))) return notNumber;
  // `1.150 million`: a magnitude says the dot is a decimal point.
  const mode = decimalComma === 'unsaid' && magnitudeOf(suffix) !== undefined ? false : decimalComma;
  const value = Number(clean(match[1]!.replace(/[\s'\u00a0\u202f]/g, ''), mode));
  return Number.isFinite(value) ? { ok: true, value, suffix } : notNumber;
}

const notNumber: ParsedNumber = { ok: false, reason: 'not_a_number' };

/**
 * The value of a number with nothing after its digits (`$1,250,000`, `1250000`, `€2.5`), by the
 * shortcut alone: undefined for anything else, which a caller reads its own way (a price's text,
 * money.ts `readPrice`, never drops what follows its number).
 */
export function bareNumber(raw: string, decimalComma: DecimalComma): number | undefined {
  const quick = quickValue(raw, decimalComma);
  return quick !== undefined && isDigit(raw.charCodeAt(raw.length - 1)) ? quick : undefined;
}

/** A unit squared with a digit: `m2`, `m^2`, `ft2`, `ft^2`. */
const SQUARED = /^(?:m|ft)\^?2$/i;

/** A separator followed by one or two digits at the end: a decimal mark, never thousands. */
const DECIMAL_COMMA = /,(\d{1,2})$/;
const SHORT_DECIMAL_POINT = /^\d+\.\d{1,2}$/;
/** `1.649`, `-450.000`: one group of thousands, or three decimals; which, only the feed can say. */
const AMBIGUOUS_DOT = /^[+-]?[1-9]\d{0,2}\.\d{3}$/;

/**
 * Whether `raw` is refused only because its feed did not say how it writes decimals (`'unsaid'`):
 * `1.649` is 1649 or 1.649. For the message that says how to say it.
 */
export function isAmbiguousDot(raw: unknown, decimalComma: DecimalComma): boolean {
  return ambiguousDigits(raw, decimalComma) !== undefined;
}

function ambiguousDigits(raw: unknown, decimalComma: DecimalComma): string | undefined {
  if (decimalComma !== 'unsaid' || typeof raw !== 'string') return undefined;
  const match = SHAPE.exec(raw.trim());
  if (match === null || magnitudeOf(match[2]!.trim()) !== undefined) return undefined;
  const digits = match[1]!.replace(/[\s'\u00a0\u202f]/g, '');
  return AMBIGUOUS_DOT.test(digits) ? digits : undefined;
}

/**
 * The end of a problem's message for a number `isAmbiguousDot` refused, with its two readings:
 * `is 1649 or 1.649: say which with …`. Short: a rejected record's hold repeats it.
 */
export function ambiguousDotMessage(raw: unknown): string {
  const digits = ambiguousDigits(raw, 'unsaid') ?? '';
  return `is ${digits.replace('.', '')} or ${digits}: say which with the feed's \`mapping.decimalComma\` (true: a dot groups thousands; false: a dot is a decimal point)`;
}

/** One dot, no comma, digits either side. */
const SINGLE_DOT_DECIMAL = /^[+-]?\d+\.\d+$/;

/** `1.234.567`: dots grouping thousands, three digits to a group. */
const DOT_GROUPS = /^\d{1,3}(?:\.\d{3})+$/;

/**
 * The digits of a number as `Number()` reads them. A separator followed by one or two digits at the
 * end is a decimal mark, never a thousands separator (a group has three digits): `84,5` is 84.5 and
 * `1.234,56` is 1234.56 without `decimalComma`; with it, `1.5` is 1.5, while `1.250` is 1250 and
 * `1,250.00` is not a number. Ambiguous text (`1,234,5`) is not a number rather than a guess.
 */
function clean(digits: string, decimalComma: DecimalComma): string {
  if (decimalComma === 'unsaid' && AMBIGUOUS_DOT.test(digits)) return 'NaN';
  if (decimalComma === true) {
    if (SHORT_DECIMAL_POINT.test(digits)) return digits;
    // `1,250.00` in a decimal-comma feed: a US number, or a typo; not a guess either way.
    if (/,.*\./.test(digits)) return 'NaN';
    // One dot before anything but a group of three digits groups nothing: a decimal point, as the
    // coordinates of a German feed are written (`52.49876`), not 5249876.
    if (SINGLE_DOT_DECIMAL.test(digits) && !DOT_GROUPS.test(digits.replace(/^[+-]/, ''))) return digits;
    // Dots that group thousands group three digits each: `4.500.00` is no number, not 450000.
    const whole = digits.replace(/^[+-]/, '').split(',')[0] ?? '';
    if (whole.includes('.') && !DOT_GROUPS.test(whole)) return 'NaN';
    return digits.replace(/\./g, '').replace(',', '.');
  }
  const decimal = DECIMAL_COMMA.exec(digits);
  if (decimal) {
    const whole = digits.slice(0, decimal.index);
    if (whole.includes(',') || (whole.includes('.') && !DOT_GROUPS.test(whole))) return 'NaN';
    return `${whole.replace(/\./g, '')}.${decimal[1]}`;
  }
  // A comma before four digits or more groups nothing: `1,2345` is a typo, not 12345.
  if (/,\d{4}/.test(digits)) return 'NaN';
  const dots = digits.split('.').length - 1;
  // "1.250.000" without commas: dots are thousands separators, three digits to a group (a tester's
  // `$4.500.00` was read 450000, `1.234.56` 123456: a typo is not a number, never a guess).
  if (dots > 1 && !digits.includes(','))
    return DOT_GROUPS.test(digits.replace(/^[+-]/, '')) ? digits.replace(/\./g, '') : 'NaN';
  return digits.replace(/,/g, '');
}

const ZERO = 48;
const DOLLAR = 36;
const EURO = 0x20ac;
const POUND = 0xa3;

/**
 * The common shapes without regular expressions: `1250000`, `-3`, `2.5`, `$1,250,000.00`,
 * `1,234 sqft` (with `decimalComma` the separators swap: `1.250.000,75`). Anything else, including
 * more than 15 digits, is left to the general parse (undefined), which gives the same result for
 * these shapes: this is only a shortcut. Up to 15 digits, the integer of all digits divided by a
 * power of ten is exactly what `Number()` gives for the decimal text.
 */
function quickValue(raw: string, decimalComma: DecimalComma): number | undefined {
  const thousands = decimalComma === true ? 46 : 44; // '.' : ','
  const point = decimalComma === true ? 44 : 46;
  const length = raw.length;
  let i = 0;
  let code = raw.charCodeAt(0);
  if (code === DOLLAR || code === EURO || code === POUND) code = raw.charCodeAt(++i);
  const negative = code === 45 && i === 0;
  if (negative) code = raw.charCodeAt(++i);
  if (!(code >= ZERO && code <= ZERO + 9)) return undefined;
  let digits = 0;
  let value = 0;
  let scale = 1;
  let fraction = false;
  let grouped = false;
  for (; i < length; i++) {
    code = raw.charCodeAt(i);
    if (code >= ZERO && code <= ZERO + 9) {
      value = value * 10 + (code - ZERO);
      if (fraction) scale *= 10;
      if (++digits > 15) return undefined;
      continue;
    }
    const next = raw.charCodeAt(i + 1);
    const digitNext = next >= ZERO && next <= ZERO + 9;
    // A thousands separator is followed by a group of exactly three digits; anything else (`84,5`)
    // is the general parse's to read.
    if (code === thousands && !fraction && digitNext) {
      // A group of three after one to three digits: `1649.000` is the general parse's to read.
      if (!isGroup(raw, i + 1) || (!grouped && digits > 3)) return undefined;
      grouped = true;
      continue;
    }
    if (code === point && !fraction && digitNext) {
      fraction = true;
      continue;
    }
    break;
  }
  if (i < length) {
    // A unit such as ` sqft`: spaces, then ASCII letters only.
    let start = i;
    while (start < length && raw.charCodeAt(start) === 32) start++;
    if (start === length || start === i) return undefined;
    for (let j = start; j < length; j++) if (!isAsciiLetter(raw.charCodeAt(j))) return undefined;
    if (magnitudeOf(raw.slice(start)) !== undefined) return undefined;
  }
  const number = value / scale;
  // `1.649` where the feed did not say: the general parse refuses it.
  if (decimalComma === 'unsaid' && scale === 1000 && !grouped && number >= 1 && number < 1000)
    return undefined;
  return negative ? -number : number;
}

const isDigit = (code: number) => code >= ZERO && code <= ZERO + 9;
/** Three digits at `at`, and no fourth. */
const isGroup = (raw: string, at: number) =>
  isDigit(raw.charCodeAt(at)) &&
  isDigit(raw.charCodeAt(at + 1)) &&
  isDigit(raw.charCodeAt(at + 2)) &&
  !isDigit(raw.charCodeAt(at + 3));

const isAsciiLetter = (code: number) => (code | 0x20) >= 97 && (code | 0x20) <= 122;

/** The unit after a number of the quick shape: its trailing letters (`sqft`), or ''. */
function trailingLetters(raw: string): string {
  let start = raw.length;
  while (start > 0 && isAsciiLetter(raw.charCodeAt(start - 1))) start--;
  return start === raw.length ? '' : raw.slice(start);
}
