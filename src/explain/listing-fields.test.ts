import { describe, expect, it } from 'vitest';
import { keptOnPlatform } from './listing-fields.ts';
import type { FieldTrace, ListingPart } from './types.ts';

const part = (values: Record<string, unknown>): ListingPart => ({
  status: 'valid',
  fields: Object.entries(values).map(([field, value]) => ({ field, value }) as FieldTrace),
  problems: [],
  unknown: [],
  tags: [],
});

describe('keptOnPlatform', () => {
  it('counts a value typed in where the feed gives the unknown marker 0 as kept, and a platform 0 as nothing', () => {
    const feed = part({ City: 'Springfield', YearBuilt: 0, ParkingSpots: 0, LotArea: 0 });
    const platform = {
      id: 7,
      listing: { City: 'Springfield', YearBuilt: 1995, ParkingSpots: 0, SalePrice: 1 },
    };
    expect(keptOnPlatform(feed, platform)).toEqual(['YearBuilt', 'SalePrice']);
  });

  it('does not count a field the plan changes: a marker 0 the feed sets it to, or a clear', () => {
    const feed = part({ City: 'Springfield', YearBuilt: 0 });
    const platform = { id: 7, listing: { City: 'Springfield', YearBuilt: 1995, SalePrice: 1 } };
    const update = {
      kind: 'update' as const,
      id: 7,
      changes: [
        { field: 'YearBuilt', from: 1995, to: 0 },
        { field: 'SalePrice', from: 1, to: undefined },
      ],
    };
    expect(keptOnPlatform(feed, platform, [update as never])).toEqual([]);
  });
});
