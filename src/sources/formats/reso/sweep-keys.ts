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
  /** The source field the key is first read from, when the rule reads fields (not a template). */
  field: string | undefined;
  /** Whether a record says its listing left the market (a removal status, a deletion marker). */
  isRemoval(fields: RawFields): boolean;
} {
  // The run's clock: a mapping may count days (`daysSince`), though a key rule hardly does.
  const compiled = compileMapping(feed.mapping, { now });
  const field = feed.key ?? 'MLSNumber';
  const rule = compiled.mapping.fields?.[field];
  const select = new Set(['ListingKey', ...pathsOf(rule)]);
  const first = firstPathOf(rule);
  return {
    select: [...select],
    field: first,
    isRemoval: (fields) => compiled.map(fields).remove,
    keyOf(fields) {
      const value = compiled.map(fields).listing[field];
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
    },
  };
}

/** The source field a rule reads first, when it reads fields: `ListingId` of `{ from: [ListingId, ListingKey] }`. */
function firstPathOf(rule: unknown): string | undefined {
  if (typeof rule === 'string') return /^[A-Za-z_][\w]*$/.test(rule) ? rule : undefined;
  if (Array.isArray(rule)) return firstPathOf(rule[0]);
  if (!rule || typeof rule !== 'object') return undefined;
  const { from, template } = rule as { from?: unknown; template?: unknown };
  return template === undefined ? firstPathOf(from) : undefined;
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
