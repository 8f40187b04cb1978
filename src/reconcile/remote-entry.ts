import type { Listing } from '../normalize/index.ts';
import { clearsOf, diffListing } from './compare.ts';
import type { DesiredLoader } from './desired.ts';
import { fieldsDigest } from './digest.ts';
import type { DesiredListing, FieldChange } from './plan-types.ts';

/** No change: one shared array. */
export const SAME: readonly FieldChange[] = Object.freeze([]);
/** The one change of a listing whose feed record the run did not read: how it differs is not known. */
export const UNREAD_FIELD = '(unknown: the feed record was not read)';
/**
 * The changes of a listing whose feed record the run did not read (`DesiredLoader.unread`): how it
 * differs is not known. Its `from` is the platform's listing, so that once the record is read (a
 * reused reading's `fillReading`) the listing is compared again without its page (`isUnread`,
 * `Columns.compareUnread`).
 */
export function unreadAgainst(remote: Partial<Listing>): readonly FieldChange[] {
  return [{ field: UNREAD_FIELD, from: remote, to: undefined }];
}

/** Whether changes are a listing's compared without its feed record (`unreadAgainst`). */
export function isUnread(changes: readonly FieldChange[] | undefined): boolean {
  return changes?.length === 1 && changes[0]?.field === UNREAD_FIELD;
}

/**
 * What an update of `remote` to the feed's listing would change (`SAME` when nothing). `differs`:
 * the caller knows the digest of `remote` under the feed's mask differs (the decode thread's, where
 * the two masks are the same), so it is not computed again. `clearable`: the fields a value the
 * platform holds is cleared in where the feed's listing leaves them unset (`diffListing`).
 */
export function changesAgainst(
  remote: Partial<Listing>,
  wanted: DesiredListing,
  loader: DesiredLoader,
  differs = false,
  clearable = 0,
): readonly FieldChange[] {
  if (!differs && fieldsDigest(remote, wanted.mask) === wanted.digest) {
    // Equal where the feed sets fields: what is left is what the platform holds where it sets none,
    // read off the platform's listing alone (a reused reading holds no record to load).
    const clears = clearsOf(remote, clearable & ~wanted.mask);
    return clears.length === 0 ? SAME : clears;
  }
  // A record the run did not read (its feed reading reused): it differs, how is not known. A plan
  // that writes it makes the run read the feed (`ReadingNeedsRecords`); one that does not (another
  // feed's listing, a held key) needs no more.
  if (loader.unread?.(wanted)) return unreadAgainst(remote);
  const changes = diffListing(loader.load(wanted), remote, clearable);
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
