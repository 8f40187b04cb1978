import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { remote } from '../testing/list-record.ts';
import { listing } from '../testing/listing.ts';
import { desiredOf } from './desired.ts';
import { DesiredIndex } from './desired-index.ts';
import { withTags } from './ownership.ts';
import { keyOf, makePlan } from './plan.ts';
import type { PlanPolicy } from './plan-types.ts';
import { changesIn, memoryRecords } from './record-store.ts';
import { remoteEntries } from './remote-entries.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const policy: PlanPolicy = {
  feedId: 'acme',
  chatbot: 'SN-1',
  keyField: 'MLSNumber',
  ownerKey: 'feed-sync:feed',
  ownership: 'tagged',
  adopt: true,
  maxDeleteShare: 0.2,
  mode: 'full',
};
const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };

/** A plan as a run makes it (changes in the run's store), and a weak reference to its remote entries. */
function planOnce() {
  const store = memoryRecords();
  const index = new DesiredIndex();
  const feed = [listing(1, { SalePrice: 500_000 }), listing(2), listing(3, { SalePrice: 1 })];
  index.keep(feed.map((l) => index.add(desiredOf(l, keyOf(l, 'MLSNumber') ?? '', 'acme', tags, store))));
  const loader = { load: (entry: { ref: number }) => store.get(entry.ref) };
  const sink = remoteEntries('MLSNumber', tags, index, loader, undefined, changesIn(store));
  for (const n of [1, 2, 3]) sink.keep(1, remote(10 + n, withTags(listing(n), 'acme', tags)));
  const { listings } = sink.finish();
  return { plan: makePlan(index, listings, policy), entries: new WeakRef(listings) };
}

describe('a plan and the remote entries it was made from', () => {
  it('lets go of the entries once made: its creates, updates and unchanged keys read the feed and the store', async () => {
    const { plan, entries } = planOnce();
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(entries.deref()).toBeUndefined();
    expect(Array.from(plan.updates, (u) => [u.key, u.id, u.changes.map((c) => c.field)])).toEqual([
      ['MLS-0001', 11, ['SalePrice', 'ExtensionColumn[feed-sync:hash]']],
      ['MLS-0003', 13, ['SalePrice', 'ExtensionColumn[feed-sync:hash]']],
    ]);
    expect(plan.unchanged.length).toBe(1);
  });
});
