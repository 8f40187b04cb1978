import { describe, expect, it } from 'vitest';
import { toListRecord } from './list-record.ts';
import type { StoredListing } from './listing-store.ts';

const base: StoredListing = {
  ID: 7,
  SerialNumber: 'bot-1',
  SaleType: 'for_sale',
  Status: 'Active',
  CurrencySymbol: '$',
  PropertyType: 'Single Family',
  Bedrooms: 3,
  Bathrooms: 2.5,
  Url: 'https://example.test/listing/7',
  MLSNumber: 'MLS-7',
  YearBuilt: 1998,
  DaysOnMarket: 12,
  LotArea: 5400,
  BuildingArea: 1850,
  AreaUnit: 'Square Feet',
  ParkingSpots: 2,
};

describe('toListRecord', () => {
  it('returns numbers as strings, unset values as "", SaleType in display form', () => {
    const record = toListRecord({ ...base, SalePrice: 1250000 });
    expect(record).toMatchObject({
      ID: 7,
      SaleType: 'For Sale',
      Bedrooms: '3',
      Bathrooms: '2.5',
      YearBuilt: '1998',
      LotArea: '5400',
      BuildingArea: '1850',
      Area: '1850',
      ParkingSpots: '2',
      SalePrice: '1250000',
      Price: '1250000',
      RentPrice: '',
      HOAMonth: '',
      City: '',
      Tours: '',
      Images: '',
      ExtensionColumn: '',
      LATITUDE: null,
      LONGITUDE: null,
    });
  });

  it('lists only the fields of the spec table: no AreaUnit, Location or SerialNumber', () => {
    const record = toListRecord({ ...base, Location: 'Downtown' });
    expect(Object.keys(record)).not.toContain('AreaUnit');
    expect(Object.keys(record)).not.toContain('Location');
    expect(Object.keys(record)).not.toContain('SerialNumber');
    expect(Object.keys(record)).toHaveLength(33);
  });

  it.each([
    [{ SaleType: 'for_rent' as const, RentPrice: 2400, SalePrice: 500000 }, 'For Rent', '2400'],
    [{ SaleType: 'for_rent' as const, SalePrice: 500000 }, 'For Rent', '500000'],
    [{ SaleType: 'for_sale' as const, RentPrice: 2400 }, 'For Sale', '2400'],
    [{ SaleType: 'for_sale' as const }, 'For Sale', ''],
  ])('Price follows the sale type: %o', (fields, saleType, price) => {
    const record = toListRecord({ ...base, ...fields });
    expect([record.SaleType, record.Price]).toEqual([saleType, price]);
  });

  it.each([
    [1250000.456, '1250000.46'],
    [99.999, '100'],
    [0.1 + 0.2, '0.3'],
    [0, '0'],
  ])('rounds money %d to cents: %s', (value, expected) => {
    expect(toListRecord({ ...base, HOAMonth: value }).HOAMonth).toBe(expected);
  });

  it('rounds coordinates to 6 decimals and keeps them numbers', () => {
    const record = toListRecord({ ...base, Latitude: 40.71277777, Longitude: -74.00597222 });
    expect([record.LATITUDE, record.LONGITUDE]).toEqual([40.712778, -74.005972]);
  });

  it('writes Images as one string, comma-separated or JSON', () => {
    const listing = { ...base, Images: ['https://img.test/a.jpg', 'https://img.test/b.jpg'] };
    expect(toListRecord(listing).Images).toBe('https://img.test/a.jpg,https://img.test/b.jpg');
    expect(toListRecord(listing, 'json').Images).toBe('["https://img.test/a.jpg","https://img.test/b.jpg"]');
  });

  it('serializes ExtensionColumn as a JSON string of the Key/value array', () => {
    const ExtensionColumn = [{ Key: 'Pool', value: 'yes' }];
    const record = toListRecord({ ...base, ExtensionColumn });
    expect(record.ExtensionColumn).toBe('[{"Key":"Pool","value":"yes"}]');
    expect(JSON.parse(record.ExtensionColumn)).toEqual(ExtensionColumn);
  });
});
