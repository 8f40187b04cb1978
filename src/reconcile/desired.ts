import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Listing } from '../normalize/index.ts';
import { fieldMask, fieldsDigest } from './digest.ts';
import { type TagKeys, withTags } from './ownership.ts';
import type { DesiredListing, KeptRecord, ListingBrief, Plan } from './plan-types.ts';
import type { RecordStore } from './record-store.ts';

export type { DesiredListing, ListingBrief };

/** What the plan and the writes need of the feed's listings. */
export interface DesiredSet {
  /** The record a planned create or update sends (tags included), read back from the store. */
  load(entry: KeptRecord): Listing;
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

/** Creates and updates described in detail (a brief) unless a run asks for more (`plan --all`). */
export const BRIEFS_KEPT = 1000;

/**
 * The plan with a brief (place, price, units) on its first `count` creates and first `count`
 * updates, read back from the run's records: what plans and reports show of a write. The others
 * carry only their key, so a plan of 300k creates holds no 300k briefs.
 */
export function withBriefs(plan: Plan, records: DesiredSet, count = BRIEFS_KEPT): Plan {
  const described = <T extends { desired: KeptRecord }>(writes: T[]): T[] =>
    writes.map((w, i) => (i < count ? { ...w, brief: briefOf(records.load(w.desired)) } : w));
  return { ...plan, creates: described(plan.creates), updates: described(plan.updates) };
}
