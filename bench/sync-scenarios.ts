import type { Listing } from '../src/normalize/listing-schema.ts';

/** A plausible listing numbered `n`, as ingestion would hand it over. */
export function benchListing(n: number): Listing {
  const mls = `B-${String(n).padStart(6, '0')}`;
  return {
    SaleType: n % 7 === 0 ? 'for_rent' : 'for_sale',
    Status: 'Active',
    CurrencySymbol: '$',
    PropertyType: ['Single Family', 'Condo', 'Townhouse'][n % 3] ?? 'Condo',
    Bedrooms: 1 + (n % 5),
    Bathrooms: 1 + (n % 4) * 0.5,
    Url: `https://bench.example/listing/${mls}`,
    MLSNumber: mls,
    YearBuilt: 1950 + (n % 70),
    DaysOnMarket: n % 90,
    LotArea: 2000 + (n % 9000),
    BuildingArea: 700 + (n % 3000),
    AreaUnit: 'Square Feet',
    ParkingSpots: n % 3,
    Address: `${n} Bench Street`,
    City: 'Loadtown',
    State: 'CA',
    ZIP: String(90000 + (n % 999)),
    Latitude: 34 + (n % 1000) / 1000,
    Longitude: -118 - (n % 1000) / 1000,
    ...(n % 7 === 0 ? { RentPrice: 1500 + (n % 40) * 25 } : { SalePrice: 300_000 + (n % 500) * 1000 }),
    Images: [`https://img.bench.example/${mls}/1.jpg`],
    Description: `Bench listing ${n}.`,
  };
}

export function initialFeed(count: number): Listing[] {
  return Array.from({ length: count }, (_, i) => benchListing(i + 1));
}

/**
 * The feed with 5% changed: 4% new prices, 0.5% gone, 0.5% new. The deletes stay far below the
 * default maxDeleteShare, as a real next-day feed would.
 */
export function changedFeed(count: number): Listing[] {
  const gone = Math.round(count * 0.005);
  const priced = Math.round(count * 0.04);
  const kept = initialFeed(count).slice(0, count - gone);
  const changed = kept.map((l, i) =>
    i % Math.floor(kept.length / priced) === 0 && i / Math.floor(kept.length / priced) < priced
      ? {
          ...l,
          ...(l.SalePrice === undefined
            ? { RentPrice: (l.RentPrice ?? 0) + 50 }
            : { SalePrice: (l.SalePrice ?? 0) - 5000 }),
        }
      : l,
  );
  const added = Array.from({ length: gone }, (_, i) => benchListing(count + i + 1));
  return [...changed, ...added];
}

/** Calls per operation, as a run report counts them. */
export interface CallCounts {
  list: number;
  create: number;
  update: number;
  delete: number;
}

/**
 * The fewest calls that take a chatbot holding exactly `before` (tagged by its feed) to `after`,
 * counted from the feeds themselves rather than from a run: every page of the remote read once
 * (one call for an empty chatbot), one create per new key, one update per changed listing, deletes
 * in batches of `deleteBatchSize`.
 */
export function minimumCalls(
  before: readonly Listing[],
  after: readonly Listing[],
  pageSize: number,
  deleteBatchSize = 100,
): CallCounts {
  const old = new Map(before.map((l) => [l.MLSNumber, JSON.stringify(l)]));
  const keys = new Set(after.map((l) => l.MLSNumber));
  let create = 0;
  let update = 0;
  for (const listing of after) {
    const was = old.get(listing.MLSNumber);
    if (was === undefined) create++;
    else if (was !== JSON.stringify(listing)) update++;
  }
  const gone = before.filter((l) => !keys.has(l.MLSNumber)).length;
  return {
    list: Math.max(1, Math.ceil(before.length / pageSize)),
    create,
    update,
    delete: Math.ceil(gone / deleteBatchSize),
  };
}
