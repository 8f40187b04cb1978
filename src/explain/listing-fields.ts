import type { ListingField } from '../normalize/index.ts';
import { leavesUnset } from '../reconcile/index.ts';
import type { Classification, ListingPart, PlatformRecord } from './types.ts';

/**
 * A listing's fields as explain shows them: each ExtensionColumn entry a field of its own
 * (`ExtensionColumn[Pool]`, the name a plan's change carries), so that a fact is one line, beside
 * the feed's value of the same fact. Entries with an empty value are left out. Pure.
 */
export function fieldsOf(listing: Record<string, unknown>): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [field, value] of Object.entries(listing)) {
    if (value === undefined) continue;
    if (field === 'ExtensionColumn' && Array.isArray(value)) {
      for (const entry of value as { Key?: unknown; value?: unknown }[])
        if (typeof entry?.Key === 'string' && String(entry.value ?? '').trim() !== '')
          out.push([extensionField(entry.Key), entry.value]);
      continue;
    }
    out.push([field, value]);
  }
  return out;
}

/** `ExtensionColumn[Pool]`: one ExtensionColumn entry as a field (as `compare` names its changes). */
export const extensionField = (key: string) => `ExtensionColumn[${key}]`;

/**
 * The fields a platform listing has that the feed's valid record leaves unset and a sync keeps: a
 * field the feed sets on none of its listings (or every field, under `unsetFields: keep`); one the
 * plan changes (`classification`: its update's changes, a replace's clears) is not kept (docs/reconcile.md,
 * "A value the feed stops sending"). A number 0 is not a value to clear. An ExtensionColumn entry
 * is not one: the feed's entries are sent, and compared, as a whole. Pure.
 */
export function keptOnPlatform(
  listing: ListingPart | undefined,
  record: PlatformRecord,
  classification: readonly Classification[] = [],
): string[] {
  if (listing?.status !== 'valid') return [];
  // The unknown marker 0 (a year the format does not carry) sets nothing: a value typed in stays.
  const set = new Set(
    listing.fields.filter((f) => !leavesUnset(f.field as ListingField, f.value)).map((f) => f.field),
  );
  // What the plan changes is not kept: a clear, or a marker 0 the feed sets the field to.
  const cleared = new Set(
    classification.flatMap((c) =>
      c.kind === 'update' && c.id === record.id ? c.changes.map((f) => f.field) : [],
    ),
  );
  return fieldsOf(record.listing)
    .filter(([field, value]) => !leavesUnset(field as ListingField, value))
    .map(([field]) => field)
    .filter((field) => !field.startsWith('ExtensionColumn') && !set.has(field) && !cleared.has(field));
}

/** Whether the plan keeps listing `id` as the feed's (updates it or finds it in sync): not a duplicate it deletes. */
export function keptAsFeeds(classification: readonly Classification[], id: number): boolean {
  return classification.some((c) => (c.kind === 'update' || c.kind === 'unchanged') && c.id === id);
}
