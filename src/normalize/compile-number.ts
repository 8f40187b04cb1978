import { type FieldCompile, notANumber } from './field-compile.ts';
import { isSet } from './field-path.ts';
import { problem } from './field-problem.ts';
import { MONEY_FIELDS } from './listing-schema.ts';
import type { FieldWriter, MappedRecord } from './mapped-record.ts';
import { PRICE_ON_REQUEST, perMonthFactor, priceOnRequest, priceSign, readPrice } from './money.ts';

const MONEY = new Set<string>(MONEY_FIELDS);
/**
 * Amounts whose text is read whole (`readPrice`: `$1.25m`, `€ 350.000,-`, `$650 pw`), never by
 * dropping what follows the number. Not UnitAreaPrice, an amount per area (`$250/sqft`).
 */
const PRICES = new Set<string>(['SalePrice', 'RentPrice', 'HOAMonth', 'EstimatePrice', 'DepositFee']);
/** The platform's monthly amounts: a period written in their text converts them. */
const PERIODIC = new Set<string>(['RentPrice', 'HOAMonth']);
/** The prices a listing may give "on request" (`POA`). */
const ON_REQUEST = new Set<string>(['SalePrice', 'RentPrice']);

/** A number or an amount of money, scaled, and per month when the feed names a period (`periodFrom`, `period`, or the price's text). */
export function compileNumber({
  field,
  rule,
  ctx,
  set,
  get,
  read,
  companion,
  writeNumber,
}: FieldCompile): FieldWriter {
  const periodOf = companion(rule.periodFrom);
  const money = MONEY.has(field);
  const price = PRICES.has(field);
  const periodic = PERIODIC.has(field);
  const onRequest = ON_REQUEST.has(field);
  const scale = rule.scale ?? 1;
  return (record, out) => {
    const value = read(record);
    if (!isSet(value)) return;
    // A price on request (`POA`) is unset, and a fact says so: the BLM, Kyero and OpenImmo presets'
    // way. It held the listing off the chatbot as not a number.
    const unpublished = onRequest && typeof value === 'string' ? priceOnRequest(value) : undefined;
    if (unpublished !== undefined) return onRequestNote(out, field, value, unpublished);
    let periodText = (periodOf?.(record, value) as string | undefined) ?? rule.period;
    let factor = 1;
    if (periodText !== undefined && isSet(periodText)) {
      const found = perMonthFactor(String(periodText));
      if (found === undefined) {
        if (out.raw) out.raw[field] = value;
        return void out.problems.push(
          problem(field, value, 'unknown_period', `has an unknown period "${periodText}"`),
        );
      }
      factor = found;
    } else periodText = undefined;
    if (price && typeof value === 'string') {
      if (out.raw) out.raw[field] = value;
      const reading = readPrice(value, ctx.decimalComma, periodic);
      if (!reading.ok)
        return void out.problems.push(
          reading.why === undefined
            ? notANumber(field, value, ctx.decimalComma)
            : problem(field, value, reading.reason, reading.why),
        );
      if (reading.value === undefined) return;
      // A period in the text (`$650 pw`) converts as the mapping's `period:` does; where the mapping
      // gives one too, they agree or the record is refused (which is meant is not known).
      if (reading.period !== undefined) {
        const stated = perMonthFactor(reading.period)!;
        if (periodText !== undefined && stated !== factor)
          return void out.problems.push(
            problem(
              field,
              value,
              'price_period',
              `is per ${reading.period}, but the mapping gives its period as "${String(periodText).trim()}": which one is meant is not known`,
            ),
          );
        if (periodText === undefined) [factor, periodText] = [stated, reading.period];
      }
      const amount = scale * factor;
      set(out.listing, amount === 1 ? reading.value : Math.round(reading.value * amount * 100) / 100);
      // `Guide Price £450,000`: the words kept as the BLM preset keeps its PRICE_QUALIFIER.
      if (reading.qualifier !== undefined && onRequest) {
        out.notes ??= [];
        if (!out.notes.some((note) => note.Key === 'Price qualifier'))
          out.notes.push({ Key: 'Price qualifier', value: reading.qualifier });
      }
    } else writeNumber(value, out, scale * factor);
    // A price's own currency, checked against the listing's once every field is mapped: only a
    // price that was read (one that was not is its own problem; the next alternative may read one).
    if (money && typeof value === 'string' && get(out.listing) !== undefined) {
      const sign = priceSign(value);
      if (sign !== undefined) {
        out.priceSigns ??= [];
        out.priceSigns.push({ field, value, sign });
      }
    }
    // The platform's RentPrice and HOAMonth are monthly; the period the feed published is kept.
    if (factor !== 1 && get(out.listing) !== undefined) {
      out.notes ??= [];
      out.notes.push({ Key: `${field} period`, value: String(periodText).trim() });
    }
  };
}

/** A price not published: left unset, the fact `Price: on request` (or `by auction`…) added once. */
function onRequestNote(out: MappedRecord, field: string, value: unknown, says: string): void {
  if (out.raw) out.raw[field] = value;
  out.notes ??= [];
  if (!out.notes.some((note) => note.Key === PRICE_ON_REQUEST.Key))
    out.notes.push({ Key: PRICE_ON_REQUEST.Key, value: says });
}
