import { describe, expect, it } from 'vitest';
import type { RemoteListing } from '../api/index.ts';
import type { Listing } from '../normalize/index.ts';
import { desiredByKey } from './plan.ts';
import { remoteEntries, UNREAD_KEPT } from './remote-entries.ts';
import { UNREAD_FIELD } from './remote-entry.ts';

const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
const remote = (id: number, key: string, owner?: string): RemoteListing => ({
  id,
  listing: {
    MLSNumber: key,
    ...(owner ? { ExtensionColumn: [{ Key: 'feed-sync:feed', value: owner }] } : {}),
  } as Partial<Listing>,
});

describe('remoteEntries', () => {
  it('puts what pages arriving in any order kept in ID order, the earlier page winning an ID read twice', () => {
    const desired = desiredByKey([{ key: 'K-2', mask: 0, digest: 0, ref: 0 }]);
    const sink = remoteEntries('MLSNumber', tags, desired, { load: () => ({}) as Listing });
    sink.keep(3, remote(5, 'K-5', 'acme'));
    sink.keep(3, remote(2, 'K-2b'));
    sink.keep(1, remote(4, 'K-4'));
    sink.keep(2, remote(2, 'K-2', 'acme'));
    sink.keep(1, remote(9, 'K-9'));
    const { listings, twice } = sink.finish();
    expect(twice).toBe(1);
    const rows = Array.from({ length: listings.length }, (_, i) => [
      listings.idAt(i),
      listings.keyAt(i),
      listings.ownerAt(i),
      listings.refAt(i),
      listings.changesAt(i),
    ]);
    expect(rows).toEqual([
      [2, 'K-2', 'acme', 0, []],
      [4, 'K-4', undefined, -1, undefined],
      [5, 'K-5', 'acme', -1, undefined],
      [9, 'K-9', undefined, -1, undefined],
    ]);
  });

  it("gives each entry's key and owner back: the feed's key for one it has, its own for any other", () => {
    const desired = desiredByKey([
      { key: ' Müllerstraße-7 ', mask: 0, digest: 0, ref: 0 },
      { key: 'https://example.com/a?b=é', mask: 0, digest: 0, ref: 1 },
    ]);
    const urlOf = (id: number, url: string, owner?: string): RemoteListing => ({
      id,
      listing: { ...remote(id, '', owner).listing, MLSNumber: undefined, Url: url } as Partial<Listing>,
    });
    const sink = remoteEntries('Url', tags, desired, { load: () => ({}) as Listing });
    sink.keep(1, urlOf(1, 'https://example.com/a?b=é ', 'acme'));
    sink.keep(1, urlOf(2, 'https://example.com/gone/東京', 'acme'));
    sink.keep(1, urlOf(3, 'https://example.com/gone/東京', 'other'));
    sink.keep(1, urlOf(4, '  '));
    sink.keep(1, urlOf(5, 'Müllerstraße-7', 'acme'));
    const { listings } = sink.finish();
    const rows = Array.from({ length: listings.length }, (_, i) => [
      listings.keyAt(i),
      listings.ownerAt(i),
      listings.refAt(i),
    ]);
    expect(rows).toEqual([
      ['https://example.com/a?b=é', 'acme', 1],
      ['https://example.com/gone/東京', 'acme', -1],
      ['https://example.com/gone/東京', 'other', -1],
      [undefined, undefined, -1],
      ['Müllerstraße-7', 'acme', 0],
    ]);
  });

  it('grows past its first columns', () => {
    const sink = remoteEntries('MLSNumber', tags, desiredByKey([]), { load: () => ({}) as Listing });
    for (let id = 3000; id > 0; id--) sink.keep(1 + (id % 7), remote(id, `K-${id}`));
    const { listings } = sink.finish();
    expect(listings.length).toBe(3000);
    for (let i = 0; i < 3000; i++)
      expect([listings.idAt(i), listings.keyAt(i)]).toEqual([i + 1, `K-${i + 1}`]);
  });

  it('compares again, once their records are read, the entries compared without them; past UNREAD_KEPT it cannot', () => {
    const count = UNREAD_KEPT + 1;
    const desired = desiredByKey(
      Array.from({ length: count }, (_, ref) => ({ key: `K-${ref}`, mask: 1, digest: 7, ref })),
    );
    const read = new Set<number>();
    const loader = { load: () => ({}) as Listing, unread: (d: { ref: number }) => !read.has(d.ref) };
    const sink = remoteEntries('MLSNumber', tags, desired, loader);
    // IDs against the arrival order: compared again by arrival, read back by ID.
    for (let ref = 0; ref < 3; ref++) sink.keep(1, remote(100 - ref, `K-${ref}`, 'acme'));
    const { listings } = sink.finish();
    expect(listings.changesAt(0)?.[0]).toMatchObject({ field: UNREAD_FIELD, from: { MLSNumber: 'K-2' } });
    expect(listings.unreadComparable?.()).toBe(true);
    const seen: [string | undefined, number][] = [];
    listings.compareUnread?.((platform, ref) => {
      seen.push([platform.MLSNumber, ref]);
      return ref === 1 ? [] : [{ field: 'City', from: platform.MLSNumber, to: 'Springfield' }];
    });
    expect(seen.sort()).toEqual([
      ['K-0', 0],
      ['K-1', 1],
      ['K-2', 2],
    ]);
    expect([0, 1, 2].map((i) => [listings.idAt(i), listings.differsAt(i), listings.changesAt(i)])).toEqual([
      [98, true, [{ field: 'City', from: 'K-2', to: 'Springfield' }]],
      [99, false, []],
      [100, true, [{ field: 'City', from: 'K-0', to: 'Springfield' }]],
    ]);

    const many = remoteEntries('MLSNumber', tags, desired, loader);
    for (let ref = 0; ref < count; ref++) many.keep(1, remote(ref + 1, `K-${ref}`, 'acme'));
    const all = many.finish().listings;
    expect(all.unreadComparable?.()).toBe(false);
    // The last one keeps no listing: how it differs is not known.
    expect(all.changesAt(count - 1)).toEqual([{ field: UNREAD_FIELD, from: undefined, to: undefined }]);
  });
});
