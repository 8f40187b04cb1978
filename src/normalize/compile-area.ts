import { convertArea, listingUnit, normalizeAreaUnit } from './area-units.ts';
import { type FieldCompile, notANumber } from './field-compile.ts';
import { Conflict, compilePath, isSet, type RawFields, scalarOf } from './field-path.ts';
import { problem } from './field-problem.ts';
import type { FieldWriter } from './mapped-record.ts';
import { parseNumber } from './parse-number.ts';

/** An area in the feed's unit (`unitFrom`, a suffix such as "sq ft", or `unit`), converted to the listing's. */
export function compileArea({ field, rule, ctx, set, read, companion }: FieldCompile): FieldWriter {
  const unitOf = companion(rule.unitFrom);
  const target = listingUnit(ctx.areaUnit);
  const repeated = repeatedAreas(rule.from, rule.unitFrom, rule.unit, target, ctx.decimalComma);
  return (record, out) => {
    const value = read(record);
    if (!isSet(value)) return;
    const conflict = repeated?.(record);
    if (conflict) {
      if (out.raw) out.raw[field] = conflict.text;
      return void out.problems.push(notANumber(field, conflict, ctx.decimalComma));
    }
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

/**
 * An area element repeated with its own unit attribute (`<landDetails><area unit="squareMeter">300`
 * and `310`): a `unitFrom` reads each value's unit from its element, so the values are not compared
 * as texts (80 m² and 861 sq ft are one area), but as areas: two that differ (by more than the
 * rounding of a conversion, 0.5%) are a `Conflict`, never the first taken unsaid. Undefined when the
 * rule reads no unit from the value's own element (the values then agree as texts, `compileAgreeing`).
 */
function repeatedAreas(
  from: unknown,
  unitFrom: string | undefined,
  unit: string | undefined,
  target: string,
  decimalComma: FieldCompile['ctx']['decimalComma'],
): ((record: RawFields) => Conflict | undefined) | undefined {
  if (typeof from !== 'string' || unitFrom === undefined || !unitFrom.startsWith(`${from}.`))
    return undefined;
  const elements = compilePath(from);
  const unitAt = compilePath(unitFrom.slice(from.length + 1));
  return (record) => {
    const items = elements(record);
    if (items.length < 2) return undefined;
    const texts: string[] = [];
    const areas: number[] = [];
    for (const item of items) {
      const scalar = scalarOf(item);
      if (!isSet(scalar) || typeof scalar === 'object') continue;
      const text = String(scalar).trim();
      const parsed = parseNumber(text, decimalComma);
      if (!parsed.ok || parsed.value === undefined) continue;
      const unitText =
        item && typeof item === 'object'
          ? unitAt(item as RawFields)
              .map(scalarOf)
              .find(isSet)
          : undefined;
      const canonical = normalizeAreaUnit(String(unitText ?? (parsed.suffix || unit || target)));
      if (canonical === undefined) continue;
      if (!texts.includes(text)) texts.push(text);
      areas.push(convertArea(parsed.value, canonical, target));
    }
    const low = Math.min(...areas);
    const high = Math.max(...areas);
    return areas.length > 1 && high - low > high * 0.005 ? new Conflict(texts) : undefined;
  };
}
