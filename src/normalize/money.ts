import { normalizeToken } from './normalize-token.ts';

const symbols = new Map<string, string>();

/**
 * `EUR` → `€`, `USD` → `$`, `GBP` → `£` (the narrow symbol a local reader expects). Anything that is not a
 * three-letter ISO code is taken as the symbol itself.
 */
export function currencySymbol(value: string): string {
  const code = value.trim();
  if (!/^[A-Za-z]{3}$/.test(code)) return code;
  const upper = code.toUpperCase();
  let symbol = symbols.get(upper);
  if (symbol === undefined) {
    try {
      const parts = new Intl.NumberFormat('en', {
        style: 'currency',
        currency: upper,
        currencyDisplay: 'narrowSymbol',
      });
      symbol = parts.formatToParts(0).find((part) => part.type === 'currency')?.value ?? upper;
    } catch {
      symbol = upper;
    }
    symbols.set(upper, symbol);
  }
  return symbol;
}

/**
 * The currency a text names: a code (`USD`, `eur`) or a symbol (`$`, `A$`, `€`) as `currencySymbol`
 * gives it, or the one a price carries (`$1,250,000`, `1.250.000 €`, `EUR 250,000`, `250000 AUD`).
 * Undefined for a bare number (its currency is the feed's: the rule's default).
 */
export function currencyOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (!/\d/.test(trimmed)) return trimmed === '' ? undefined : currencySymbol(trimmed);
  const match = /^([^\d\s+\-.,]*)\s*[+-]?[\d.,'\s\u00a0\u202f]+?\s*([^\d\s.,]*)$/.exec(trimmed);
  const mark = match ? match[1] || match[2] : '';
  return mark ? currencySymbol(mark) : undefined;
}

/** A currency sign (Unicode's currency symbols: `$`, `£`, `€`, `¥`, `₹`…). */
const SIGN = /\p{Sc}/u;

/**
 * The currency sign of a currency symbol: `$` of `$`, `US$` and `A$`, `£` of `£`; undefined for a
 * symbol without one (`CHF`). Two dollars are not told apart: only signs that differ are a mismatch.
 */
export function signOf(symbol: string): string | undefined {
  const sign = SIGN.exec(symbol)?.[0];
  // The full-width forms (`￥`, `＄`) are the same currency as the narrow ones.
  return sign?.normalize('NFKC');
}

/**
 * The currency sign a price text carries (`$1,250,000`, `1.250.000 €`), or names by its code
 * (`250000 GBP` → `£`): undefined for a bare number. Read for every price of every record: a scan
 * of its characters, the code's reading (`currencyOf`) only for a text with letters in it.
 */
export function priceSign(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 36) return '$';
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      const named = currencyOf(text);
      return named === undefined ? undefined : signOf(named);
    }
    if (c >= 0xa0 && SIGN.test(text[i] as string)) return (text[i] as string).normalize('NFKC');
  }
  return undefined;
}

/** Periods per month. */
const PER_MONTH: Readonly<Record<string, number>> = {
  month: 1,
  monthly: 1,
  mo: 1,
  pcm: 1,
  permonth: 1,
  m: 1,
  week: 52 / 12,
  weekly: 52 / 12,
  wk: 52 / 12,
  pw: 52 / 12,
  perweek: 52 / 12,
  w: 52 / 12,
  day: 365 / 12,
  daily: 365 / 12,
  night: 365 / 12,
  year: 1 / 12,
  yearly: 1 / 12,
  annual: 1 / 12,
  annually: 1 / 12,
  peryear: 1 / 12,
  pa: 1 / 12,
  y: 1 / 12,
  quarter: 1 / 3,
  quarterly: 1 / 3,
  semiannual: 1 / 6,
  semiannually: 1 / 6,
  biannual: 1 / 6,
  halfyear: 1 / 6,
  biweekly: 26 / 12,
  fortnight: 26 / 12,
  fortnightly: 26 / 12,
  bimonthly: 1 / 2,
};

/** Factor turning an amount per `period` into an amount per month, or undefined when unknown. */
export function perMonthFactor(period: string): number | undefined {
  return PER_MONTH[normalizeToken(period)];
}
