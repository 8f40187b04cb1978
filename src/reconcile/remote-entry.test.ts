import { describe, expect, it } from 'vitest';
import { RETURNED_FIELDS } from '../api/index.ts';
import { PHOTO_STAMP_KEY } from '../normalize/index.ts';
import { listing } from '../testing/listing.ts';
import { desiredOf } from './desired.ts';
import { withTags } from './ownership.ts';
import { memoryRecords } from './record-store.ts';
import { changesAgainst, SAME } from './remote-entry.ts';

const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
const every = (1 << RETURNED_FIELDS.length) - 1;

describe('changesAgainst: a value the feed stops sending', () => {
  const setUp = (feed: ReturnType<typeof listing>) => {
    const store = memoryRecords();
    const wanted = desiredOf(feed, feed.MLSNumber, 'feed1', tags, store);
    let loads = 0;
    const loader = {
      load: (e: { ref: number }) => {
        loads++;
        return store.get(e.ref);
      },
    };
    return { wanted, loader, loads: () => loads };
  };

  it('the digests equal, a clearable field the platform holds is a clear (the record read whole)', () => {
    const feed = listing(1, { SalePrice: undefined });
    const { wanted, loader, loads } = setUp(feed);
    const remote = { ...withTags(feed, 'feed1', tags), SalePrice: 251_000.33 };
    expect(changesAgainst(remote, wanted, loader, false, 0)).toBe(SAME);
    expect(loads()).toBe(0);
    expect(changesAgainst(remote, wanted, loader, false, every)).toEqual([
      { field: 'SalePrice', from: 251_000.33, to: undefined },
    ]);
  });

  it('photos with the same stamp are no clear, and the record is not read (a reviewer: read on every run)', () => {
    const stamp = [{ Key: PHOTO_STAMP_KEY, value: '2024-01-01T00:00:00Z' }];
    const feed = listing(1, { Images: undefined, ExtensionColumn: stamp });
    const { wanted, loader, loads } = setUp(feed);
    const remote = { ...withTags(feed, 'feed1', tags), Images: listing(1).Images };
    expect(changesAgainst(remote, wanted, { ...loader, unread: () => true }, false, every)).toBe(SAME);
    expect(loads()).toBe(0);
  });
});
