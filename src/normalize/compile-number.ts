import type { FieldCompile } from './field-compile.ts';
import { isSet } from './field-path.ts';
import { problem } from './field-problem.ts';
import { MONEY_FIELDS } from './listing-schema.ts';
import type { FieldWriter } from './mapped-record.ts';
import { perMonthFactor, priceSign } from './money.ts';

const MONEY = new Set<string>(MONEY_FIELDS);

/** A number or an amount of money, scaled, and per month when the feed names a period (`periodFrom`, `period`). */
export function compileNumber({ field, rule, get, read, companion, writeNumber }: FieldCompile): FieldWriter {
  const periodOf = companion(rule.periodFrom);
  const money = MONEY.has(field);
  return (record, out) => {
    const value = read(record);
    if (!isSet(value)) return;
    const periodText = (periodOf?.(record, value) as string | undefined) ?? rule.period;
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
    }
    writeNumber(value, out, (rule.scale ?? 1) * factor);
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
