import {
  type FieldKind,
  type FieldRuleObject,
  type MappingConfig,
  normalizeAreaUnit,
} from '../normalize/index.ts';
import type { FieldTrace } from './types.ts';

/**
 * What the mapping did to a raw value, in a few words: `money`, `area sqft → Square Feet`,
 * `"Pending" → Active`, `× 0.01`, `per year → per month`. Undefined when the value went through as
 * it was read. Pure; worded from the rule, the inputs and the result, never by running the mapping.
 */
export function conversionOf(
  kind: FieldKind,
  rule: FieldRuleObject,
  inputs: FieldTrace['inputs'],
  value: unknown,
  mapping: MappingConfig,
): string | undefined {
  const raw = inputs.find((i) => i.value !== undefined)?.value;
  const parts: string[] = [];
  if (rule.const !== undefined && (kind === 'enum' || kind === 'currency') && String(rule.const) !== value)
    return `${JSON.stringify(String(rule.const))} → ${String(value)}`;
  if (rule.const !== undefined || rule.template !== undefined) return undefined;
  switch (kind) {
    case 'money':
    case 'number':
      if (rule.daysSince !== undefined) parts.push('whole days to the day of the run');
      else if (rule.sum !== undefined) parts.push('sum');
      else if (typeof raw === 'string' && String(value) !== raw.trim()) parts.push(kind);
      if (rule.period !== undefined || rule.periodFrom !== undefined) parts.push('per month');
      break;
    case 'area': {
      const target = mapping.areaUnit ?? 'Square Feet';
      const unitText = rule.unitFrom
        ? inputs.find((i) => i.path === rule.unitFrom)?.value
        : (rule.unit ?? suffixOf(raw));
      const unit = typeof unitText === 'string' ? normalizeAreaUnit(unitText) : undefined;
      parts.push(unit ? `area ${unit} → ${target}` : `area in ${target}`);
      break;
    }
    case 'bathrooms':
      if (inputs.some((i) => [rule.full, rule.half, rule.threeQuarter, rule.quarter].includes(i.path)))
        parts.push('full + ½ half + ¾ three-quarter + ¼ quarter');
      else if (typeof raw === 'string' && String(value) !== raw.trim()) parts.push('number');
      break;
    case 'enum':
    case 'currency':
      if (raw !== undefined && value !== undefined && String(raw).trim() !== String(value))
        parts.push(`${JSON.stringify(String(raw).trim())} → ${String(value)}`);
      break;
    case 'images':
      if (Array.isArray(value)) parts.push(`${value.length} image URL${value.length === 1 ? '' : 's'}`);
      if (rule.split !== undefined) parts.push(`split on ${JSON.stringify(rule.split)}`);
      break;
    case 'url':
      if (typeof raw === 'string' && raw.trim() !== value)
        parts.push(`resolved against ${mapping.baseUrl ?? 'https:'}`);
      break;
    case 'string':
      if (rule.html) parts.push('HTML to text');
      break;
  }
  if (rule.scale !== undefined && rule.scale !== 1) parts.push(`× ${rule.scale}`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** `1,200 sqft` → `sqft`: the unit written after an area's number. */
function suffixOf(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const match = /[\d.,]\s*([^\d\s.,][^\d]*)$/.exec(raw.trim());
  return match?.[1]?.trim();
}
