import { type RawFields, scalarOf } from '../field-path.ts';
import { PRICE_ON_REQUEST } from '../money.ts';
import { isUnsetText, parseNumber } from '../parse-number.ts';
import type { PresetHooks } from './preset-hook-types.ts';

const object = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
const textOf = (value: unknown): string => {
  // An element repeated (`<price>275000</price><price>280000</price>`): one value if they agree; if
  // not, all of them, which no number reads, so the record is rejected showing them, where the
  // price was dropped unsaid.
  if (Array.isArray(value)) {
    const texts = [...new Set(value.map(textOf).filter((text) => text !== ''))];
    return texts.join(' | ');
  }
  const scalar = scalarOf(value);
  return scalar === undefined || scalar === null || typeof scalar === 'object' ? '' : String(scalar).trim();
};

/** The number a free-text area starts with: `50 + 75 terrace` → 50, `120m2 aprox.` → 120. */
const LEADING = /^(\d+(?:[.,]\d+)*)\s*(?:m2|m²|sqm)?\b/i;
/** `12.500`, `1.250.000` (Spanish), `12,500`: an integer written with thousands separators. */
const GROUPED = /^\d{1,3}(?:(\.)\d{3})+$|^\d{1,3}(?:,\d{3})+$/;

/**
 * Kyero's prices and areas are integers (v3: `price`, `built` and `plot` are whole euros and square
 * meters), so a dot between groups of three digits is a Spanish thousands separator: `12.500` is
 * 12500 m², never 12.5. Anything else is left to the number reading.
 */
export function kyeroInteger(text: string): string {
  return GROUPED.test(text) ? text.replace(/[.,]/g, '') : text;
}

/**
 * An area as Kyero exporters write it. A number (with or without `m2`) is the area. Free text that
 * starts with one (`50 + 75 terrace`) gives that leading number, and the text is kept for
 * ExtensionColumn (`$…Text`): the listing is not rejected for the agent's note, and no part of it
 * is lost. Text with no leading number stays as it is (the mapping reports it).
 */
function area(text: string): { value?: string; note?: string } {
  if (text === '' || isUnsetText(text)) return {};
  if (parseNumber(text).ok) return { value: kyeroInteger(text) };
  const leading = LEADING.exec(text);
  if (!leading) return { value: text };
  // `5400 m2` is a number and its unit, nothing more to keep.
  const whole = leading[0].length === text.length;
  const value = kyeroInteger(leading[1]!);
  return whole ? { value } : { value, note: text };
}

/**
 * The `$`-fields the `kyero` preset reads: the price (`$price`; a 0 is on request, `$priceOnRequest`) and the built and plot areas from
 * `surface_area` (or the top-level `built` / `plot` some exporters write), as integers (`12.500` is
 * 12500), their leading number when the agent wrote free text.
 */
export function deriveKyeroFields(fields: RawFields): RawFields {
  const surface = object(fields.surface_area) ?? {};
  const built = area(textOf(surface.built) || textOf(fields.built));
  const plot = area(textOf(surface.plot) || textOf(fields.plot));
  const price = textOf(fields.price);
  // Spanish CRMs write 0 for a price on request (the format has no qualifier): never €0 on the
  // chatbot. The price is left unset, and a fact says it is on request.
  const onRequest = /^0+(?:[.,]0+)?$/.test(price);
  return {
    ...fields,
    $price: price === '' || onRequest ? undefined : kyeroInteger(price),
    $priceOnRequest: onRequest ? PRICE_ON_REQUEST.value : undefined,
    $built: built.value,
    $builtText: built.note,
    $plot: plot.value,
    $plotText: plot.note,
  };
}

export const kyeroHooks: PresetHooks = { derive: deriveKyeroFields };
