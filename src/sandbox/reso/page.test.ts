import { describe, expect, it } from 'vitest';
import type { GeneratorOptions } from './generate.ts';
import { ResoListingStore } from './listing-store.ts';
import { parseFilter } from './odata-filter.ts';
import { type After, scan } from './page.ts';
import { propertyResource } from './resources.ts';

const options: GeneratorOptions = {
  seed: 3,
  keyPrefix: 'T',
  originatingSystem: 'X',
  baseTime: Date.parse('2024-01-01T00:00:00Z'),
  stepMs: 1000,
  tieGroup: 3,
  mediaHost: 'media.test',
  listingsPerAgent: 20,
  agentsPerOffice: 10,
};

function resource(count: number) {
  const store = new ResoListingStore(options, count, 0);
  return { store, resource: propertyResource(store, (record) => record) };
}

describe('scan', () => {
  it('keyset pages over the time walk neither skip nor repeat records tied across page ends', () => {
    const { resource: property } = resource(100);
    const seen: number[] = [];
    let after: After | undefined;
    for (let page = 0; page < 20; page++) {
      const result = scan(property, { walk: 'time', now: 0, skip: 0, take: 7, after });
      seen.push(...result.items.map((item) => item.index));
      const last = result.items.at(-1);
      if (!result.more || !last) break;
      after = { index: last.index, time: property.timestampOf(last.index) };
    }
    expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('starts an incremental query at its lower bound and reports whether more follow', () => {
    const { resource: property } = resource(30);
    const filter = parseFilter(`ModificationTimestamp gt ${new Date(options.baseTime + 5000).toISOString()}`);
    const result = scan(property, { walk: 'time', filter, now: 0, skip: 0, take: 5 });
    // Listings 18.. (group 6 and later) are after 5 s.
    expect(result.items.map((item) => item.index)).toEqual([18, 19, 20, 21, 22]);
    expect(result.more).toBe(true);
    const rest = scan(property, { walk: 'time', filter, now: 0, skip: 5, take: 50 });
    expect(rest.items.map((item) => item.index)).toEqual([23, 24, 25, 26, 27, 28, 29]);
    expect(rest.more).toBe(false);
  });

  it('skips what is no longer visible', () => {
    const { store, resource: property } = resource(10);
    store.markDeleted(4, options.baseTime + 60_000);
    const result = scan(property, { walk: 'key', now: options.baseTime + 60_000, skip: 0, take: 100 });
    expect(result.items.map((item) => item.index)).toEqual([0, 1, 2, 3, 5, 6, 7, 8, 9]);
  });
});
