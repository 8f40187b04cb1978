import type { FeedConfig } from '../config/schema.ts';
import type { Listing } from '../normalize/listing-schema.ts';
import { FeedError } from './feed-error.ts';
import { openFeed } from './open-feed.ts';
import { type FeedRun, itemsOf, mappingFor } from './read-feed.ts';
import type { DuplicateKey, IngestDeps, IngestResult, RecordRef, Rejection } from './types.ts';

/**
 * Read a whole feed into the run's inputs: valid listings deduped by the feed's key (last wins),
 * removals, rejections and duplicates. Never returns for a failed feed: a feed that cannot be
 * fetched or parsed, or has zero records, throws FeedError, so nothing mistakes it for an empty feed.
 */
export async function ingestFeed(feed: FeedConfig, deps: IngestDeps): Promise<IngestResult> {
  const run: FeedRun = { session: await openFeed(feed, deps) };
  const { session } = run;
  if (session.notModified) return emptyResult(feed, session.mode, mappingFor(feed, undefined).mapping);

  const kept = new Map<string, Listing>();
  const removed = new Map<string, RecordRef>();
  // One ref per key until a key repeats: an array per key would double the memory of a large feed.
  const refsByKey = new Map<string, RecordRef | RecordRef[]>();
  const rejections: Rejection[] = [];
  let records = 0;
  /** Remember where the key was seen; true when it was seen before. */
  const seen = (key: string, ref: RecordRef): boolean => {
    const refs = refsByKey.get(key);
    if (refs === undefined) refsByKey.set(key, ref);
    else if (Array.isArray(refs)) refs.push(ref);
    else refsByKey.set(key, [refs, ref]);
    return refs !== undefined;
  };
  for await (const item of itemsOf(feed, run, deps)) {
    records++;
    if (item.kind === 'rejected') {
      rejections.push(item.rejection);
      continue;
    }
    const key = item.kind === 'listing' ? (item.listing[feed.key] as string) : item.key;
    // Last wins: a later record of the same key replaces an earlier listing or removal (and takes
    // its place at the end of the order).
    if (seen(key, item.ref)) {
      kept.delete(key);
      removed.delete(key);
    }
    if (item.kind === 'listing') kept.set(key, item.listing);
    else removed.set(key, item.ref);
  }
  if (records === 0) {
    throw new FeedError('E_FEED_EMPTY', feed.id, `the feed has no records (${session.name})`);
  }
  const duplicates: DuplicateKey[] = [];
  for (const [key, refs] of refsByKey) if (Array.isArray(refs)) duplicates.push({ key, refs });
  const dropped = duplicates.reduce((sum, d) => sum + d.refs.length - 1, 0);
  return {
    feedId: feed.id,
    notModified: false,
    mode: session.mode,
    listings: [...kept.values()],
    removals: [...removed.keys()],
    rejections,
    duplicates,
    stats: {
      records,
      valid: kept.size,
      rejected: rejections.length,
      removed: removed.size,
      duplicates: dropped,
    },
    statePatch: session.statePatch,
    mapping: (run.mapping ?? mappingFor(feed, undefined)).mapping,
  };
}

function emptyResult(feed: FeedConfig, mode: 'full' | 'incremental', mapping: unknown): IngestResult {
  return {
    feedId: feed.id,
    notModified: true,
    mode,
    listings: [],
    removals: [],
    rejections: [],
    duplicates: [],
    stats: { records: 0, valid: 0, rejected: 0, removed: 0, duplicates: 0 },
    statePatch: {},
    mapping,
  };
}
