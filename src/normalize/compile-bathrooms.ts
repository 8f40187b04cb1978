import { compileSource } from './compile-rule.ts';
import { type FieldCompile, notANumber } from './field-compile.ts';
import { isSet } from './field-path.ts';
import type { FieldWriter } from './mapped-record.ts';
import { numberValue } from './parse-number.ts';

/** Full, half, three-quarter and quarter baths, by weight. */
const WEIGHTS = [1, 0.5, 0.75, 0.25];

/**
 * Bathrooms: the first `from` path is the total; else the sum of the counts (`full`, `half`,
 * `threeQuarter`, `quarter`); further `from` paths (an integer total) last.
 */
export function compileBathrooms({ field, rule, ctx, set, extra, writeNumber }: FieldCompile): FieldWriter {
  const from = rule.from === undefined ? [] : typeof rule.from === 'string' ? [rule.from] : rule.from;
  // A rule without `from` (`const: 1`, a `template`, a `sum`) gives the total itself.
  const primary =
    from[0] === undefined
      ? compileSource(rule, false, true, true).read
      : compileSource({ ...rule, from: from[0] }, false, true, true).read;
  const rest =
    from.length > 1 ? compileSource({ ...rule, from: from.slice(1) }, false, true).read : () => undefined;
  const parts = [extra(rule.full), extra(rule.half), extra(rule.threeQuarter), extra(rule.quarter)] as const;
  return (record, out) => {
    const total = primary(record);
    if (isSet(total)) return writeNumber(total, out, rule.scale);
    let sum: number | undefined;
    for (let i = 0; i < parts.length; i++) {
      const value = parts[i]?.(record);
      if (value === undefined) continue;
      const parsed = numberValue(value, ctx.decimalComma);
      if (Number.isNaN(parsed)) return void out.problems.push(notANumber(field, value, ctx.decimalComma));
      if (parsed !== undefined) sum = (sum ?? 0) + parsed * WEIGHTS[i]!;
    }
    if (sum !== undefined) {
      set(out.listing, sum);
      return;
    }
    const fallback = isSet(rest(record)) ? rest(record) : ctx.fallback;
    if (isSet(fallback)) writeNumber(fallback, out, rule.scale);
  };
}
