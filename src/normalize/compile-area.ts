import { convertArea, listingUnit, normalizeAreaUnit } from './area-units.ts';
import { type FieldCompile, notANumber } from './field-compile.ts';
import { Conflict, isSet } from './field-path.ts';
import { problem } from './field-problem.ts';
import type { FieldWriter } from './mapped-record.ts';
import { parseNumber } from './parse-number.ts';

/** An area in the feed's unit (`unitFrom`, a suffix such as "sq ft", or `unit`), converted to the listing's. */
export function compileArea({ field, rule, ctx, set, read, companion }: FieldCompile): FieldWriter {
  const unitOf = companion(rule.unitFrom);
  const target = listingUnit(ctx.areaUnit);
  return (record, out) => {
    const value = read(record);
    if (!isSet(value)) return;
    if (out.raw) out.raw[field] = value instanceof Conflict ? value.text : value;
    const parsed = parseNumber(value, ctx.decimalComma);
    if (!parsed.ok) return void out.problems.push(notANumber(field, value, ctx.decimalComma));
    if (parsed.value === undefined) return;
    const unitText = (unitOf?.(record, value) as string | undefined) ?? (parsed.suffix || rule.unit);
    const unit = unitText ? normalizeAreaUnit(String(unitText)) : target;
    if (!unit)
      return void out.problems.push(
        problem(field, value, 'unknown_unit', `has an unknown unit "${unitText}"`),
      );
    set(out.listing, convertArea(parsed.value * (rule.scale ?? 1), unit, target));
  };
}
