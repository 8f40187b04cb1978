import { describe, expect, it } from 'vitest';
import type { Listing } from '../normalize/index.ts';
import { recordHash, withTags } from './ownership.ts';

const keys = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };

/** White space to fold, numbers to round, an old owner tag to replace. */
const listing = {
  SaleType: 'for_sale',
  Status: 'Active',
  CurrencySymbol: '$',
  PropertyType: 'Single Family',
  Bedrooms: 3,
  Bathrooms: 2.5,
  Url: 'https://acme.example/l/A-1',
  MLSNumber: 'A-1',
  YearBuilt: 1998,
  DaysOnMarket: 12,
  LotArea: 4356.004,
  BuildingArea: 1800,
  AreaUnit: 'Square Feet',
  Images: [' https://img.example/1.jpg', 'https://img.example/2.jpg'],
  ParkingSpots: 2,
  Description: '  Sunny\tcorner  lot,\u00a0near the park \r\n',
  Address: '12 Main St',
  City: 'Austin',
  State: 'TX',
  ZIP: '78701',
  Latitude: 30.2672001,
  Longitude: -97.7431,
  SalePrice: 450000.499,
  ExtensionColumn: [
    { Key: 'Agent', value: 'A. Person' },
    { Key: 'feed-sync:feed', value: 'old' },
  ],
} as Listing;

describe('recordHash', () => {
  // The hash is stored on the platform beside every listing: bytes that moved would rewrite every
  // listing of every feed once after an upgrade. This value was computed before any optimization.
  it('keeps its bytes across releases', () => {
    expect(recordHash(listing, keys)).toBe('a1ac7230006a');
  });

  it('keeps its bytes for every kind of field: numbers rounded, coordinates, photos, stamps, tags left out', () => {
    // Computed before the text was built as parts (one string, one hash): the same bytes, pinned.
    const rich = {
      MLSNumber: 'R-1',
      Status: 'Active',
      SaleType: 'for_sale',
      Address: ' 1  Main\tSt ',
      City: 'Springfield',
      SalePrice: 250000.004,
      Latitude: 40.1234564,
      Longitude: -73.0000005,
      Bedrooms: 3,
      Bathrooms: 2.5,
      Images: [' https://a/1.jpg', 'https://a/2.jpg '],
      Description: '',
      AreaUnit: 'Square Feet',
      BuildingArea: 1200,
      ExtensionColumn: [
        { Key: 'Pool', value: 'yes' },
        { Key: 'feed-sync:feed', value: 'acme' },
        { Key: 'Agent', value: 'Ann' },
        { Key: 'feed-sync:hash', value: 'x' },
      ],
    } as unknown as Listing;
    const stamped = {
      ...rich,
      ExtensionColumn: [...rich.ExtensionColumn!, { Key: 'feed-sync:photos', value: '2026-01-01T00:00:00Z' }],
    };
    expect(recordHash(rich, keys)).toBe('dcade4bfe37f');
    expect(recordHash(stamped, keys)).toBe('6342dce7b698');
    expect(recordHash({ MLSNumber: 'E-1', ExtensionColumn: [] } as unknown as Listing, keys)).toBe(
      'ba4380888469',
    );
  });

  it('is the same for text that differs only in white space the platform folds', () => {
    const folded = { ...listing, Description: 'Sunny corner lot, near the park' };
    expect(recordHash(folded, keys)).toBe(recordHash(listing, keys));
    expect(recordHash({ ...listing, Description: 'Sunny corner lot near the park' }, keys)).not.toBe(
      recordHash(listing, keys),
    );
  });
});

describe('withTags', () => {
  it('replaces the owner tag and adds the hash, after the feed’s own entries', () => {
    expect(withTags(listing, 'acme', keys).ExtensionColumn).toEqual([
      { Key: 'Agent', value: 'A. Person' },
      { Key: 'feed-sync:feed', value: 'acme' },
      { Key: 'feed-sync:hash', value: 'a1ac7230006a' },
    ]);
  });
});
