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
export function ingestFeed(feed: FeedConfig, deps: IngestDeps): Promise<IngestResult> {
  return collectFeed(feed, deps, (listing) => listing);
}

/**
 * `ingestFeed`, keeping of each valid listing only what `keep` makes of it, as the record is read:
 * a sync keeps a digest per listing and spills the record (issue 13), so the feed's listings are
 * never all in memory at once. `keep` runs for every valid record, also one a later record of its
 * key replaces.
 */
export async function collectFeed<T>(
  feed: FeedConfig,
  deps: IngestDeps,
  keep: (listing: Listing, key: string) => T,
): Promise<IngestResult<T>> {
  const opened = await openFeed(feed, deps);
  if (opened.notModified) return emptyResult(feed, opened.mode, mappingFor(feed, undefined, deps).mapping);

  // One entry per key: its last record (a listing, or a removal) and where the key was seen. One ref
  // per key until a key repeats: an array per key would double the memory of a large feed.
  const byKey = new Map<string, Latest<T>>();
  const rejections: Rejection[] = [];
  const dropped = { count: 0, examples: [] as { ref: RecordRef; url: string }[] };
  let records = 0;
  const as1252 = new RowsAs1252(opened.linesAs1252 ?? []);
  const items = itemsOf(feed, opened, deps);
  let next = await items.next();
  for (; !next.done; next = await items.next())
    for (const item of next.value) {
      records++;
      if (item.kind === 'rejected') {
        as1252.record(item.rejection.row);
        rejections.push(item.rejection);
        // A rejected record with a readable key holds its listing (last record of a key wins).
        const { key } = item.rejection;
        if (key !== undefined) remember(byKey, key, undefined, item.rejection, refOf(item.rejection));
        continue;
      }
      as1252.record(item.ref.row);
      if (item.kind === 'listing') {
        const key = item.listing[feed.key] as string;
        remember(byKey, key, keep(item.listing, key), undefined, item.ref, item.unknown);
        if (item.droppedImages) noteDropped(dropped, item.ref, item.droppedImages);
      } else remember(byKey, item.key, undefined, undefined, item.ref);
    }
  const end = next.value;
  // An incremental feed (RESO since the watermark, an OpenImmo TEIL file) with nothing new is normal.
  if (records === 0 && opened.mode === 'full') {
    throw new FeedError('E_FEED_EMPTY', feed.id, `the feed has no records (${opened.name})`);
  }
  const listings: T[] = [];
  const removals: string[] = [];
  const held: HeldKey[] = [];
  const duplicates: DuplicateKey[] = [];
  const unknownMarkers: Record<string, number> = {};
  for (const [key, latest] of byKey) {
    if (latest.rejection) held.push(heldOf(key, latest.rejection));
    else if (latest.listing === undefined) removals.push(key);
    else {
      listings.push(latest.listing);
      for (const field of latest.unknown ?? []) unknownMarkers[field] = (unknownMarkers[field] ?? 0) + 1;
    }
    if (latest.refs !== undefined) duplicates.push({ key, refs: latest.refs });
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
    ...(end.hints.length > 0 ? { hints: end.hints } : {}),
  };
}

/**
 * The last record of a key: a listing (what `keep` made of it), a rejection (the key is held), or a
 * removal (neither); and every record with the key.
 */
interface Latest<T> {
  listing: T | undefined;
  rejection: Rejection | undefined;
  /** Fields of `listing` holding the unknown marker (a shared array). */
  unknown: readonly string[] | undefined;
  /** Where the key was first seen, as numbers: a `RecordRef` per key would be ~60 bytes a listing. */
  index: number;
  row: number | undefined;
  /** Every record with the key, once it repeats. */
  refs: RecordRef[] | undefined;
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
function remember<T>(
  byKey: Map<string, Latest<T>>,
  key: string,
  listing: T | undefined,
  rejection: Rejection | undefined,
  ref: RecordRef,
  unknown?: readonly string[],
): void {
  const latest = byKey.get(key);
  if (latest === undefined) {
    byKey.set(key, { listing, rejection, unknown, index: ref.index, row: ref.row, refs: undefined });
    return;
  }
  byKey.delete(key);
  latest.listing = listing;
  latest.rejection = rejection;
  latest.unknown = unknown;
  if (latest.refs === undefined) {
    const { index, row } = latest;
    latest.refs = [{ feedId: ref.feedId, index, ...(row !== undefined ? { row } : {}), key }];
  }
  latest.refs.push(ref);
  byKey.set(key, latest);
}

function emptyResult<T>(feed: FeedConfig, mode: 'full' | 'incremental', mapping: unknown): IngestResult<T> {
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
