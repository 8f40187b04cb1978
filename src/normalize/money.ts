import { normalizeToken } from './normalize-token.ts';
import { bareNumber, type DecimalComma, isUnsetText, parseText } from './parse-number.ts';

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
  // A price on request names no currency (a price column mapped to CurrencySymbol gave `POA`).
  if (!/\d/.test(trimmed))
    return trimmed === '' || isPriceOnRequest(trimmed) ? undefined : currencySymbol(trimmed);
  // Read as the price is (`readPrice`): what follows the number is a currency only where it is one
  // (`1,25 Mio. €` is in €; `650 p/w` is in no currency, where `p/w` was taken as one).
  // Through a qualifier (`Guide Price £450,000`): its currency is the price's (a tester's went out in $).
  const groups = PRICE.exec(trimmed)?.groups ?? PRICE.exec(splitQualifier(trimmed)?.rest ?? '')?.groups;
  const mark = groups?.before ?? groups?.after;
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

/**
 * A currency as a price writes it: a sign with up to three letters before it (`$`, `US$`, `A$`,
 * `€`), an ISO 4217 code (`EUR`, `usd`), or a local symbol written without a sign (`kr`, `R`).
 */
const CURRENCY = `(?:\\p{Lu}{0,3}\\p{Sc}|(?:${Intl.supportedValuesOf('currency').join('|')}|kr|Kč|zł|Ft|Fr\\.|Rs\\.?|RM|Rp|R)(?![\\p{L}]))`;

/** `k`, `M`, `Mio.`, `million`, `bn`: how a price is written short, multiplied by `PRICE_MAGNITUDES`. */
const MAGNITUDE = '(?:thousand|k|millions?|mil|mio|mln|mn|mm|m|billions?|bn|b)\\.?(?![\\p{L}])';

/**
 * A period written after an amount (`$650 pw`, `£900 pcm`, `$30,000/yr`), by the word of
 * `PER_MONTH` it stands for: the conversion is the mapping's `period:`.
 */
const PERIODS: Readonly<Record<string, string>> = {
  week: 'p\\.?\\s?w\\.?|p/w|pwk|per\\s+week|a\\s+week|/\\s*(?:week|wk|w)|weekly',
  month:
    'p\\.?\\s?c\\.?\\s?m\\.?|p\\.?\\s?m\\.?|p/m|per\\s+(?:calendar\\s+)?month|a\\s+month|/\\s*(?:month|mth|mo|m)\\.?|mth\\.?|mo\\.?|monthly',
  year: 'p\\.?\\s?a\\.?|p/a|per\\s+(?:annum|year)|a\\s+year|/\\s*(?:annum|year|yr|y|a)|yearly|annually',
  fortnight: 'per\\s+fortnight|a\\s+fortnight|/\\s*fortnight|fortnightly',
  quarter: 'per\\s+quarter|a\\s+quarter|/\\s*(?:quarter|qtr)|quarterly',
  night: 'per\\s+night|a\\s+night|/\\s*(?:night|nt)|nightly|p\\.?\\s?n\\.?|p/n',
  day: 'per\\s+day|a\\s+day|/\\s*day|daily|p\\.?\\s?d\\.?|p/d',
};
const PERIOD = Object.entries(PERIODS)
  .map(([period, written]) => `(?<${period}>${written})`)
  .join('|');

/**
 * A price text, whole: a currency before or after, the number, the German and Dutch "no cents"
 * mark (`350.000,-`), a magnitude (`1,25 Mio.`), a period (`pw`). Nothing else: a word around the
 * number is never dropped to read it (`$650 pw` was read as 650 a month, `$1.25m` as 1.25).
 */
const PRICE = new RegExp(
  `^(?<before>${CURRENCY})?\\s*(?<number>[+-]?\\d[\\d.,'\\s\\u00a0\\u202f]*?)(?<noCents>[.,][-\\u2012-\\u2015]{1,2})?\\s*(?<magnitude>${MAGNITUDE})?\\s*(?<after>${CURRENCY})?\\s*(?:${PERIOD})?$`,
  'iu',
);

/**
 * A price not published, in the closed list of the ways feeds write one (dots and case aside), with
 * what the fact `Price` says of it: on request (`POA`, `Contact Agent`, `Preis auf Anfrage`), by
 * auction, by tender, or by expressions of interest (Australian and UK sales).
 */
const ON_REQUEST = new Map<string, string>([
  ...[
    'poa',
    'price on application',
    'price on request',
    'price upon request',
    'on request',
    'upon request',
    'call for price',
    'contact agent for price',
    'contact agent',
    'contact the agent',
    'price withheld',
    'preis auf anfrage',
    'auf anfrage',
    'prix sur demande',
    'precio a consultar',
    'tba',
    'tbc',
  ].map((phrase) => [phrase, 'on request'] as const),
  ...['auction', 'for auction', 'by auction', 'for sale by auction'].map((p) => [p, 'by auction'] as const),
  ...['sale by tender', 'for sale by tender', 'tender', 'by tender'].map((p) => [p, 'by tender'] as const),
  ...['expressions of interest', 'eoi'].map((p) => [p, 'by expressions of interest'] as const),
]);

/**
 * What a price text that publishes no price says (`POA` → `on request`, `Auction` → `by auction`),
 * or undefined for any other text: the price is left unset and the fact `Price` says why, as the
 * BLM, Kyero and OpenImmo presets do.
 */
export function priceOnRequest(text: string): string | undefined {
  if (text.length > 30) return undefined;
  return ON_REQUEST.get(text.toLowerCase().replace(/\./g, '').replace(/\s+/g, ' ').trim());
}

/** Whether a price text publishes no price (`priceOnRequest`). */
export function isPriceOnRequest(text: string): boolean {
  return priceOnRequest(text) !== undefined;
}

/** The fact a price on request adds, the one the Kyero and OpenImmo presets give. */
export const PRICE_ON_REQUEST = { Key: 'Price', value: 'on request' } as const;

export type PriceReading =
  | { ok: true; value: number | undefined; period?: string; qualifier?: string }
  | { ok: false; reason: string; why?: string };

/**
 * The words a price is published with that leave its amount the asking price (`Guide Price
 * £450,000`, `From $450,000`, `$450,000 ono`), in a closed list, as BLM's PRICE_QUALIFIER codes and
 * sellers write them: read, and kept as the fact `Price qualifier` (the BLM preset's), never
 * dropped. Any other word around the number is still refused.
 */
const QUALIFIER_WORDS = [
  'guide price',
  'price guide',
  "buyers'? guide",
  "buyer's guide",
  'guide',
  'offers over',
  'offers above',
  'offers in excess of',
  'offers in the region of',
  'offers around',
  'offers from',
  'offers invited',
  'or nearest offer',
  'or best offer',
  'from',
  'asking price',
  'asking',
  'starting at',
  'starting from',
  'fixed price',
  'shared ownership',
  'negotiable',
  'neg',
  'firm',
  // German: Verhandlungsbasis (negotiable), ab (from), Festpreis (fixed), kalt/warm (a rent without
  // or with heating).
  'verhandlungsbasis',
  'festpreis',
  'kaltmiete',
  'warmmiete',
  'kalt',
  'warm',
  'ab',
  '\\+',
]
  .map((w) => w.replace(/ /g, '\\s+'))
  // `o.n.o.`, `O.I.R.O`, `VHB`: an abbreviation's letters may each take a dot.
  .concat(['ono', 'ovno', 'obo', 'oieo', 'oiro', 'vb', 'vhb'].map((w) => [...w].join('\\.?')))
  .join('|');
const LEADING_QUALIFIER = new RegExp(
  `^(?<qualifier>${QUALIFIER_WORDS})(?![\\p{L}])\\.?\\s*[:\\-–]?\\s*(?<rest>.+)$`,
  'iu',
);
const TRAILING_QUALIFIER = new RegExp(
  `^(?<rest>.+?)\\s*[,(]?\\s*(?<qualifier>${QUALIFIER_WORDS})\\.?\\)?$`,
  'iu',
);

/** A price text split from its qualifier (`Guide Price £450,000` → `£450,000`, `Guide Price`), if it has one. */
function splitQualifier(text: string): { rest: string; qualifier: string } | undefined {
  const groups = (LEADING_QUALIFIER.exec(text) ?? TRAILING_QUALIFIER.exec(text))?.groups;
  if (!groups?.rest || !groups.qualifier || !/\d/.test(groups.rest)) return undefined;
  return { rest: groups.rest, qualifier: groups.qualifier.replace(/\s+/g, ' ') };
}

/** A price read with its qualifier taken off either end, or undefined when it has none. */
function qualified(text: string, decimalComma: DecimalComma, periodic: boolean): PriceReading | undefined {
  const split = splitQualifier(text);
  if (split === undefined) return undefined;
  const reading = readPrice(split.rest, decimalComma, periodic, false);
  if (!reading.ok || reading.value === undefined) return reading.ok ? undefined : reading;
  return { ...reading, qualifier: split.qualifier === '+' ? 'or more' : split.qualifier };
}

/** A comma before three final digits, after one to three: `1,250 Mio.` is 1.25 million or 1250 million. */
const AMBIGUOUS_COMMA = /^[+-]?[1-9]\d{0,2},\d{3}$/;

/**
 * A price's text read whole (`PRICE`): `$1.25m` 1250000, `1,25 Mio. €` 1250000, `€ 350.000,-` 350000,
 * `$650 pw` 650 with its period (`week`, a word of `perMonthFactor`). `periodic`: the amount may be
 * per period (a rent, a fee); a sale price's text that names one is refused. Not ok, with `why` when
 * the number alone does not say it (`notANumber` says the rest): never read by dropping text.
 */
export function readPrice(
  text: string,
  decimalComma: DecimalComma,
  periodic: boolean,
  qualifiers = true,
): PriceReading {
  const bare = bareNumber(text, decimalComma);
  if (bare !== undefined) return { ok: true, value: bare };
  if (isUnsetText(text)) return { ok: true, value: undefined };
  const groups = PRICE.exec(text.trim())?.groups;
  if (groups === undefined || (groups.before && groups.after))
    return (qualifiers ? qualified(text.trim(), decimalComma, periodic) : undefined) ?? notPrice;
  const period = Object.keys(PERIODS).find((key) => groups[key] !== undefined);
  const magnitude = groups.magnitude?.replace(/\.$/, '');
  const digits = groups.number!.trim();
  if (period !== undefined && !periodic)
    return { ok: false, reason: 'price_period', why: `is per ${period}: only a rent or a fee is` };
  if (period === 'night' || period === 'day')
    return {
      ok: false,
      reason: 'price_period',
      why: `is a rate per ${period}: it is not a monthly rent, and is not made one (map the monthly rent, or leave the price out)`,
    };
  let mode = decimalComma;
  if (groups.noCents) {
    // `350.000,-`, `CHF 2.500.-`: "no cents", so a whole number, grouped by one separator in
    // threes or not at all (a reviewer: `€ 350.000.-` was read 350, `350,5,-` 350.5).
    const whole = WHOLE_GROUPED.exec(digits);
    if (whole === null || magnitude !== undefined) return notPrice;
    const value = Number(digits.replace(/[.,'\s\u00a0\u202f]/g, ''));
    return { ok: true, value, ...(period !== undefined ? { period } : {}) };
  }
  if (magnitude !== undefined) {
    if (decimalComma === 'unsaid' && AMBIGUOUS_COMMA.test(digits))
      return {
        ok: false,
        reason: 'not_a_number',
        why: `is ${Number(digits.replace(',', '.'))} ${magnitude} or ${digits.replace(',', '')} ${magnitude}: say which with the feed's \`mapping.decimalComma\`, or write the number in full`,
      };
    // `1.150 million`: a magnitude says a dot is a decimal point.
    if (decimalComma === 'unsaid') mode = false;
  }
  const parsed = parseText(digits, mode);
  if (!parsed.ok || parsed.suffix !== '') return notPrice;
  if (parsed.value === undefined || magnitude === undefined) return { ok: true, value: parsed.value, period };
  const factor = priceMagnitude(magnitude, groups.before ?? groups.after, periodic);
  if (typeof factor === 'string') return { ok: false, reason: 'not_a_number', why: factor };
  // Rounded to cents: 1.15 × 1e6 is 1149999.9999999998 in binary floating point.
  return { ok: true, value: Math.round(parsed.value * factor * 100) / 100, period };
}

const notPrice: PriceReading = { ok: false, reason: 'not_a_number' };

/** A whole number, bare or grouped in threes by one separator: `350000`, `350.000`, `1'250'000`. */
const WHOLE_GROUPED = /^\d+$|^\d{1,3}(?<sep>[.,'\s\u00a0\u202f])\d{3}(?:\k<sep>\d{3})*$/;

/**
 * A price's magnitudes, any case: a price is never in metres or millimetres, so `$1.25m` and `£1.2m`
 * are millions (they were read as 1.25 and 1.2). `bn` and `B` are the English billion.
 */
const PRICE_MAGNITUDES: Readonly<Record<string, number>> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mm: 1e6,
  mn: 1e6,
  mln: 1e6,
  mil: 1e6,
  mio: 1e6,
  million: 1e6,
  millions: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  billions: 1e9,
};

/**
 * What a price's magnitude multiplies by, or why it is not read. A rent's `m` may be its month
 * (`$1500 m`); `mil` is a million in US English and a thousand in Spanish and Portuguese
 * (`350 mil €`, `R$ 350 mil`): read only with the dollar written (`$2 mil`): a bare `350 mil` in a euro feed was read as a million (a reviewer).
 */
function priceMagnitude(magnitude: string, currency: string | undefined, periodic: boolean): number | string {
  const word = magnitude.toLowerCase();
  if (word === 'm' && periodic)
    return 'is a million or a month: write the number in full, or the period as pcm or /month';
  if (word === 'mil' && (currency === undefined || !/^(?:US)?\$$|^USD$/i.test(currency)))
    return 'is a million in US English and a thousand in Spanish or Portuguese: write the number in full';
  return PRICE_MAGNITUDES[word] ?? 'is not a number';
}
