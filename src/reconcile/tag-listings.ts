import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Listing } from '../normalize/listing-schema.ts';
import { type TagKeys, withTags } from './ownership.ts';

/** Listings tagged between two turns of the event loop. */
const CHUNK = 500;

/**
 * Tag every listing of the feed (owner tag and record hash, see `withTags`), giving the event loop
 * a turn every few hundred: run while the snapshot's pages are on the wire, this hashing (the
 * costliest CPU work of a no-op run on the feed's side) fills the wait instead of following it.
 */
export async function tagListings(
  listings: readonly Listing[],
  feedId: string,
  keys: TagKeys,
  signal?: AbortSignal,
): Promise<Listing[]> {
  const tagged: Listing[] = new Array(listings.length);
  for (let i = 0; i < listings.length; i++) {
    if (i % CHUNK === 0 && i > 0) {
      await yieldToLoop();
      signal?.throwIfAborted();
    }
    tagged[i] = withTags(listings[i]!, feedId, keys);
  }
  return tagged;
}
