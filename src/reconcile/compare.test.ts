import { describe, expect, it } from 'vitest';
import { RETURNED_FIELDS } from '../api/index.ts';
import { listing } from '../testing/listing.ts';
import { clearsAny, clearsOf, diffListing, holdsValue, isClear, leavesUnset } from './compare.ts';
import { ownFields } from './digest.ts';

const bit = (field: string) => 1 << RETURNED_FIELDS.indexOf(field as (typeof RETURNED_FIELDS)[number]);

describe('diffListing: a value the feed stops sending', () => {
  const remote = listing(1);
  const desired = listing(1, { SalePrice: undefined, Description: undefined });

  it('is not compared unless the field is clearable', () => {
    expect(diffListing(desired, remote)).toEqual([]);
    expect(diffListing(desired, remote, bit('Description'))).toEqual([
      { field: 'Description', from: 'A fine home, number 1.', to: undefined },
    ]);
  });

  it('is a clear in every clearable field the platform holds a value in', () => {
    const changes = diffListing(desired, remote, bit('SalePrice') | bit('Description') | bit('RentPrice'));
    expect(changes.map((c) => c.field)).toEqual(['Description', 'SalePrice']);
    expect(changes.every(isClear)).toBe(true);
    expect(clearsAny(changes)).toBe(true);
  });

  it('a number 0 on the platform, or an empty text, holds no value', () => {
    expect(holdsValue('HOAMonth', 0)).toBe(false);
    expect(holdsValue('HOAMonth', 120)).toBe(true);
    expect(holdsValue('Description', '  ')).toBe(false);
    expect(holdsValue('Images', [])).toBe(false);
    const zero = { ...remote, SalePrice: 0 };
    expect(diffListing(desired, { ...zero, Description: '' }, bit('SalePrice') | bit('Description'))).toEqual(
      [],
    );
  });

  it('an ExtensionColumn entry the feed dropped is no clear: the column is sent whole', () => {
    const change = { field: 'ExtensionColumn[Pool]', from: 'yes', to: undefined };
    expect(isClear(change)).toBe(false);
    expect(clearsAny([change, { field: 'City', from: 'A', to: 'B' }])).toBe(false);
    // Nor the mark of a record the run did not read (`unreadAgainst`: its from the platform's listing).
    expect(
      isClear({ field: '(unknown: the feed record was not read)', from: { City: 'A' }, to: undefined }),
    ).toBe(false);
  });
});

describe('the unknown marker 0 (a required number the feed does not say)', () => {
  const typedIn = listing(1, { YearBuilt: 1995, ParkingSpots: 3 });
  const unknown = listing(1, { YearBuilt: 0, ParkingSpots: 0 });

  it('is no change where the feed never sets the field: a value typed in on the platform stays', () => {
    expect(leavesUnset('YearBuilt', 0)).toBe(true);
    expect(leavesUnset('SalePrice', 0)).toBe(false);
    expect(leavesUnset('YearBuilt', 1995)).toBe(false);
    expect(diffListing(unknown, typedIn)).toEqual([]);
  });

  it('clears to 0 by a plain update where the feed sets the field on other listings: no replace', () => {
    const changes = diffListing(unknown, typedIn, bit('YearBuilt'));
    expect(changes).toEqual([{ field: 'YearBuilt', from: 1995, to: 0 }]);
    expect(clearsAny(changes)).toBe(false);
    // The digests' fast path reads the same change off the platform's listing.
    expect(clearsOf(typedIn, bit('YearBuilt') & ~ownFields(unknown).mask)).toEqual(changes);
  });

  it("is no value in either side's mask and digest, so a listing created with it is unchanged at once", () => {
    const mine = ownFields(unknown);
    expect(mine.mask & bit('YearBuilt')).toBe(0);
    expect(mine.mask & bit('ParkingSpots')).toBe(0);
    expect(ownFields({ ...unknown, YearBuilt: undefined, ParkingSpots: undefined })).toEqual(mine);
    expect(ownFields(typedIn).mask & bit('YearBuilt')).not.toBe(0);
    // SalePrice 0 is a value as ever (a feed that says 0 for "on request" is mapped to unset upstream).
    expect(ownFields(listing(1, { SalePrice: 0 })).mask & bit('SalePrice')).not.toBe(0);
  });
});
