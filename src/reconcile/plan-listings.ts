import type { RemoteListing } from '../api/index.ts';
import type { Listing } from '../normalize/index.ts';
import { desiredOf, withBriefs } from './desired.ts';
import { DesiredIndex } from './desired-index.ts';
import { DEFAULT_HASH_KEY } from './ownership.ts';
import { keyOf, makePlan } from './plan.ts';
import type { Plan, PlanPolicy } from './plan-types.ts';
import { memoryRecords } from './record-store.ts';
import { remoteEntries, soldRecordsOf } from './remote-entries.ts';

/** A plan made over whole listings, with the records its creates and updates would send. */
export interface ListingsPlan extends Plan {
  /** The record a planned create or update sends (tags included): `load(plan.creates[0].desired)`. */
  load(entry: { ref: number }): Listing;
}

/**
 * The plan, as data: what to create, update and delete to make the chatbot's listings (`remote`,
 * as the list operation returns them, canonical) equal to the feed's (`desired`, the last of a key
 * winning), under `policy`. Pure. This is the definition of a plan: a run makes the same plan
 * without holding either side's listings (digests in columns, compared as the pages arrive), and a
 * test holds the two to each other (`test/reconcile/plan-equivalence.test.ts`).
 */
export function planListings(
  desired: readonly Listing[],
  remote: readonly RemoteListing[],
  policy: PlanPolicy,
): ListingsPlan {
  const tags = { ownerKey: policy.ownerKey, hashKey: policy.hashKey ?? DEFAULT_HASH_KEY };
  const store = memoryRecords();
  const index = new DesiredIndex({
    clearUnset: policy.unsetFields !== 'keep',
    ...(policy.fieldsSet === undefined ? {} : { fieldsSet: policy.fieldsSet }),
  });
  const refs = desired.map((listing) =>
    index.add(desiredOf(listing, keyOf(listing, policy.keyField) ?? '', policy.feedId, tags, store)),
  );
  index.keep(refs);
  const loader = { load: (entry: { ref: number }) => store.get(entry.ref) };
  const sold = soldRecordsOf(policy, (listing) => store.put(listing));
  const sink = remoteEntries(policy.keyField, tags, index, loader, sold);
  for (const listing of remote) sink.keep(1, listing);
  const plan = withBriefs(makePlan(index, sink.finish().listings, policy), loader);
  return { ...plan, load: loader.load };
}
