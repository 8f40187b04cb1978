import { describe, expect, it } from 'vitest';
import { keptAsFeeds, keptOnPlatform } from './listing-fields.ts';
import type { ListingPart } from './types.ts';

const listing = (status: ListingPart['status'], fields: Record<string, unknown>): ListingPart => ({
  status,
  fields: Object.entries(fields).map(([field, value]) => ({ field, value, origin: 'config', inputs: [] })),
  problems: [],
  unknown: [],
  tags: [],
});

describe('keptOnPlatform', () => {
  const record = {
    id: 7,
    listing: {
      MLSNumber: 'A-1',
      SalePrice: 300_000,
      Description: 'old text',
      ExtensionColumn: [{ Key: 'Pool', value: 'yes' }],
    },
  };

  it('names the fields the platform has and the valid record leaves unset, not ExtensionColumn entries', () => {
    const valid = listing('valid', { MLSNumber: 'A-1', SalePrice: undefined, Description: 'new text' });
    expect(keptOnPlatform(valid, record)).toEqual(['SalePrice']);
  });

  it('nothing for a record that is rejected or removed, or absent', () => {
    expect(keptOnPlatform(listing('rejected', { MLSNumber: 'A-1' }), record)).toEqual([]);
    expect(keptOnPlatform(listing('remove', { MLSNumber: 'A-1' }), record)).toEqual([]);
    expect(keptOnPlatform(undefined, record)).toEqual([]);
  });
});

describe('keptAsFeeds', () => {
  it('a listing the plan updates or finds in sync, not a duplicate it deletes or another owner’s', () => {
    const classification = [
      { kind: 'unchanged', id: 7 },
      { kind: 'delete', id: 8, reason: 'duplicate' },
      { kind: 'skipped', id: 9, reason: 'owned-by-other-feed' },
      { kind: 'update', id: 10, adopt: false, changes: [] },
    ] as const;
    expect([7, 8, 9, 10, 11].filter((id) => keptAsFeeds(classification, id))).toEqual([7, 10]);
  });
});
