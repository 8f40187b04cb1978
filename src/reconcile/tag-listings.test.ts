import { describe, expect, it } from 'vitest';
import type { Listing } from '../normalize/listing-schema.ts';
import { recordHash, withTags } from './ownership.ts';
import { tagListings } from './tag-listings.ts';

const keys = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
const listing = (n: number): Listing =>
  ({
    MLSNumber: `M-${n}`,
    Url: `https://x.example/${n}`,
    SaleType: 'for_sale',
    Status: 'Active',
    SalePrice: 100_000 + n,
    ExtensionColumn: [{ Key: 'Agent', value: 'Jo' }],
  }) as Listing;

describe('tagListings', () => {
  it('tags every listing as withTags does, in order, across the turns it yields', async () => {
    const feed = Array.from({ length: 1201 }, (_, i) => listing(i));
    const tagged = await tagListings(feed, 'acme', keys);
    expect(tagged).toHaveLength(1201);
    expect(tagged[1200]).toEqual(withTags(feed[1200]!, 'acme', keys));
    expect(tagged[7]?.ExtensionColumn).toEqual([
      { Key: 'Agent', value: 'Jo' },
      { Key: 'feed-sync:feed', value: 'acme' },
      { Key: 'feed-sync:hash', value: recordHash(feed[7]!, keys) },
    ]);
  });

  it('a tagged listing given back is returned as it is; for another feed or keys it is tagged anew', async () => {
    const [tagged] = await tagListings([listing(1)], 'acme', keys);
    expect(withTags(tagged!, 'acme', keys)).toBe(tagged);
    const other = withTags(tagged!, 'beta', keys);
    expect(other).not.toBe(tagged);
    expect(other.ExtensionColumn?.find((e) => e.Key === 'feed-sync:feed')?.value).toBe('beta');
    expect(withTags(tagged!, 'acme', { ...keys, hashKey: 'h2' })).not.toBe(tagged);
  });

  it('stops when the run is cancelled', async () => {
    const feed = Array.from({ length: 1000 }, (_, i) => listing(i));
    await expect(tagListings(feed, 'acme', keys, AbortSignal.abort())).rejects.toThrow();
  });
});
