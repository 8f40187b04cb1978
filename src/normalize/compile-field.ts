import { compileArea } from './compile-area.ts';
import { compileBathrooms } from './compile-bathrooms.ts';
import { compileDaysSince } from './compile-days-since.ts';
import { compileEnum } from './compile-enum.ts';
import { compileImages } from './compile-images.ts';
import { compileNumber } from './compile-number.ts';
import { compileSource, ruleObject } from './compile-rule.ts';
import { compileText } from './compile-text.ts';
import { type FieldCompile, type KindCompiler, writeNumberTo } from './field-compile.ts';
import { compileCompanion, compileFirst, isSet, type RawFields } from './field-path.ts';
import type { ListingField } from './listing-schema.ts';
import { propertyReader, propertyWriter } from './literal-access.ts';
import type { FieldContext, FieldWriter, MappedRecord } from './mapped-record.ts';
import type { FieldRuleObject } from './mapping-schema.ts';
import { isUnsetText } from './parse-number.ts';

export type { FieldContext, FieldWriter, MappedRecord } from './mapped-record.ts';

export type FieldKind =
  | 'string'
  | 'url'
  | 'number'
  | 'area'
  | 'money'
  | 'bathrooms'
  | 'enum'
  | 'currency'
  | 'images';

/**
 * Compile one field's rule into a writer, by the field's kind: one compiler per kind
 * (compile-text.ts, compile-number.ts, compile-area.ts, compile-enum.ts…), each handed the readers
 * and writers they share (`FieldCompile`). Returns the paths it reads too.
 */
export function compileField(
  field: ListingField,
  kind: FieldKind,
  rawRule: string | FieldRuleObject,
  ctx: FieldContext,
): { write: FieldWriter; paths: string[] } {
  const rule = ruleObject(rawRule);
  const compile = fieldCompile(field, kind, rule, ctx);
  return { write: compilerOf(kind, rule)(compile), paths: compile.paths };
}

/** The compiler of a field kind; a number counted from a date (`daysSince`) has its own. */
function compilerOf(kind: FieldKind, rule: FieldRuleObject): KindCompiler {
  switch (kind) {
    case 'bathrooms':
      return compileBathrooms;
    case 'area':
      return compileArea;
    case 'money':
    case 'number':
      return rule.daysSince !== undefined ? compileDaysSince : compileNumber;
    case 'enum':
      return compileEnum;
    case 'string':
    case 'url':
    case 'currency':
      return (compile) => compileText(kind, compile);
    case 'images':
      return ({ field, rule, ctx, paths }) => compileImages(field, rule, ctx, paths);
  }
}

/**
 * Whether a field reads its path's values only when they agree (`compileAgreeing`): a number, a
 * price or an area repeated with different values in one record is a problem, not its first value.
 * Not where a companion attribute says which is which (`periodFrom`, `unitFrom`: REAXML's weekly
 * and monthly `<rent>`, the first read with its own period, `compileCompanion`), nor a date
 * counted in days.
 */
function agrees(kind: FieldKind, rule: FieldRuleObject): boolean {
  if (kind !== 'number' && kind !== 'money' && kind !== 'area' && kind !== 'bathrooms') return false;
  return rule.periodFrom === undefined && rule.unitFrom === undefined && rule.daysSince === undefined;
}

/** The readers and writers every field kind shares. */
function fieldCompile(
  field: ListingField,
  kind: FieldKind,
  rule: FieldRuleObject,
  ctx: FieldContext,
): FieldCompile {
  // `out.listing[field]` with the field as a literal: one inline cache per field (literal-access.ts).
  const set = propertyWriter(field);
  const source = compileSource(rule, kind === 'url', kind !== 'enum', agrees(kind, rule));
  const paths = [...source.paths];
  return {
    field,
    rule,
    ctx,
    set,
    get: propertyReader(field),
    read: (record: RawFields): unknown => {
      const value = source.read(record);
      // "N/A" and friends are as good as absent, so the per-feed default applies to them too.
      return isSet(value) && !(typeof value === 'string' && isUnsetText(value)) ? value : ctx.fallback;
    },
    extra: (path) => {
      if (path === undefined) return undefined;
      paths.push(path);
      return compileFirst(path);
    },
    companion: (path) => {
      if (path === undefined) return undefined;
      paths.push(path);
      return compileCompanion(typeof rule.from === 'string' ? rule.from : undefined, path);
    },
    writeNumber: (value: unknown, out: MappedRecord, scale = 1) =>
      writeNumberTo(set, field, value, ctx, out, scale),
    paths,
  };
}
