import { compileMapping, type RawFields } from '../../../normalize/index.ts';
import type { FeedSpec } from '../../source-types.ts';

/**
 * How a key sweep reads a listing's key (`MLSNumber` or `Url`) from a record of a few fields: the
 * feed's own mapping, so the sweep finds exactly the keys its listings carry, and the source fields
 * that rule reads, for the sweep's `$select`.
 */
export function sweepKeyReader(
  feed: FeedSpec,
  now: Date,
): {
  select: string[];
  keyOf(fields: RawFields): string | undefined;
  /**
   * The source fields the key is read from as they are (`from: [ListingId, ListingKey]`), for a
   * query by key; empty when the rule makes the key (a template, a map, a join).
   */
  fields: string[];
  /** Whether a record says its listing left the market (a removal status, a deletion marker). */
  isRemoval(fields: RawFields): boolean;
} {
  // The run's clock: a mapping may count days (`daysSince`), though a key rule hardly does.
  const compiled = compileMapping(feed.mapping, { now });
  const field = feed.key ?? 'MLSNumber';
  const rule = compiled.mapping.fields?.[field];
  const select = new Set(['ListingKey', ...pathsOf(rule)]);
  return {
    select: [...select],
    fields: plainPathsOf(rule),
    isRemoval: (fields) => compiled.map(fields).remove,
    keyOf(fields) {
      const value = compiled.map(fields).listing[field];
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
    },
  };
}

/** The fields a rule reads as they are: `[ListingId, ListingKey]` of `{ from: [ListingId, ListingKey] }`. */
function plainPathsOf(rule: unknown): string[] {
  const field = (path: unknown) => typeof path === 'string' && /^[A-Za-z_]\w*$/.test(path);
  if (typeof rule === 'string') return field(rule) ? [rule] : [];
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) return [];
  const { from, ...rest } = rule as { from?: unknown };
  // Only `from` (and `when`/`default`, which pick no other text): a map or a join makes another key.
  if (Object.keys(rest).some((k) => k !== 'when' && k !== 'default')) return [];
  const paths = Array.isArray(from) ? from : [from];
  return paths.every(field) ? (paths as string[]) : [];
}

/** The top-level source fields a field rule reads: its paths, alternatives and template placeholders. */
function pathsOf(rule: unknown): string[] {
  if (typeof rule === 'string') return [head(rule)];
  if (Array.isArray(rule)) return rule.flatMap(pathsOf);
  if (!rule || typeof rule !== 'object') return [];
  const { from, template } = rule as { from?: unknown; template?: unknown };
  const paths = pathsOf(from);
  if (typeof template === 'string')
    for (const match of template.matchAll(/\{([^}]+)\}/g)) paths.push(head(match[1]!));
  return paths;
}

const head = (path: string) => path.split('.')[0]!.replace(/^@/, '');
