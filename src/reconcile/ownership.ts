import { hash } from 'node:crypto';
import { type ExtensionEntry, LISTING_FIELDS, type Listing, propertyReader } from '../normalize/index.ts';
import { foldSpaces } from './white-space.ts';

export const DEFAULT_HASH_KEY = 'feed-sync:hash';

/** The ExtensionColumn keys feed-sync writes itself. */
export interface TagKeys {
  ownerKey: string;
  hashKey: string;
}

/** Who owns a remote listing: the value of its owner tag, or undefined when untagged (added by hand). */
export function ownerOf(listing: Partial<Listing>, keys: TagKeys): string | undefined {
  const entry = listing.ExtensionColumn?.find((e) => e.Key.trim() === keys.ownerKey);
  const value = entry?.value.trim();
  return value ? value : undefined;
}

/** Each field with its reader (the key as a literal: literal-access.ts), in the hash's order. */
const SORTED_FIELDS = [...LISTING_FIELDS].sort().map((field) => [field, propertyReader(field)] as const);
const COORDINATES = new Set<string>(['Latitude', 'Longitude']);

/**
 * One field as hashed: text trimmed with whitespace folded, numbers rounded the way the remote keeps
 * them (cents; coordinates to six decimals), so jitter the comparison tolerates does not move the hash.
 */
function hashValue(field: string, value: unknown): string {
  if (typeof value === 'number') {
    const scale = COORDINATES.has(field) ? 1e6 : 100;
    return String(Math.round(value * scale) / scale);
  }
  if (typeof value === 'string') return foldSpaces(value);
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).join('\u0001');
  return String(value);
}

/**
 * A short hash of the whole desired record. The list operation never returns AreaUnit or Location,
 * so a change to them could not be seen by comparing fields; the hash, stored beside the owner tag,
 * changes with them. 12 hex digits: collisions between two versions of one listing are negligible.
 * Fields in a fixed order, so the order a mapping produced them in does not matter.
 */
export function recordHash(listing: Listing, keys: TagKeys): string {
  // One string and a one-shot digest: this runs for every listing of every run. The bytes hashed
  // must never change, or every listing would be rewritten once after an upgrade.
  let text = '';
  for (const [field, read] of SORTED_FIELDS) {
    let part: string;
    if (field === 'ExtensionColumn') {
      const entries = (listing.ExtensionColumn ?? [])
        .filter((e) => e.Key !== keys.ownerKey && e.Key !== keys.hashKey)
        .map((e) => `${e.Key}\u0000${e.value}`)
        .sort();
      if (entries.length === 0) continue;
      part = entries.join('\u0001');
    } else {
      const value = read(listing);
      if (value === undefined || value === '') continue;
      part = hashValue(field, value);
    }
    text = text === '' ? `${field}=${part}` : `${text}\n${field}=${part}`;
  }
  return hash('sha256', text, 'hex').slice(0, 12);
}

/** The record feed-sync sends: the feed's listing plus the owner tag and the record hash. */
export function withTags(listing: Listing, feedId: string, keys: TagKeys): Listing {
  const { ownerKey, hashKey } = keys;
  const kept: ExtensionEntry[] = (listing.ExtensionColumn ?? []).filter(
    (e) => e.Key !== ownerKey && e.Key !== hashKey,
  );
  const tags: ExtensionEntry[] = [
    { Key: keys.ownerKey, value: feedId },
    { Key: keys.hashKey, value: recordHash(listing, keys) },
  ];
  return { ...listing, ExtensionColumn: [...kept, ...tags] };
}
