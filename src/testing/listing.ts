import type { Listing } from '../normalize/index.ts';

/**
 * The one listing builder of the tests: a valid listing numbered `n`, every value derived from `n`
 * (MLS numbers `MLS-0001`…, URLs, prices, areas, coordinates), so listings built apart compare
 * equal and differ where their numbers do. `overrides` replace fields (`undefined` removes one).
 */
export function listing(n: number, overrides: Partial<Listing> = {}): Listing {
  const mls = `MLS-${String(n).padStart(4, '0')}`;
  return {
    SaleType: 'for_sale',
    Status: 'Active',
    CurrencySymbol: '$',
    PropertyType: 'Single Family',
    Bedrooms: 3,
    Bathrooms: 2.5,
    Url: `https://homes.example/listing/${mls}`,
    MLSNumber: mls,
    YearBuilt: 1990 + (n % 30),
    DaysOnMarket: n % 60,
    LotArea: 5000 + n,
    BuildingArea: 1800 + n,
    AreaUnit: 'Square Feet',
    ParkingSpots: 2,
    Address: `${n} Main St`,
    City: 'Springfield',
    State: 'IL',
    ZIP: '62701',
    Latitude: 39.78 + n / 10_000,
    Longitude: -89.65 - n / 10_000,
    SalePrice: 250_000 + n * 1000 + 0.33,
    Images: [`https://img.example/${mls}/1.jpg`, `https://img.example/${mls}/2.jpg`],
    Description: `A fine home, number ${n}.`,
    ...overrides,
  };
}

/** Listings `from` to `to`, both included. */
export function listings(from: number, to: number): Listing[] {
  return Array.from({ length: to - from + 1 }, (_, i) => listing(from + i));
}
