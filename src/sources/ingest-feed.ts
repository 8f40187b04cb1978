import type { FeedConfig } from '../config/schema.ts';
import type { Listing } from '../normalize/listing-schema.ts';
import { FeedError } from './feed-error.ts';
import { openFeed } from './open-feed.ts';
import { itemsOf, mappingFor } from './read-feed.ts';
import { RowsAs1252 } from './rows-as-1252.ts';
import type { DuplicateKey, HeldKey, IngestDeps, IngestResult, RecordRef, Rejection } from './types.ts';

/**
 * Read a whole feed into the run's inputs: valid listings deduped by the feed's key (last wins),
 * removals, rejections and duplicates. Never returns for a failed feed: a feed that cannot be
 * fetched or parsed, or has zero records, throws FeedError, so nothing mistakes it for an empty feed.
 */
export async function ingestFeed(feed: FeedConfig, deps: IngestDeps): Promise<IngestResult> {
  const opened = await openFeed(feed, deps);
  if (opened.notModified) return emptyResult(feed, opened.mode, mappingFor(feed, undefined, deps).mapping);

  // One entry per key: its last record (a listing, or a removal) and where the key was seen. One ref
  // per key until a key repeats: an array per key would double the memory of a large feed.
  const byKey = new Map<string, Latest>();
  const rejections: Rejection[] = [];
  const dropped = { count: 0, examples: [] as { ref: RecordRef; url: string }[] };
  let records = 0;
  const as1252 = new RowsAs1252(opened.linesAs1252 ?? []);
  const items = itemsOf(feed, opened, deps);
  let next = await items.next();
  for (; !next.done; next = await items.next()) {
    const item = next.value;
    records++;
    if (item.kind === 'rejected') {
      as1252.record(item.rejection.row);
      rejections.push(item.rejection);
      // A rejected record with a readable key holds its listing (last record of a key wins).
      const { key } = item.rejection;
      if (key !== undefined) keep(byKey, key, item.rejection, refOf(item.rejection));
      continue;
    }
    as1252.record(item.ref.row);
    if (item.kind === 'listing') {
      keep(byKey, item.listing[feed.key] as string, item.listing, item.ref, item.unknown);
      if (item.droppedImages) noteDropped(dropped, item.ref, item.droppedImages);
    } else keep(byKey, item.key, undefined, item.ref);
  }
  const end = next.value;
  // An incremental feed (RESO since the watermark, an OpenImmo TEIL file) with nothing new is normal.
  if (records === 0 && opened.mode === 'full') {
    throw new FeedError('E_FEED_EMPTY', feed.id, `the feed has no records (${opened.name})`);
  }
  const listings: Listing[] = [];
  const removals: string[] = [];
  const held: HeldKey[] = [];
  const duplicates: DuplicateKey[] = [];
  const unknownMarkers: Record<string, number> = {};
  for (const [key, latest] of byKey) {
    if (latest.listing === undefined) removals.push(key);
    else if ('reason' in latest.listing) held.push(heldOf(key, latest.listing));
    else {
      listings.push(latest.listing);
      for (const field of latest.unknown ?? []) unknownMarkers[field] = (unknownMarkers[field] ?? 0) + 1;
    }
    if (Array.isArray(latest.refs)) duplicates.push({ key, refs: latest.refs });
  }
  // Duplicates in the order their keys first appeared.
  duplicates.sort((a, b) => a.refs[0]!.index - b.refs[0]!.index);
  const duplicateCount = duplicates.reduce((sum, d) => sum + d.refs.length - 1, 0);
  const decodedAs1252 = as1252.finish();
  return {
    feedId: feed.id,
    notModified: false,
    mode: opened.mode,
    listings,
    removals,
    rejections,
    held,
    rejectedWithoutKey: rejections.filter((r) => r.key === undefined).length,
    duplicates,
    stats: {
      records,
      valid: listings.length,
      rejected: rejections.length,
      removed: removals.length,
      duplicates: duplicateCount,
    },
    decodedAs1252,
    unknownMarkers,
    ...(dropped.count > 0 ? { droppedImages: dropped } : {}),
    sourceState: end.state,
    mapping: (end.mapping ?? mappingFor(feed, undefined, deps)).mapping,
  };
}

/**
 * The last record of a key: a listing, a rejection (the key is held), or a removal (`listing` unset);
 * and every record with the key.
 */
interface Latest {
  listing: Listing | Rejection | undefined;
  /** Fields of `listing` holding the unknown marker (a shared array). */
  unknown?: readonly string[] | undefined;
  refs: RecordRef | RecordRef[];
}

/** Image URLs that cannot be absolute: counted, the first few kept with where they were. */
function noteDropped(
  dropped: NonNullable<IngestResult['droppedImages']>,
  ref: RecordRef,
  urls: string[],
): void {
  dropped.count += urls.length;
  for (const url of urls) if (dropped.examples.length < 10) dropped.examples.push({ ref, url });
}

function refOf(rejection: Rejection): RecordRef {
  const { feedId, row, index, key } = rejection;
  return { feedId, index, ...(row !== undefined ? { row } : {}), ...(key !== undefined ? { key } : {}) };
}

function heldOf(key: string, rejection: Rejection): HeldKey {
  const { row, index, reason, message } = rejection;
  return { key, index, reason, message, ...(row !== undefined ? { row } : {}) };
}

/** Last wins: a later record of a key replaces the earlier one and takes its place at the end of the order. */
function keep(
  byKey: Map<string, Latest>,
  key: string,
  listing: Listing | Rejection | undefined,
  ref: RecordRef,
  unknown?: readonly string[],
): void {
  const latest = byKey.get(key);
  if (latest === undefined) {
    byKey.set(key, { listing, unknown, refs: ref });
    return;
  }
  byKey.delete(key);
  latest.listing = listing;
  latest.unknown = unknown;
  if (Array.isArray(latest.refs)) latest.refs.push(ref);
  else latest.refs = [latest.refs, ref];
  byKey.set(key, latest);
}

function emptyResult(feed: FeedConfig, mode: 'full' | 'incremental', mapping: unknown): IngestResult {
  return {
    feedId: feed.id,
    notModified: true,
    mode,
    listings: [],
    removals: [],
    rejections: [],
    held: [],
    rejectedWithoutKey: 0,
    duplicates: [],
    stats: { records: 0, valid: 0, rejected: 0, removed: 0, duplicates: 0 },
    sourceState: {},
    mapping,
    unknownMarkers: {},
  };
}
