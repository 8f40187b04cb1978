import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Listing } from '../normalize/listing-schema.ts';
import { fieldMask, fieldsDigest } from './digest.ts';
import { type TagKeys, withTags } from './ownership.ts';
import type { DesiredListing, ListingBrief } from './plan-types.ts';
import type { RecordStore } from './record-store.ts';

export type { DesiredListing, ListingBrief };

/** What the plan and the writes need of the feed's listings. */
export interface DesiredSet {
  /** The record a planned create or update sends (tags included), read back from the store. */
  load(entry: DesiredListing): Listing;
}

export function briefOf(listing: Listing): ListingBrief {
  return {
    Address: listing.Address,
    City: listing.City,
    Status: listing.Status,
    SaleType: listing.SaleType,
    SalePrice: listing.SalePrice,
    RentPrice: listing.RentPrice,
    CurrencySymbol: listing.CurrencySymbol,
    BuildingArea: listing.BuildingArea,
    AreaUnit: listing.AreaUnit,
  };
}

/**
 * Tag a feed listing (owner tag and record hash), put the tagged record in `store`, and return what
 * the run keeps of it. Called once per valid record while the feed is read.
 */
export function desiredOf(
  listing: Listing,
  key: string,
  feedId: string,
  tags: TagKeys,
  store: RecordStore,
): DesiredListing {
  const tagged = withTags(listing, feedId, tags);
  const mask = fieldMask(tagged);
  return { key, mask, digest: fieldsDigest(tagged, mask), ref: store.put(tagged) };
}

/** Listings digested between two turns of the event loop. */
const CHUNK = 500;

/**
 * `desiredOf` for listings a caller already holds (tests, the bench), giving the event loop a turn
 * every few hundred so the snapshot's pages can be read meanwhile.
 */
export async function desiredListings(
  listings: readonly Listing[],
  keyOf: (listing: Listing) => string,
  feedId: string,
  tags: TagKeys,
  store: RecordStore,
  signal?: AbortSignal,
): Promise<DesiredListing[]> {
  const desired: DesiredListing[] = new Array(listings.length);
  for (let i = 0; i < listings.length; i++) {
    if (i % CHUNK === 0 && i > 0) {
      await yieldToLoop();
      signal?.throwIfAborted();
    }
    const listing = listings[i]!;
    desired[i] = desiredOf(listing, keyOf(listing), feedId, tags, store);
  }
  return desired;
}
