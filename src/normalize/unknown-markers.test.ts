import { describe, expect, it } from 'vitest';
import { compileMapping } from './compile-mapping.ts';
import type { MappingConfig } from './mapping-schema.ts';
import { hasNoRooms } from './unknown-markers.ts';
import { validateListing } from './validate-listing.ts';

/** A feed that carries only what every feed has: key, URL, status, type, price. */
const thin: MappingConfig = {
  fields: {
    MLSNumber: 'id',
    Url: { template: 'https://acme.example/l/{id}' },
    Status: { const: 'Active' },
    SaleType: { const: 'for_sale' },
    PropertyType: 'type',
    CurrencySymbol: { const: 'USD' },
    SalePrice: 'price',
    Bedrooms: 'beds',
    Bathrooms: 'baths',
    YearBuilt: 'year',
  },
};
const run = (record: Record<string, unknown>, mapping: MappingConfig = thin) => {
  const mapped = compileMapping(mapping).map(record, true);
  return { mapped, result: validateListing(mapped) };
};

describe('the unknown marker for required fields a record lacks', () => {
  it('fills sizes, year, days and parking with 0 and names them, never a plausible value', () => {
    const { mapped, result } = run({ id: 'A', type: 'House', price: '1', beds: '3', baths: '2' });
    expect(result.ok && result.listing).toMatchObject({
      YearBuilt: 0,
      LotArea: 0,
      BuildingArea: 0,
      DaysOnMarket: 0,
      ParkingSpots: 0,
      Bedrooms: 3,
    });
    expect(mapped.unknown).toEqual(['LotArea', 'BuildingArea', 'YearBuilt', 'DaysOnMarket', 'ParkingSpots']);
  });

  it.each([
    ['House', false],
    ['Condo', false],
    ['Land', true],
    ['Vacant Land', true],
    ['Lots and Land', true],
    ['Commercial Land', true],
    ['Parking Space', true],
    ['Office', true],
    ['UnimprovedLand', true],
    ['Island Cottage', false],
    ['Highland Villa', false],
  ])('counts rooms of a %s only when the feed gives them (no rooms: %s)', (type, roomless) => {
    expect(hasNoRooms(type)).toBe(roomless);
    const { result } = run({ id: 'A', type, price: '1' });
    if (roomless) expect(result.ok && result.listing).toMatchObject({ Bedrooms: 0, Bathrooms: 0 });
    else
      expect(!result.ok && result.problems.map((p) => [p.field, p.reason])).toEqual([
        ['Bedrooms', 'missing'],
        ['Bathrooms', 'missing'],
      ]);
  });

  it('never marks the key, URL, sale type or status: those are rejected as missing', () => {
    const mapping: MappingConfig = { ...thin, fields: { ...thin.fields, Status: 'status' } };
    const { result } = run({ type: 'Land' }, mapping);
    expect(!result.ok && result.problems.map((p) => p.field)).toEqual(
      expect.arrayContaining(['MLSNumber', 'Url', 'Status']),
    );
  });

  it('follows the per-field policy: reject a missing year, mark missing bedrooms of a house', () => {
    const mapping: MappingConfig = { ...thin, missing: { YearBuilt: 'reject', Bedrooms: 'unknown' } };
    const { result } = run({ id: 'A', type: 'House', price: '1', baths: '1' }, mapping);
    expect(!result.ok && result.problems).toEqual([
      expect.objectContaining({ field: 'YearBuilt', reason: 'missing' }),
    ]);
    const { mapped } = run({ id: 'A', type: 'House', price: '1', baths: '1', year: '1990' }, mapping);
    expect(mapped.listing.Bedrooms).toBe(0);
    expect(mapped.unknown).toContain('Bedrooms');
  });

  it('keeps a broken value a rejection, and takes a feed’s own YearBuilt 0 as the marker', () => {
    const broken = run({ id: 'A', type: 'House', price: '1', beds: '1', baths: '1', year: 'old' });
    expect(!broken.result.ok && broken.result.problems[0]).toMatchObject({
      field: 'YearBuilt',
      reason: 'not_a_number',
    });
    const zero = run({ id: 'A', type: 'House', price: '1', beds: '1', baths: '1', year: '0' });
    expect(zero.result.ok).toBe(true);
    expect(zero.mapped.unknown).toContain('YearBuilt');
    const old = run({ id: 'A', type: 'House', price: '1', beds: '1', baths: '1', year: '1066' });
    expect(!old.result.ok && old.result.problems[0]).toMatchObject({
      field: 'YearBuilt',
      reason: 'out_of_range',
    });
  });
});
