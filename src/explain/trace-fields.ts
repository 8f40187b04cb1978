import type { FeedConfig } from '../config/index.ts';
import {
  compileMapping,
  compilePath,
  compileTemplate,
  describeFact,
  type FactRule,
  type FieldRuleObject,
  isSet,
  KINDS,
  LISTING_FIELDS,
  type ListingField,
  MARKER_FIELDS,
  type MappingConfig,
  PRESET_HOOKS,
  type RawFields,
  type SingleRule,
  scalarOf,
} from '../normalize/index.ts';
import { failedConditions, whenWords } from './conditions.ts';
import { conversionOf } from './conversion.ts';
import { extensionField } from './listing-fields.ts';
import type { FieldTrace } from './types.ts';

/** What tracing one record needs: the feed, the mapping the run used, the record, what it became. */
export interface TraceInput {
  feed: FeedConfig;
  /** The mapping in effect (preset merged, or inferred from the CSV header): `CompiledMapping.mapping`. */
  mapping: MappingConfig;
  record: RawFields;
  /** The listing's values: the validated listing, or a rejected record's candidate values. */
  values: Record<string, unknown>;
  /** Fields filled with the unknown marker. */
  unknown: readonly string[];
  /** The run's clock, for `daysSince` rules. */
  now: Date;
}

/** Never marked while one rule is tried alone: an absent value must stay absent. */
const REJECT_MISSING = Object.fromEntries(MARKER_FIELDS.map((f) => [f, 'reject' as const]));

/**
 * Each listing field with its value and where it came from: the rule (and which of several
 * alternatives gave it), the paths it read and their raw values, the preset, a default, the unknown
 * marker, and the conversion. Pure. Costs nothing on a run: it compiles each rule again, alone, for
 * this one record, rather than tracing the compiled mapping every record goes through.
 */
export function traceFields(input: TraceInput): FieldTrace[] {
  const { mapping } = input;
  const record = derived(input);
  const traces: FieldTrace[] = [];
  for (const field of LISTING_FIELDS) {
    if (field === 'ExtensionColumn') continue;
    const rule = mapping.fields?.[field];
    const value = input.values[field];
    if (field === 'AreaUnit') {
      if (value !== undefined) traces.push(areaUnitTrace(mapping, value));
      continue;
    }
    if (rule === null || rule === undefined) {
      const fallback = mapping.defaults?.[field];
      if (value === undefined && fallback === undefined) continue;
      traces.push(plainTrace(field, value, input, fallback !== undefined ? 'default' : 'unknown'));
      continue;
    }
    traces.push(ruleTrace(field, rule, value, record, input));
  }
  traces.push(...extensionTraces(input));
  return traces;
}

/** The record as the mapping reads it: a preset's `derive` (BLM, OpenImmo) runs first. */
function derived(input: TraceInput): RawFields {
  const { feed, record } = input;
  const derive = feed.mapping.preset ? PRESET_HOOKS[feed.mapping.preset]?.derive : undefined;
  if (!derive) return record;
  return derive(record, { mediaBaseUrl: feed.source.mediaBaseUrl ?? feed.mapping.baseUrl });
}

/** Who wrote a field's rule: the feed's own mapping, its preset, or the CSV header it was inferred from. */
function originOf(field: ListingField, feed: FeedConfig): string {
  const own = feed.mapping.fields?.[field];
  if (own !== undefined && own !== null) return 'config';
  const { preset } = feed.mapping;
  if (preset && preset !== 'mls-csv') return `preset ${preset}`;
  return 'inferred from the CSV header';
}

function ruleTrace(
  field: ListingField,
  rule: SingleRule | SingleRule[],
  value: unknown,
  record: RawFields,
  input: TraceInput,
): FieldTrace {
  const alternatives = Array.isArray(rule) ? rule : [rule];
  const chosen = alternatives.findIndex((alternative) => gives(field, alternative, record, input));
  const origin = originOf(field, input.feed);
  if (chosen === -1) {
    // The rule gave nothing: a default or the marker may have; else say which rule looked where.
    const fallback = input.mapping.defaults?.[field];
    if (value !== undefined && (fallback !== undefined || input.unknown.includes(field)))
      return plainTrace(field, value, input, fallback !== undefined ? 'default' : 'unknown');
    const inputs = alternatives.flatMap((a) => inputsOf(objectOf(a), record));
    const rule = alternatives.map((a) => ruleWords(objectOf(a))).join(', else ');
    const unset = value === undefined ? unsetWhy(alternatives.map(objectOf), record) : undefined;
    return { field, value, origin, rule, inputs, ...(unset ? { unset } : {}) };
  }
  const alternative = objectOf(alternatives[chosen] as SingleRule);
  const inputs =
    KINDS[field] === 'bathrooms' ? bathroomInputs(alternative, record) : inputsOf(alternative, record);
  const trace: FieldTrace = { field, value, origin, rule: ruleWords(alternative), inputs };
  if (alternatives.length > 1) {
    trace.alternative = chosen + 1;
    trace.alternatives = alternatives.length;
  }
  const conversion =
    value === undefined ? undefined : conversionOf(KINDS[field], alternative, inputs, value, input.mapping);
  if (conversion) trace.conversion = conversion;
  return trace;
}

/** A field no rule set: a default of the mapping, the unknown marker, or nothing. */
function plainTrace(
  field: ListingField,
  value: unknown,
  input: TraceInput,
  why: 'default' | 'unknown',
): FieldTrace {
  if (input.unknown.includes(field))
    return {
      field,
      value,
      origin: 'unknown marker',
      inputs: [],
      conversion: 'the feed has no value: 0 means unknown',
    };
  if (why === 'default') {
    const own = input.feed.mapping.defaults?.[field] !== undefined;
    const origin = own ? 'default' : `default of preset ${input.feed.mapping.preset}`;
    const fallback = input.mapping.defaults?.[field];
    const converted = fallback !== undefined && String(fallback) !== String(value);
    return {
      field,
      value,
      origin,
      rule: `defaults.${field}`,
      inputs: [],
      ...(converted ? { conversion: `${JSON.stringify(String(fallback))} → ${String(value)}` } : {}),
    };
  }
  return { field, value, origin: 'computed', inputs: [] };
}

function areaUnitTrace(mapping: MappingConfig, value: unknown): FieldTrace {
  const rule = mapping.areaUnit ? 'mapping.areaUnit' : 'the default unit (mapping.areaUnit unset)';
  return { field: 'AreaUnit', value, origin: 'computed', rule, inputs: [] };
}

/**
 * ExtensionColumn, one trace per entry with a value (`ExtensionColumn[Pool]`): the fact's rule in
 * `extensions.fields` and the paths it read, or the note a rule adds; feed-sync's tags are apart.
 */
function extensionTraces(input: TraceInput): FieldTrace[] {
  const value = input.values.ExtensionColumn;
  if (!Array.isArray(value)) return [];
  const rules = input.mapping.extensions?.fields ?? {};
  const record = derived(input);
  const traces: FieldTrace[] = [];
  for (const entry of value as { Key: string; value: string }[]) {
    if (String(entry.value ?? '').trim() === '') continue;
    const field = extensionField(entry.Key);
    const rule = rules[entry.Key];
    if (rule === undefined || rule === null) {
      const unmapped = input.mapping.extensions?.unmapped === true;
      const inputs = unmapped ? [pathInput(entry.Key, record)].filter((i) => i.value !== undefined) : [];
      traces.push({
        field,
        value: entry.value,
        origin: 'computed',
        rule: unmapped ? 'extensions.unmapped' : 'a note the rules add (a rent period, the source status)',
        inputs,
      });
      continue;
    }
    const paths = typeof rule === 'string' ? [rule] : factPaths(rule);
    const inputs = [...new Set(paths)]
      .map((path) => pathInput(path, record))
      .filter((i) => i.value !== undefined);
    traces.push({
      field,
      value: entry.value,
      origin: extensionOrigin(entry.Key, input.feed),
      rule: describeFact(rule),
      inputs,
    });
  }
  return traces;
}

function extensionOrigin(key: string, feed: FeedConfig): string {
  const own = feed.mapping.extensions?.fields?.[key];
  if (own !== undefined && own !== null) return 'config';
  return feed.mapping.preset ? `preset ${feed.mapping.preset}` : 'computed';
}

/** Why no alternative of a rule gave a value, when a condition is why: `PropertyType is "Residential", not …`. */
function unsetWhy(alternatives: FieldRuleObject[], record: RawFields): string | undefined {
  const failed = alternatives.map((a) => failedConditions(a.when, record).join(' and '));
  if (failed.every((f) => f === '')) return undefined;
  if (alternatives.length === 1) return failed[0];
  return failed.map((f, i) => `alternative ${i + 1}: ${f || 'its paths are empty'}`).join('; ');
}

/** The paths a fact rule reads (`each` list, else `from` paths, `yes` and `count` flags). */
function factPaths(rule: FactRule): string[] {
  if (rule.each !== undefined) return [rule.each];
  const from = rule.from === undefined ? [] : typeof rule.from === 'string' ? [rule.from] : rule.from.flat();
  return [...from, ...Object.keys(rule.yes ?? {}), ...Object.keys(rule.count ?? {})];
}

/** Whether one alternative of a rule, compiled alone, gives the field a value for this record. */
function gives(field: ListingField, alternative: SingleRule, record: RawFields, input: TraceInput): boolean {
  const { mapping } = input;
  const alone: MappingConfig = {
    fields: { [field]: alternative },
    missing: REJECT_MISSING,
    ...(mapping.areaUnit ? { areaUnit: mapping.areaUnit } : {}),
    ...(mapping.decimalComma !== undefined ? { decimalComma: mapping.decimalComma } : {}),
    ...(mapping.maps ? { maps: mapping.maps } : {}),
    ...(mapping.baseUrl ? { baseUrl: mapping.baseUrl } : {}),
    ...(mapping.underContract ? { underContract: mapping.underContract } : {}),
    ...(mapping.maxImages ? { maxImages: mapping.maxImages } : {}),
  };
  const mapped = compileMapping(alone, { now: input.now }).map(record);
  return mapped.listing[field] !== undefined || mapped.remove || mapped.problems.length > 0;
}

function objectOf(rule: SingleRule): FieldRuleObject {
  return typeof rule === 'string' ? { from: rule } : rule;
}

const listOf = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : typeof value === 'string' ? [value] : value;

/**
 * The paths a rule read, with this record's raw value at each: of `from` alternatives the one that
 * was set (the first), of joined or summed paths the set ones; every path when none was set.
 */
function inputsOf(rule: FieldRuleObject, record: RawFields): FieldTrace['inputs'] {
  const read = (paths: string[]) => paths.map((path) => pathInput(path, record));
  const set = (inputs: FieldTrace['inputs']) => inputs.filter((i) => i.value !== undefined);
  const groups: FieldTrace['inputs'][] = [];
  const from = read(listOf(rule.from));
  if (from.length > 0) groups.push(rule.join === undefined ? set(from).slice(0, 1) : set(from));
  for (const paths of [
    listOf(rule.sum),
    rule.template !== undefined ? compileTemplate(rule.template, false).paths : [],
  ])
    if (paths.length > 0) groups.push(set(read(paths)));
  const extras = [
    rule.full,
    rule.half,
    rule.threeQuarter,
    rule.quarter,
    rule.daysSince,
    rule.unitFrom,
    rule.periodFrom,
  ];
  groups.push(set(read(extras.filter((p): p is string => p !== undefined))));
  const inputs = groups.flat();
  if (inputs.length > 0) return dedupe(inputs);
  return dedupe(read([...listOf(rule.from), ...listOf(rule.sum)]));
}

/** Bathrooms read the first `from` (the total), else the counts, else the other `from` paths. */
function bathroomInputs(rule: FieldRuleObject, record: RawFields): FieldTrace['inputs'] {
  const [total, ...rest] = listOf(rule.from);
  const counts = [rule.full, rule.half, rule.threeQuarter, rule.quarter].filter(
    (p): p is string => p !== undefined,
  );
  for (const paths of [total === undefined ? [] : [total], counts, rest]) {
    const set = paths.map((path) => pathInput(path, record)).filter((i) => i.value !== undefined);
    if (set.length > 0) return paths === rest ? set.slice(0, 1) : set;
  }
  return inputsOf(rule, record);
}

function dedupe(inputs: FieldTrace['inputs']): FieldTrace['inputs'] {
  const seen = new Set<string>();
  return inputs.filter((i) => !seen.has(i.path) && seen.add(i.path));
}

function pathInput(path: string, record: RawFields): FieldTrace['inputs'][number] {
  const values = compilePath(path)(record)
    .map((v) => scalarOf(v) ?? v)
    .filter(isSet);
  if (values.length === 0) return { path };
  return { path, value: values.length === 1 ? values[0] : values };
}

/** One alternative of a rule, in words: `"List Price"`, `template "…/{MLS #}"`, `constant "$"`. */
export function ruleWords(rule: FieldRuleObject): string {
  const quoted = (paths: string[]) => paths.map((p) => JSON.stringify(p)).join(' or ');
  const parts: string[] = [];
  if (rule.const !== undefined) parts.push(`constant ${JSON.stringify(rule.const)}`);
  if (rule.template !== undefined) parts.push(`template ${JSON.stringify(rule.template)}`);
  if (rule.from !== undefined)
    parts.push(
      rule.join !== undefined
        ? `${quoted(listOf(rule.from)).replaceAll(' or ', ' + ')} joined`
        : quoted(listOf(rule.from)),
    );
  if (rule.sum !== undefined)
    parts.push(
      `sum of ${listOf(rule.sum)
        .map((p) => JSON.stringify(p))
        .join(' + ')}`,
    );
  if (rule.daysSince !== undefined) parts.push(`days since ${JSON.stringify(rule.daysSince)}`);
  const counts = (['full', 'half', 'threeQuarter', 'quarter'] as const).filter((k) => rule[k] !== undefined);
  if (counts.length > 0)
    parts.push(`counts ${counts.map((k) => `${k} ${JSON.stringify(rule[k])}`).join(', ')}`);
  if (rule.when !== undefined) parts.push(`when ${whenWords(rule.when)}`);
  if (rule.map !== undefined) parts.push('through its own map');
  if (rule.default !== undefined) parts.push(`default ${JSON.stringify(rule.default)}`);
  return parts.join(', ') || JSON.stringify(rule);
}
