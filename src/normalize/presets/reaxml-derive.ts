import { yesNo } from '../compile-facts.ts';
import { type RawFields, scalarOf } from '../field-path.ts';
import type { PresetHooks } from './preset-hook-types.ts';

/** REAXML `<pool type="…">` values in words. */
const POOL_TYPES: Readonly<Record<string, string>> = {
  inground: 'in-ground',
  aboveground: 'above-ground',
};

const object = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

/**
 * The `$`-fields the `reaxml` preset reads: `$pool`, the older `<pool>` element in words. It says
 * yes or no in its text and the kind in its `type` (`<pool type="inground">yes</pool>`): the kind
 * when it says yes (`in-ground`), `yes` without one, nothing when it says no (REAXML's no is "not
 * stated").
 */
export function deriveReaxmlFields(fields: RawFields): RawFields {
  const pool = object(fields.features)?.pool;
  if (pool === undefined) return fields;
  if (yesNo(scalarOf(pool)) !== 'yes') return fields;
  const type = String(object(pool)?.['@type'] ?? '').trim();
  const words = POOL_TYPES[type.toLowerCase().replace(/[\s_-]+/g, '')] ?? (type === '' ? 'yes' : type);
  return { ...fields, $pool: words };
}

export const reaxmlHooks: PresetHooks = { derive: deriveReaxmlFields };
