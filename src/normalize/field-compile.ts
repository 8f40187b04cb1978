import { Conflict, type RawFields } from './field-path.ts';
import { type FieldProblem, problem } from './field-problem.ts';
import type { ListingField } from './listing-schema.ts';
import type { FieldContext, FieldWriter, MappedRecord } from './mapped-record.ts';
import type { FieldRuleObject } from './mapping-schema.ts';
import { ambiguousDotMessage, type DecimalComma, isAmbiguousDot, numberValue } from './parse-number.ts';

/**
 * What `compileField` hands the compiler of one field kind (compile-area.ts, compile-enum.ts…): the
 * field, its rule and context, and the readers and writers every kind shares. A compiler returns
 * the field's writer; the paths it reads beyond the rule's `from` it adds through `extra`.
 */
export interface FieldCompile {
  field: ListingField;
  rule: FieldRuleObject;
  ctx: FieldContext;
  /** `out.listing[field] = value`, the field as a literal (literal-access.ts). */
  set: (listing: Record<string, unknown>, value: unknown) => void;
  /** `out.listing[field]`. */
  get: (listing: Record<string, unknown>) => unknown;
  /** The rule's value of a record, the per-feed default when it is unset ("N/A" included). */
  read: (record: RawFields) => unknown;
  /** A reader of one more path the rule names (`unitFrom`, `periodFrom`, `full`…), or undefined. */
  extra: (path: string | undefined) => ((record: RawFields) => unknown) | undefined;
  /** A companion of the value (`unitFrom`, `periodFrom`), read from the element the value came from. */
  companion: (path: string | undefined) => ((record: RawFields, value: unknown) => unknown) | undefined;
  /** Parse `value` as a number, times `scale` (rounded to cents), and set it; a problem if it is not one. */
  writeNumber: (value: unknown, out: MappedRecord, scale?: number) => void;
  /** The paths the field reads, in the order the mapping lists them. */
  paths: string[];
}

export type KindCompiler = (compile: FieldCompile) => FieldWriter;

export function writeNumberTo(
  set: FieldCompile['set'],
  field: string,
  value: unknown,
  ctx: FieldContext,
  out: MappedRecord,
  scale: number,
): void {
  if (out.raw) out.raw[field] = value instanceof Conflict ? value.text : value;
  if ((field === 'Latitude' || field === 'Longitude') && typeof value === 'string') {
    const coordinate = coordinateOf(field, value);
    if (Number.isNaN(coordinate))
      return void out.problems.push(
        problem(
          field,
          value,
          'not_a_number',
          `is not a ${field === 'Latitude' ? 'latitude' : 'longitude'} in decimal degrees (${field === 'Latitude' ? '39.676, -33.8688, 33.8688 S' : '-89.704, 151.2093 E, 74.006 W'})`,
        ),
      );
    return void set(out.listing, coordinate);
  }
  const parsed = numberValue(value, ctx.decimalComma);
  if (Number.isNaN(parsed)) return void out.problems.push(notANumber(field, value, ctx.decimalComma));
  if (parsed === undefined) return;
  set(out.listing, scale === 1 ? parsed : Math.round(parsed * scale * 100) / 100);
}

/**
 * A coordinate as feeds write it, in decimal degrees: `39.676`, `-89.7042`, `−89.7042` (a typeset
 * minus), `39,676` (a decimal comma), `33.8688° S`, `S 33.8688`, `33.8688 South`: one separator
 * between digits, a degree sign, and a hemisphere before or after, optional.
 */
const COORDINATE =
  /^\s*(north|south|east|west|[nsew])?\s*([+\-\u2212]?)(\d{1,3})(?:[.,](\d+))?\s*°?\s*(north|south|east|west|[nsew])?\s*$/i;

/**
 * A coordinate's value, read whatever the feed says of its decimals: one separator between digits
 * is a decimal mark, as no coordinate is 39676 (a tester: `39.676` held the listing as 39676 or
 * 39.676); a hemisphere gives the sign (`33.86 S` is -33.86, never 33.86: a reviewer; `S 33.86`,
 * `33.86 South` too: a tester). NaN for anything else: a hemisphere of the other axis, two of them, a
 * sign beside one, a unit or words around the number (no text is dropped to read a coordinate, nor a
 * price: money.ts `readPrice`), degrees and minutes.
 */
export function coordinateOf(field: 'Latitude' | 'Longitude', text: string): number {
  const match = COORDINATE.exec(text);
  if (match === null) return Number.NaN;
  const [, before, sign, whole, decimals, after] = match;
  const value = Number(`${whole}.${decimals ?? '0'}`);
  const negative = sign === '-' || sign === '\u2212';
  if (before === undefined && after === undefined) return negative ? -value : value;
  if (before !== undefined && after !== undefined) return Number.NaN;
  const hemisphere = (before ?? after ?? '').charAt(0).toUpperCase();
  const axis = field === 'Latitude' ? 'NS' : 'EW';
  if (!axis.includes(hemisphere) || sign !== '') return Number.NaN;
  return hemisphere === 'S' || hemisphere === 'W' ? -value : value;
}

/** A value that is not a number, as a problem: a dot the feed did not say how to read, or none. */
export function notANumber(field: string, value: unknown, decimalComma: DecimalComma): FieldProblem {
  if (value instanceof Conflict)
    return problem(
      field,
      value.text,
      'conflicting',
      `is given ${value.values.length} different values in one record (an element or value repeated): which one is meant is not known; fix the feed, or map the one meant (a path picks an element by an attribute or a child: \`price[@currency=EUR]\`)`,
    );
  const why = isAmbiguousDot(value, decimalComma) ? ambiguousDotMessage(value) : 'is not a number';
  return problem(field, value, 'not_a_number', why);
}
