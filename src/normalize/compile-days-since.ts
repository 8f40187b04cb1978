import type { FieldCompile } from './field-compile.ts';
import { isSet } from './field-path.ts';
import { problem } from './field-problem.ts';
import type { FieldWriter } from './mapped-record.ts';
import { isUnsetText } from './parse-number.ts';
import { daysSince } from './parse-timestamp.ts';

const DATE_FORMS = { mdy: 'MM/DD/YYYY', dmy: 'DD/MM/YYYY' } as const;

/** A number of days from a date (`daysSince`) to the run's clock: days on market from a listing date. */
export function compileDaysSince({ field, rule, ctx, set, extra, writeNumber }: FieldCompile): FieldWriter {
  const { now } = ctx;
  if (now === undefined) throw new Error(`${field}: a daysSince rule needs the run's clock`);
  const dateOf = extra(rule.daysSince)!;
  return (record, out) => {
    const value = dateOf(record);
    if (!isSet(value) || (typeof value === 'string' && isUnsetText(value))) {
      if (isSet(ctx.fallback)) writeNumber(ctx.fallback, out);
      return;
    }
    if (out.raw) out.raw[field] = value;
    const days = daysSince(value, now, rule.dateOrder);
    if (days === undefined)
      return void out.problems.push(
        problem(
          field,
          value,
          'not_a_date',
          rule.dateOrder
            ? `is not a date (YYYY-MM-DD or ${DATE_FORMS[rule.dateOrder]})`
            : 'is not a date (YYYY-MM-DD; set dateOrder for 05/01/2024)',
        ),
      );
    set(out.listing, days);
  };
}
