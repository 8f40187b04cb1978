import { setImmediate } from 'node:timers/promises';
import type { Listing } from '../normalize/index.ts';
import type { IngestDeps } from '../sources/index.ts';
import { FeedError, openFeed, type SourceDigest } from '../sources/index.ts';
import { LatestByKey, NOTHING_RARE } from './latest-by-key.ts';
import { itemsOf, type MemoReading, mappingFor } from './read-feed.ts';
import { RejectionLog } from './rejection-log.ts';
import { RowsAs1252 } from './rows-as-1252.ts';
import type {
  BrokenRow,
  DuplicateKey,
  HeldKey,
  IngestResult,
  IngestSpec,
  KnownItem,
  RecordRef,
  Rejection,
} from './types.ts';

/**
 * Read a whole feed into the run's inputs: valid listings deduped by the feed's key (last wins),
 * removals, rejections and duplicates. Never returns for a failed feed: a feed that cannot be
 * fetched or parsed, or has zero records, throws FeedError, so nothing mistakes it for an empty feed.
 */
export function ingestFeed(feed: IngestSpec, deps: IngestDeps): Promise<IngestResult> {
  return collectFeed(feed, deps, (listing) => listing);
}

/**
 * `ingestFeed`, keeping of each valid listing only what `keep` makes of it, as the record is read:
 * a sync keeps a digest per listing and spills the record (issue 13), so the feed's listings are
 * never all in memory at once. `keep` runs for every valid record, also one a later record of its
 * key replaces.
 */
export interface CollectOptions {
  /**
   * Rejections kept whole per field and reason (the first ones, in feed order); all are counted
   * (`stats.rejected`, `rejectionCounts`, `problemCounts`). Unbounded unless given: a sync keeps
   * what its report shows, `validate` what it prints.
   */
  rejectionsPerLabel?: number;
  /** Handed every rejection as it is read, kept or not: `validate --json` spills them to print them all. */
  spillRejection?: (rejection: Rejection) => void;
  /**
   * Repeated keys listed in `duplicates` with every record (the first to repeat); `stats.duplicates`
   * counts every repeated record. Unbounded unless given: a sync lists none.
   */
  duplicateKeysKept?: number;
  /**
   * The run's record memo (`record-memo.ts`): a record it knows is handed to `keepKnown`, not
   * mapped; a listing it may learn comes to `keep` with its fingerprint.
   */
  memo?: MemoReading;
  keepKnown?: (item: KnownItem) => unknown;
  /** Called once, when the feed gives its first records (a 304, a feed that fails before any, never). */
  onFirstRecords?: () => void;
}

/** The longest the feed's records hold the event loop between two turns of it. */
const TURN_MS = 2;

export async function collectFeed<T>(
  feed: IngestSpec,
  deps: IngestDeps,
  keep: (listing: Listing, key: string, memo?: { fp?: number; check?: number; unknownMask?: number }) => T,
  options: CollectOptions = {},
): Promise<IngestResult<T>> {
  const { memo, keepKnown } = options;
  if (memo !== undefined && keepKnown === undefined) throw new Error('a memo needs keepKnown');
  const opened = await (deps.open ?? openFeed)(feed, deps);
  if (opened.notModified) {
    const result = emptyResult<T>(feed, opened.mode, mappingFor(feed, undefined, deps).mapping);
    return opened.notModifiedBy ? { ...result, notModifiedBy: opened.notModifiedBy } : result;
  }

  // One entry per key: its last record (a listing, or a removal) and where the key was seen. One ref
  // per key until a key repeats: an array per key would double the memory of a large feed.
  const byKey = new LatestByKey<T>(options.duplicateKeysKept);
  const rejections = new RejectionLog(options.rejectionsPerLabel, options.spillRejection);
  const dropped = { count: 0, examples: [] as { ref: RecordRef; url: string }[] };
  let records = 0;
  let known = 0;
  const broken = new BrokenRows();
  const as1252 = new RowsAs1252(opened.linesAs1252 ?? []);
  const items = itemsOf(feed, opened, deps, memo);
  let next = await items.next();
  let turn = performance.now();
  if (!next.done) options.onFirstRecords?.();
  for (; !next.done; next = await items.next()) {
    // A feed read from a fast disk never waits: its batches follow as microtasks and would hold the
    // event loop for the whole file. A turn every few milliseconds lets the platform's pages (read
    // meanwhile), a job's lock renewal and a heartbeat go on.
    if (performance.now() - turn > TURN_MS) {
      await setImmediate();
      turn = performance.now();
    }
    for (const item of next.value) {
      records++;
      if (item.kind === 'rejected') {
        as1252.record(item.rejection.row);
        rejections.add(item.rejection);
        if (item.broken) broken.add(item.broken);
        else if (item.keyless) broken.addKeyless(item.keyless);
        // A rejected record with a readable key holds its listing (last record of a key wins).
        const { key } = item.rejection;
        if (key !== undefined)
          byKey.remember(key, undefined, heldOf(key, item.rejection), refOf(item.rejection));
        continue;
      }
      as1252.record(item.ref.row);
      if (item.kind === 'known') {
        known++;
        byKey.remember(item.entry.key, keepKnown!(item) as T, undefined, item.ref, item.unknown);
      } else if (item.kind === 'listing') {
        const key = item.listing[feed.key] as string;
        byKey.remember(key, keep(item.listing, key, item), undefined, item.ref, item.unknown);
        if (item.droppedImages) noteDropped(dropped, item.ref, item.droppedImages);
      } else byKey.remember(item.key, undefined, undefined, item.ref);
    }
  }
  const end = next.value;
  // What the source says now that it is read (a RESO replication that stopped early is incremental).
  const sourceEnd = opened.end?.() ?? {};
  const mode = sourceEnd.mode ?? opened.mode;
  // An incremental feed (RESO since the watermark, an OpenImmo TEIL file) with nothing new is normal.
  if (records === 0 && mode === 'full' && !sourceEnd.present) {
    throw new FeedError('E_FEED_EMPTY', feed.id, `the feed has no records (${opened.name})`);
  }
  // A feed without a repeated key is visited slot by slot in order: its listings are compacted in
  // the slots' own array, not copied (a million refs are 8 MB, and a copy grown by pushes held ~26
  // MB of the heap at the end of the feed, the 1M no-op's peak). Otherwise one array of the size.
  const listings = (byKey.repeated ? new Array<T>(byKey.listings.length) : byKey.listings) as T[];
  let listed = 0;
  const removals: string[] = [];
  const heldSlots: number[] = [];
  const duplicates: DuplicateKey[] = [];
  const unknownMarkers: Record<string, number> = {};
  byKey.forEachSlot((slot) => {
    const listing = byKey.listings[slot];
    const { unknown, refs, omitted } = byKey.rare.get(slot) ?? NOTHING_RARE;
    // The key's string is made again only for a result that names it.
    if (byKey.isHeld(slot)) heldSlots.push(slot);
    else if (listing === undefined) removals.push(byKey.keyAt(slot));
    else {
      listings[listed++] = listing;
      for (const field of unknown ?? []) unknownMarkers[field] = (unknownMarkers[field] ?? 0) + 1;
    }
    if (refs !== undefined)
      duplicates.push({ key: byKey.keyAt(slot), refs, ...(omitted !== undefined ? { omitted } : {}) });
  });
  listings.length = listed;
  // Duplicates in the order their keys first appeared.
  duplicates.sort((a, b) => a.refs[0]!.index - b.refs[0]!.index);
  const duplicateCount = byKey.duplicates;
  const decodedAs1252 = as1252.finish();
  return {
    feedId: feed.id,
    notModified: false,
    mode,
    listings,
    removals,
    rejections: rejections.kept,
    rejectionCounts: rejections.counts(),
    problemCounts: rejections.problems(),
    held: byKey.heldOf(heldSlots),
    rejectedWithoutKey: rejections.withoutKey,
    ...broken.result(),
    duplicates,
    ...(byKey.unlisted ? { duplicatesUnlisted: true as const } : {}),
    stats: {
      records,
      valid: listings.length,
      rejected: rejections.count,
      removed: removals.length,
      duplicates: duplicateCount,
      ...(memo ? { known } : {}),
    },
    decodedAs1252,
    unknownMarkers,
    ...(dropped.count > 0 ? { droppedImages: dropped } : {}),
    sourceState: { ...end.state, ...sourceEnd.state },
    ...sourceDigestOf(opened.digest),
    ...(sourceEnd.present ? { present: sourceEnd.present } : {}),
    ...(sourceEnd.pause ? { pause: sourceEnd.pause } : {}),
    ...(sourceEnd.continues ? { continues: true } : {}),
    ...(sourceEnd.note ? { sourceNote: sourceEnd.note } : {}),
    ...(sourceEnd.unframed ? { unframed: true } : {}),
    ...(opened.stillListed ? { stillListed: opened.stillListed } : {}),
    mapping: (end.mapping ?? mappingFor(feed, undefined, deps)).mapping,
    ...(end.hints.length > 0 ? { hints: end.hints } : {}),
  };
}

function sourceDigestOf(digest: (() => SourceDigest | undefined) | undefined): {
  sourceDigest?: SourceDigest;
} {
  const value = digest?.();
  return value ? { sourceDigest: value } : {};
}

/** Broken rows a run keeps the cells of (the rest are counted, and then no listing gone from the feed is deleted). */
export const BROKEN_ROWS_KEPT = 10_000;
/** Characters of broken rows' cells a run keeps. */
export const BROKEN_CELLS_CHARS = 8 << 20;

/** The broken rows of a feed, bounded: a file of broken rows must not fill the memory. */
class BrokenRows {
  readonly #rows: BrokenRow[] = [];
  #chars = 0;
  #omitted = 0;

  add(row: BrokenRow): void {
    const chars = row.cells.reduce((sum, cell) => sum + cell.length, 0);
    if (this.#rows.length >= BROKEN_ROWS_KEPT || this.#chars + chars > BROKEN_CELLS_CHARS) {
      this.#omitted++;
      return;
    }
    this.#chars += chars;
    this.#rows.push(row);
  }

  /**
   * A keyless record's cells, as a broken row's: past the room kept, counted, and then no listing
   * gone from the feed is deleted (a tester's 1,100 keyless rows: those past the room lost their
   * listings). Only a cell that names no listing is left out of it (`keylessRow`), so it takes
   * thousands of keyless rows naming listings to get there.
   */
  addKeyless(row: BrokenRow): void {
    if (row.cells.length === 0) return;
    this.add(row);
  }

  result(): { brokenRows?: BrokenRow[]; brokenRowsOmitted?: number } {
    return {
      ...(this.#rows.length > 0 ? { brokenRows: this.#rows } : {}),
      ...(this.#omitted > 0 ? { brokenRowsOmitted: this.#omitted } : {}),
    };
  }
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

/**
 * What a hold keeps of a rejected record (`HeldKeyColumns` stores it as bytes and numbers as it is
 * remembered): not the whole rejection (most are not kept, see RejectionLog).
 */
function heldOf(key: string, rejection: Rejection): HeldKey {
  const { row, index, reason, message } = rejection;
  return { key, index, reason, message, ...(row !== undefined ? { row } : {}) };
}

function emptyResult<T>(feed: IngestSpec, mode: 'full' | 'incremental', mapping: unknown): IngestResult<T> {
  return {
    feedId: feed.id,
    notModified: true,
    mode,
    listings: [],
    removals: [],
    rejections: [],
    rejectionCounts: [],
    problemCounts: [],
    held: [],
    rejectedWithoutKey: 0,
    duplicates: [],
    stats: { records: 0, valid: 0, rejected: 0, removed: 0, duplicates: 0 },
    sourceState: {},
    mapping,
    unknownMarkers: {},
  };
}
