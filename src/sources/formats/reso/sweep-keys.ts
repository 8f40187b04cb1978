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
} {
  // The run's clock: a mapping may count days (`daysSince`), though a key rule hardly does.
  const compiled = compileMapping(feed.mapping, { now });
  const field = feed.key ?? 'MLSNumber';
  const rule = compiled.mapping.fields?.[field];
  const select = new Set(['ListingKey', ...pathsOf(rule)]);
  return {
    select: [...select],
    keyOf(fields) {
      const value = compiled.map(fields).listing[field];
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
    },
  };
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
