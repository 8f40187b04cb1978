import { hash } from 'node:crypto';
import {
  type ExtensionEntry,
  LISTING_FIELDS,
  type Listing,
  photoStampOf,
  propertyReader,
} from '../normalize/index.ts';
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

/**
 * Whether a feed owns a remote listing, by its owner tag: its own id, a former id it adopts
 * (`adoptFrom`: the feed was renamed), or under `ownership: all` no tag at all. The one rule the plan
 * and the snapshot's Sold records both use.
 */
export function ownsListing(
  policy: { feedId: string; ownership: 'tagged' | 'all'; adoptFrom?: readonly string[] },
  owner: string | undefined,
): boolean {
  if (owner === undefined) return policy.ownership === 'all';
  return owner === policy.feedId || (policy.adoptFrom?.includes(owner) ?? false);
}

/** How a field's value is hashed (plain numbers: type stripping has no enums). */
const Hashed = { Value: 0, Coordinate: 1, Images: 2, Extension: 3 } as const;
type Hashed = (typeof Hashed)[keyof typeof Hashed];

/**
 * Each field in the hash's order, with its reader (the key as a literal: literal-access.ts), how
 * it is hashed, and the text that opens it in the hashed string (`Field=`, after a line break but
 * for the first).
 */
const HASHED_FIELDS = [...LISTING_FIELDS].sort().map((field) => ({
  read: propertyReader(field),
  kind: (field === 'ExtensionColumn'
    ? Hashed.Extension
    : field === 'Images'
      ? Hashed.Images
      : field === 'Latitude' || field === 'Longitude'
        ? Hashed.Coordinate
        : Hashed.Value) as Hashed,
  first: `${field}=`,
  next: `\n${field}=`,
}));

/**
 * One field as hashed: text trimmed with whitespace folded, numbers rounded the way the remote keeps
 * them (cents; coordinates to six decimals), so jitter the comparison tolerates does not move the hash.
 */
function hashValue(kind: Hashed, value: unknown): string {
  if (typeof value === 'number') {
    const scale = kind === Hashed.Coordinate ? 1e6 : 100;
    return String(Math.round(value * scale) / scale);
  }
  if (typeof value === 'string') return foldSpaces(value);
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).join('\u0001');
  return String(value);
}

/** The feed's own ExtensionColumn entries (the tags left out), sorted: `Key\0value` joined by \u0001. */
function extensionPart(entries: readonly ExtensionEntry[] | undefined, keys: TagKeys): string {
  if (entries === undefined) return '';
  const parts: string[] = [];
  for (const e of entries)
    if (e.Key !== keys.ownerKey && e.Key !== keys.hashKey) parts.push(`${e.Key}\u0000${e.value}`);
  return parts.length === 1 ? (parts[0] as string) : parts.sort().join('\u0001');
}

/**
 * A short hash of the whole desired record. The list operation never returns AreaUnit or Location,
 * so a change to them could not be seen by comparing fields; the hash, stored beside the owner tag,
 * changes with them. 12 hex digits: collisions between two versions of one listing are negligible.
 * Fields in a fixed order, so the order a mapping produced them in does not matter.
 */
export function recordHash(listing: Listing, keys: TagKeys): string {
  // The bytes hashed must never change, or every listing would be rewritten once after an upgrade
  // (ownership.test.ts pins them). This runs for every listing of every run: the text is gathered
  // as parts and joined once, so the hash reads one flat string.
  const parts: string[] = [];
  // Photos with a stamp are hashed by the stamp (in ExtensionColumn), not by URLs a provider re-signs.
  const stamped = photoStampOf(listing) !== undefined;
  for (const { read, kind, first, next } of HASHED_FIELDS) {
    let part: string;
    if (kind === Hashed.Extension) {
      part = extensionPart(listing.ExtensionColumn, keys);
      if (part === '') continue;
    } else {
      if (stamped && kind === Hashed.Images) continue;
      const value = read(listing);
      if (value === undefined || value === '') continue;
      part = hashValue(kind, value);
    }
    parts.push(parts.length === 0 ? first : next, part);
  }
  return hash('sha256', parts.join(''), 'hex').slice(0, 12);
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
