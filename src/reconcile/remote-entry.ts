import type { RemoteListing } from '../api/index.ts';
import type { Listing } from '../normalize/index.ts';
import { diffListing } from './compare.ts';
import type { DesiredSet } from './desired.ts';
import { fieldsDigest } from './digest.ts';
import { ownerOf, type TagKeys } from './ownership.ts';
import { keyOf, type RemoteEntry } from './plan.ts';
import type { DesiredListing, FieldChange } from './plan-types.ts';

/** No change: one shared array. */
export const SAME: readonly FieldChange[] = Object.freeze([]);

/**
 * What the plan knows of one remote listing (a run keeps the same, in columns: `remoteEntries`).
 * Compared with the feed's listing of the same key by
 * digest first; only when the digests differ is the feed's record read back and compared field by
 * field (`diffListing` decides, so a digest never makes a change up).
 */
export function remoteEntryOf(
  remote: RemoteListing,
  keyField: 'MLSNumber' | 'Url',
  tags: TagKeys,
  desired: { get(key: string): DesiredListing | undefined },
  records: DesiredSet,
): RemoteEntry {
  const key = keyOf(remote.listing, keyField);
  const owner = internOwner(ownerOf(remote.listing, tags));
  const wanted = key === undefined ? undefined : desired.get(key);
  if (wanted === undefined) return { id: remote.id, key, owner };
  const changes = changesAgainst(remote.listing, wanted, records);
  // The feed's copy of the key: the one read from the page is dropped with the page.
  return { id: remote.id, key: wanted.key, owner, changes };
}

/** What an update of `remote` to the feed's listing would change (`SAME` when nothing). */
export function changesAgainst(
  remote: Partial<Listing>,
  wanted: DesiredListing,
  records: DesiredSet,
): readonly FieldChange[] {
  if (fieldsDigest(remote, wanted.mask) === wanted.digest) return SAME;
  const changes = diffListing(records.load(wanted), remote);
  return changes.length === 0 ? SAME : changes;
}

/** Owner tags repeat on every listing of a feed: one string per owner, not one per listing. */
const owners = new Map<string, string>();
export function internOwner(owner: string | undefined): string | undefined {
  if (owner === undefined) return undefined;
  const known = owners.get(owner);
  if (known !== undefined) return known;
  if (owners.size > 10_000) owners.clear();
  owners.set(owner, owner);
  return owner;
}
