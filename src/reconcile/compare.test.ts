import { describe, expect, it } from 'vitest';
import { RETURNED_FIELDS } from '../api/index.ts';
import { listing } from '../testing/listing.ts';
import { clearsAny, diffListing, holdsValue, isClear } from './compare.ts';

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
    // Nor the mark of a record the run did not read (`UNREAD`).
    expect(
      isClear({ field: '(unknown: the feed record was not read)', from: undefined, to: undefined }),
    ).toBe(false);
  });
});
