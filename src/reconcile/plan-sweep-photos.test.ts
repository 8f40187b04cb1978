import { describe, expect, it } from 'vitest';
import type { Listing } from '../normalize/index.ts';
import { PHOTO_STAMP_KEY } from '../normalize/index.ts';
import { remote } from '../testing/list-record.ts';
import { listing, listings } from '../testing/listing.ts';
import { diffListing } from './compare.ts';
import { type PlanPolicy, planListings as planOf, withTags } from './index.ts';

const policy: PlanPolicy = {
  feedId: 'mls',
  chatbot: 'SN-1',
  keyField: 'MLSNumber',
  ownerKey: 'feed-sync:feed',
  ownership: 'tagged',
  adopt: true,
  maxDeleteShare: 0.5,
  mode: 'full',
};
const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
const ours = (id: number, l: Listing) => remote(id, withTags(l, 'mls', tags));
const present = (keys: string[]) => new Set(keys);

describe('a full plan over the keys a RESO sweep listed', () => {
  it('keeps listed listings it was not sent, deletes only those neither sent nor listed', () => {
    const remotes = listings(1, 6).map((l, i) => ours(i + 1, l));
    const plan = planOf([listing(2, { SalePrice: 1 })], remotes, {
      ...policy,
      present: present(['MLS-0001', 'MLS-0002', 'MLS-0003', 'MLS-0004', 'MLS-0005']),
    });
    expect(Array.from(plan.updates, (u) => u.key)).toEqual(['MLS-0002']);
    expect(Array.from(plan.deletes).map((d) => `${d.key} ${d.reason}`)).toEqual(['MLS-0006 gone']);
    expect([...plan.unchanged]).toEqual([]);
  });

  it('counts listed keys as the feed, so a sweep with nothing new to send is not an empty feed', () => {
    const remotes = listings(1, 4).map((l, i) => ours(i + 1, l));
    const plan = planOf([], remotes, { ...policy, present: present(['MLS-0001', 'MLS-0002', 'MLS-0003']) });
    expect(Array.from(plan.deletes).map((d) => d.key)).toEqual(['MLS-0004']);
    expect(plan.guards.find((g) => g.guard === 'empty-feed')).toBeUndefined();
  });
});

describe('photos by their stamp', () => {
  const stamped = (n: number, stamp: string, sig: string) =>
    listing(n, {
      Images: [`https://media.example/${n}/1.jpg?sig=${sig}`],
      ExtensionColumn: [{ Key: PHOTO_STAMP_KEY, value: stamp }],
    });

  it('re-signed URLs under the same stamp: no change, not even of the record hash', () => {
    const plan = planOf([stamped(1, 'T1', 'b')], [ours(1, stamped(1, 'T1', 'a'))], policy);
    expect([...plan.updates]).toEqual([]);
    expect([...plan.unchanged]).toEqual(['MLS-0001']);
  });

  it('a new stamp compares the photos again', () => {
    const plan = planOf([stamped(1, 'T2', 'b')], [ours(1, stamped(1, 'T1', 'a'))], policy);
    expect(plan.updates.at(0)?.changes.map((c) => c.field)).toEqual(
      expect.arrayContaining(['Images', `ExtensionColumn[${PHOTO_STAMP_KEY}]`]),
    );
  });

  it('without a stamp, URLs are compared as before', () => {
    const a = listing(1, { Images: ['https://x/1.jpg?sig=a'] });
    expect(diffListing(listing(1, { Images: ['https://x/1.jpg?sig=b'] }), a).map((c) => c.field)).toEqual([
      'Images',
    ]);
  });
});
