import type { Listing } from './listing-schema.ts';

/**
 * The ExtensionColumn key that carries a listing's photo stamp: the source's own word for "these
 * photos" (RESO `PhotosChangeTimestamp`). Providers such as Trestle sign their media URLs afresh on
 * every read, so URLs cannot say whether the photos changed; where both the feed's listing and the
 * platform's carry the same stamp, the photos are the same and their URLs are not compared.
 */
export const PHOTO_STAMP_KEY = 'feed-sync:photos';

/** The listing's photo stamp, trimmed, or undefined when it carries none. */
export function photoStampOf(listing: Partial<Pick<Listing, 'ExtensionColumn'>>): string | undefined {
  const entries = listing.ExtensionColumn;
  if (!Array.isArray(entries)) return undefined;
  for (const entry of entries) {
    if (String(entry.Key).trim() !== PHOTO_STAMP_KEY) continue;
    const value = String(entry.value ?? '').trim();
    return value === '' ? undefined : value;
  }
  return undefined;
}
