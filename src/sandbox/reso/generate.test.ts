import { describe, expect, it } from 'vitest';
import { baseTimestamp, type GeneratorOptions, generateListing, indexOfKey, listingKey } from './generate.ts';
import { ResoListingStore } from './listing-store.ts';
import { generateMedia } from './media.ts';

const options: GeneratorOptions = {
  seed: 7,
  keyPrefix: 'ACT',
  originatingSystem: 'actris',
  baseTime: Date.parse('2024-01-01T00:00:00Z'),
  stepMs: 1000,
  tieGroup: 3,
  mediaHost: 'media.test',
  listingsPerAgent: 20,
  agentsPerOffice: 10,
};

describe('generateListing', () => {
  it('is a pure function of seed and index', () => {
    expect(generateListing(options, 1234)).toEqual(generateListing(options, 1234));
    expect(generateListing(options, 1234)).not.toEqual(generateListing({ ...options, seed: 8 }, 1234));
  });

  it('gives keys in index order and reads them back', () => {
    expect(listingKey(options, 5) < listingKey(options, 40)).toBe(true);
    expect(indexOfKey(options, listingKey(options, 99_999))).toBe(99_999);
    expect(indexOfKey(options, 'XYZ1')).toBeUndefined();
  });

  it('ties timestamps in groups, across page boundaries', () => {
    expect(baseTimestamp(options, 999)).toBe(baseTimestamp(options, 1000));
    expect(baseTimestamp(options, 1001)).toBeLessThan(baseTimestamp(options, 1002));
  });

  it('leaves BedroomsTotal out of land and ranch listings and keeps the RESO fields elsewhere', () => {
    const records = Array.from({ length: 2000 }, (_, i) => generateListing(options, i));
    const land = records.filter((r) => r.PropertyType === 'Land' || r.PropertyType === 'Farm');
    expect(land.length).toBeGreaterThan(100);
    expect(land.every((r) => !('BedroomsTotal' in r))).toBe(true);
    const homes = records.filter((r) => r.PropertyType === 'Residential');
    expect(homes.length).toBeGreaterThan(100);
    expect(homes.every((r) => typeof r.BedroomsTotal === 'number' && typeof r.ListPrice === 'number')).toBe(
      true,
    );
    for (const field of [
      'ListOfficeName',
      'ListAgentFullName',
      'UnparsedAddress',
      'Latitude',
      'PhotosChangeTimestamp',
    ])
      expect(records.every((r) => field in r)).toBe(true);
  });
});

describe('generateMedia', () => {
  it('changes every key and URL with the photo version, and is not in Order', () => {
    const at = '2024-01-01T00:00:00.000Z';
    const lists = Array.from({ length: 50 }, (_, i) => generateMedia(options, i, 0, at)).filter(
      (m) => m.length > 3,
    );
    expect(
      lists.some(
        (m) =>
          m.map((x) => x.Order).join() !==
          [...m]
            .sort((a, b) => Number(a.Order) - Number(b.Order))
            .map((x) => x.Order)
            .join(),
      ),
    ).toBe(true);
    const before = generateMedia(options, 3, 0, at).map((m) => m.MediaURL);
    const after = generateMedia(options, 3, 1, at).map((m) => m.MediaURL);
    expect(after.some((url) => before.includes(url))).toBe(false);
  });
});

describe('ResoListingStore', () => {
  it('moves a modified listing to its new place in the timeline, ties ordered by index', () => {
    const store = new ResoListingStore(options, 10, 0);
    const later = baseTimestamp(options, 9) + 5000;
    store.modify(2, later, { ListPrice: 1 });
    store.modify(0, later);
    expect(store.timeline()).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 0, 2]);
    expect(store.recordAt(2).ListPrice).toBe(1);
    expect(store.lowerBound(later)).toBe(8);
    store.modify(0, later + 1, { ListPrice: null });
    expect(store.timeline().at(-1)).toBe(0);
    expect('ListPrice' in store.recordAt(0)).toBe(false);
  });

  it('keeps a deleted listing visible as a marker until the retention passes', () => {
    const store = new ResoListingStore(options, 5, 1000);
    store.markDeleted(1, 10_000);
    expect(store.isVisible(1, 10_999)).toBe(true);
    expect(store.isVisible(1, 11_000)).toBe(false);
    const gone = new ResoListingStore(options, 5, 0);
    gone.markDeleted(1, 10_000);
    expect(gone.isVisible(1, 10_000)).toBe(false);
  });

  it('adds listings at the end of the timeline', () => {
    const store = new ResoListingStore(options, 3, 0);
    expect(store.add(2, Date.parse('2030-01-01T00:00:00Z'))).toEqual([3, 4]);
    expect(store.timeline()).toEqual([0, 1, 2, 3, 4]);
  });
});
