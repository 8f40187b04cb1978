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
