import type { Listing } from '../normalize/index.ts';
import { ownFields } from './digest.ts';
import { type TagKeys, withTags } from './ownership.ts';
import type { DesiredListing, ListingBrief, Plan, StoreRef } from './plan-types.ts';
import { PlannedCreates } from './planned-creates.ts';
import { PlannedUpdates } from './planned-updates.ts';
import type { RecordStore } from './record-store.ts';

export type { DesiredListing, ListingBrief };

/** What the plan and the writes need of the feed's listings. */
export interface DesiredLoader {
  /** The record a planned create or update sends (tags included), read back from the store. */
  load(entry: StoreRef): Listing;
  /**
   * The same record as the JSON text the store kept it in, where that text is what `load` returns
   * (not a memo's raw fields): a create sends it as it is (`createListingJson`).
   */
  json?(entry: StoreRef): string | undefined;
  /** Whether the run holds no record for this entry (its feed reading was reused): `load` would throw. */
  unread?(entry: StoreRef): boolean;
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
  const { mask, digest } = ownFields(tagged);
  return { key, mask, digest, ref: store.put(tagged) };
}

/** Creates and updates described in detail (a brief) unless a run asks for more (`plan --all`). */
export const BRIEFS_KEPT = 1000;

/**
 * The plan with a brief (place, price, units) on its first `count` creates and first `count`
 * updates, read back from the run's records: what plans and reports show of a write. The others
 * carry only their key, so a plan of 300k creates holds no 300k briefs.
 */
export function withBriefs(plan: Plan, loader: DesiredLoader, count = BRIEFS_KEPT): Plan {
  const described = <T extends { desired: StoreRef }>(writes: T[]): T[] =>
    writes.map((w, i) => (i < count ? { ...w, brief: briefOf(loader.load(w.desired)) } : w));
  const briefAt = (ref: number) => briefOf(loader.load({ ref }));
  const creates =
    plan.creates instanceof PlannedCreates
      ? plan.creates.withBriefs(count, briefAt)
      : described([...plan.creates]);
  const updates =
    plan.updates instanceof PlannedUpdates
      ? plan.updates.withBriefs(count, briefAt)
      : described([...plan.updates]);
  return { ...plan, creates, updates };
}
