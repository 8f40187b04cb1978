import type { RemoteListing } from '../api/index.ts';
import type { HeldKey } from '../ingest/index.ts';
import type { Listing } from '../normalize/index.ts';
import { planListings } from './plan-listings.ts';
import type { Plan, PlanPolicy } from './plan-types.ts';

/** The key of the record standing for the rest of the feed: no platform listing has it. */
const REST_OF_FEED = '\u0000the rest of the feed';

/** What the feed says about one key: its listing, that it is removed, that it is held, or nothing. */
export type FeedSide =
  | { kind: 'listing'; listing: Listing }
  | { kind: 'remove' }
  | { kind: 'held'; held: HeldKey }
  | { kind: 'absent' };

/** The feed's policy for one key: the run's, but for what the feed says about this key (`FeedSide`). */
export type KeyPolicy = Omit<
  PlanPolicy,
  'removals' | 'held' | 'allowMassDelete' | 'unkeyedRejections' | 'recordsRead'
>;

/**
 * The plan of one key: the run's own `makePlan` over the feed's record of the key (if any) and the
 * chatbot's listings with it, so ownership, adoption, holds (a rejected record, a broken row),
 * duplicates, the `gone` policy and its grace clock are decided by the same code as a sync. Pure.
 * The delete guards weigh a whole feed, so they are left to the caller: the plan of one key is made
 * with the override, and a delete it holds back is read as a delete.
 */
export function planKey(
  key: string,
  feed: FeedSide,
  remote: readonly RemoteListing[],
  policy: KeyPolicy,
): Plan {
  // The rest of the feed, as one record no listing can match: without it a key the feed lacks would
  // be read as an empty feed, whose guard (a whole-feed judgement) holds every delete and mark.
  const rest = { MLSNumber: REST_OF_FEED, Url: REST_OF_FEED } as Listing;
  const desired = feed.kind === 'listing' ? [feed.listing, rest] : [rest];
  return planListings(desired, remote, {
    ...policy,
    allowMassDelete: true,
    removals: feed.kind === 'remove' ? [key] : [],
    held: feed.kind === 'held' ? [feed.held] : [],
    // One listing of one key is not a feed: the share of keyless rows is the whole feed's to judge.
    unkeyedRejections: 0,
    recordsRead: 1,
  });
}
