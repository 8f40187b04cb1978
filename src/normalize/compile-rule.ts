import {
  Conflict,
  compileAgreeing,
  compileFirst,
  compilePath,
  firstScalar,
  isSet,
  type PathReader,
  type RawFields,
  scalarOf,
} from './field-path.ts';
import type { Condition, FieldRuleObject } from './mapping-schema.ts';
import { normalizeMap, normalizeToken } from './normalize-token.ts';
import { numberValue } from './parse-number.ts';
import { compileTemplate } from './template.ts';

/** Produces the raw value of a rule from a record, before any typing: a scalar or undefined. */
export type ValueSource = (record: RawFields) => unknown;

export interface CompiledSource {
  read: ValueSource;
  /** Every path the rule reads, so `extensions.unmapped` can leave them out. */
  paths: string[];
}

/**
 * `from` / `const` / `template` / `join` / `sum` / `map` / `when` / `default` of a rule, compiled once
 * per feed. `valueMap`: apply the rule's `map` here (enum fields apply theirs with the enum maps).
 * `agree`: a `from` path holding different values in one record reads as a `Conflict` (numbers),
 * where otherwise its first value is taken (a text, a list of categories).
 */
export function compileSource(
  rule: FieldRuleObject,
  encodeTemplate: boolean,
  valueMap = false,
  agree = false,
): CompiledSource {
  const paths: string[] = [];
  let read: ValueSource = () => undefined;
  if (rule.const !== undefined) {
    const value = rule.const;
    read = () => value;
  } else if (rule.template !== undefined) {
    const template = compileTemplate(rule.template, encodeTemplate);
    paths.push(...template.paths);
    read = template.render;
  } else if (rule.from !== undefined) {
    const from = typeof rule.from === 'string' ? [rule.from] : rule.from;
    paths.push(...from);
    read = rule.join === undefined ? firstOf(from, agree) : joinOf(from.map(compilePath), rule.join);
  } else if (rule.sum !== undefined) {
    const sum = typeof rule.sum === 'string' ? [rule.sum] : rule.sum;
    paths.push(...sum);
    read = sumOf(sum.map(compileFirst));
  }
  if (valueMap && rule.map !== undefined) {
    const map = normalizeMap(rule.map);
    const inner = read;
    read = (record) => {
      const value = inner(record);
      if (!isSet(value) || value instanceof Conflict) return value;
      const mapped = map.get(normalizeToken(String(value))) ?? map.get('*');
      return mapped === undefined ? value : mapped === '' ? undefined : mapped;
    };
  }
  if (rule.default !== undefined) {
    const fallback = rule.default;
    const inner = read;
    read = (record) => {
      const value = inner(record);
      return isSet(value) ? value : fallback;
    };
  }
  if (rule.when) {
    const conditions = Array.isArray(rule.when) ? rule.when : [rule.when];
    const tests = conditions.map(compileCondition);
    const test = (record: RawFields) => tests.every((t) => t(record));
    paths.push(...conditions.map((c) => c.path));
    const inner = read;
    read = (record) => (test(record) ? inner(record) : undefined);
  }
  return { read, paths };
}

function firstOf(paths: string[], agree: boolean): ValueSource {
  const readers = paths.map(agree ? compileAgreeing : compileFirst);
  if (readers.length === 1) return readers[0]!;
  return (record) => {
    for (const reader of readers) {
      const value = reader(record);
      if (value !== undefined) return value;
    }
    return undefined;
  };
}

/**
 * `garages + carports`: the numbers at the paths added; unset when no path is set. A value that is
 * not a number is returned as it is, so the field reports it (`not_a_number`) rather than dropping it.
 */
function sumOf(readers: ((record: RawFields) => unknown)[]): ValueSource {
  return (record) => {
    let total: number | undefined;
    for (const reader of readers) {
      const value = reader(record);
      if (!isSet(value)) continue;
      const number = numberValue(value);
      if (number === undefined) continue;
      if (Number.isNaN(number)) return value;
      total = (total ?? 0) + number;
    }
    return total;
  };
}

function joinOf(readers: PathReader[], separator: string): ValueSource {
  return (record) => {
    const parts: string[] = [];
    for (const reader of readers) {
      for (const value of reader(record)) {
        const scalar = scalarOf(value);
        if (isSet(scalar)) parts.push(String(scalar).trim());
      }
    }
    return parts.length > 0 ? parts.join(separator) : undefined;
  };
}

export function compileCondition(condition: Condition): (record: RawFields) => boolean {
  const reader = compilePath(condition.path);
  const inSet = condition.in ? new Set(condition.in.map(normalizeToken)) : undefined;
  const notIn = condition.notIn ? new Set(condition.notIn.map(normalizeToken)) : undefined;
  const { set } = condition;
  return (record) => {
    if (set !== undefined && reader(record).some(isSet) !== set) return false;
    const value = firstScalar(reader, record);
    const token = value === undefined ? '' : normalizeToken(String(value));
    if (inSet && !inSet.has(token)) return false;
    if (notIn?.has(token)) return false;
    return true;
  };
}

/** A rule as an object: a bare path becomes `{ from: path }`. */
export function ruleObject(rule: string | FieldRuleObject): FieldRuleObject {
  return typeof rule === 'string' ? { from: rule } : rule;
}
