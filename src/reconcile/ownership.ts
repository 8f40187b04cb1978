import { createHash } from 'node:crypto';
import type { ExtensionEntry, Listing } from '../normalize/listing-schema.ts';

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

export function hashOf(listing: Partial<Listing>, keys: TagKeys): string | undefined {
  return listing.ExtensionColumn?.find((e) => e.Key.trim() === keys.hashKey)?.value.trim();
}

/**
 * JSON with sorted object keys, trimmed text and numbers rounded the way the remote keeps them
 * (cents; coordinates to six decimals), so jitter the comparison tolerates does not move the hash.
 */
function stableJson(value: unknown, field = ''): string {
  if (Array.isArray(value)) return `[${value.map((v) => stableJson(v)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined && v !== '')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v, k)}`).join(',')}}`;
  }
  if (typeof value === 'number') {
    const scale = field === 'Latitude' || field === 'Longitude' ? 1e6 : 100;
    return String(Math.round(value * scale) / scale);
  }
  if (typeof value === 'string') return JSON.stringify(value.trim().replace(/\s+/g, ' '));
  return JSON.stringify(value);
}

/**
 * A short hash of the whole desired record. The list operation never returns AreaUnit or Location,
 * so a change to them could not be seen by comparing fields; the hash, stored beside the owner tag,
 * changes with them. 12 hex digits: collisions between two versions of one listing are negligible.
 */
export function recordHash(listing: Listing, keys: TagKeys): string {
  const ours = new Set([keys.ownerKey, keys.hashKey]);
  const extension = (listing.ExtensionColumn ?? [])
    .filter((e) => !ours.has(e.Key))
    .map((e) => `${e.Key}\u0000${e.value}`)
    .sort();
  const body = stableJson({ ...listing, ExtensionColumn: extension });
  return createHash('sha256').update(body).digest('hex').slice(0, 12);
}

/** The record feed-sync sends: the feed's listing plus the owner tag and the record hash. */
export function withTags(listing: Listing, feedId: string, keys: TagKeys): Listing {
  const ours = new Set([keys.ownerKey, keys.hashKey]);
  const kept: ExtensionEntry[] = (listing.ExtensionColumn ?? []).filter((e) => !ours.has(e.Key));
  const tags: ExtensionEntry[] = [
    { Key: keys.ownerKey, value: feedId },
    { Key: keys.hashKey, value: recordHash(listing, keys) },
  ];
  return { ...listing, ExtensionColumn: [...kept, ...tags] };
}
