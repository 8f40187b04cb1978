import { describe, expect, it } from 'vitest';
import { RETURNED_FIELDS } from '../api/index.ts';
import { type Listing, MARKER_FIELDS, type MarkerField } from '../normalize/index.ts';
import { mulberry32 } from '../sandbox/index.ts';
import { listing } from '../testing/listing.ts';
import { withTags } from './ownership.ts';
import { unknownLeftOut, withoutUnknown, withoutUnknownJson } from './update-body.ts';

const bit = (field: string) => 1 << RETURNED_FIELDS.indexOf(field as (typeof RETURNED_FIELDS)[number]);
const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };

describe('unknownLeftOut', () => {
  it('names the marker fields the feed never sets; none for a plan made by hand', () => {
    expect(unknownLeftOut(undefined)).toEqual([]);
    expect(unknownLeftOut(0)).toEqual(MARKER_FIELDS);
    const all = MARKER_FIELDS.reduce((mask, field) => mask | bit(field), 0);
    expect(unknownLeftOut(all)).toEqual([]);
    expect(unknownLeftOut(all & ~bit('YearBuilt') & ~bit('ParkingSpots'))).toEqual([
      'YearBuilt',
      'ParkingSpots',
    ]);
  });
});

describe('withoutUnknown and withoutUnknownJson', () => {
  it('cut only the fields named that hold 0, first, middle or last', () => {
    const record = listing(1, { YearBuilt: 0, ParkingSpots: 0, DaysOnMarket: 0, Bedrooms: 0 });
    const out = withoutUnknown(record, ['YearBuilt', 'ParkingSpots', 'LotArea']);
    expect(out).not.toHaveProperty('YearBuilt');
    expect(out).not.toHaveProperty('ParkingSpots');
    expect(out).toMatchObject({ DaysOnMarket: 0, Bedrooms: 0, LotArea: 5001 });
    const known = listing(1);
    expect(withoutUnknown(known, ['YearBuilt'])).toBe(known);
    expect(withoutUnknownJson('{"YearBuilt":0,"City":"A"}', ['YearBuilt'])).toBe('{"City":"A"}');
    expect(withoutUnknownJson('{"City":"A","YearBuilt":0}', ['YearBuilt'])).toBe('{"City":"A"}');
    expect(withoutUnknownJson('{"YearBuilt":0}', ['YearBuilt'])).toBe('{}');
    expect(withoutUnknownJson('{"YearBuilt":0.5,"City":"A"}', ['YearBuilt'])).toBe(
      '{"YearBuilt":0.5,"City":"A"}',
    );
    expect(withoutUnknownJson('{"YearBuilt":05}', ['YearBuilt'])).toBe('{"YearBuilt":05}');
    // Text that spells a member, inside a string: its quotes are escaped, never cut.
    const tricky = JSON.stringify({ Description: '"YearBuilt":0,', YearBuilt: 0 });
    expect(JSON.parse(withoutUnknownJson(tricky, ['YearBuilt']))).toEqual({ Description: '"YearBuilt":0,' });
  });

  it('agree on random records as the store keeps them (JSON.stringify of the tagged listing)', () => {
    const random = mulberry32(77);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    for (let n = 0; n < 500; n++) {
      const overrides: Partial<Listing> = {};
      for (const field of MARKER_FIELDS) overrides[field] = pick([0, 0, 1, 0.5, 1990, 10]);
      overrides.Description = pick(['"YearBuilt":0,', 'plain', '{"ParkingSpots":0}', undefined]);
      const record = withTags(listing(n, overrides), 'feed1', tags);
      const fields = MARKER_FIELDS.filter(() => random() < 0.6) as MarkerField[];
      const json = withoutUnknownJson(JSON.stringify(record), fields);
      expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(withoutUnknown(record, fields))));
    }
  });
});
