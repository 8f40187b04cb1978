import type { FeedConfig } from '../config/index.ts';
import type { BrokenRow, FeedItem } from '../ingest/index.ts';
import { containsWord, fieldMask } from '../reconcile/index.ts';
import type { IngestDeps, RawRecord } from '../sources/index.ts';
import { keyOfItem, type ScannedFeed, scanFeed } from './scan-feed.ts';
import type { BrokenMention, RecordPlace } from './types.ts';

/** A record of the feed with its item. */
export interface FoundRecord {
  item: FeedItem;
  record: RawRecord;
  place: RecordPlace;
}

export interface FoundRecords extends ScannedFeed {
  /**
   * The records with the key, in feed order: the first `EARLIER_KEPT` and the last (which decides).
   * A key on 150k rows held them all and ran the image's heap out.
   */
  matches: FoundRecord[];
  /** Records with the key between those in `matches`. */
  earlierOmitted: number;
  /** Broken records (fields that do not fit the header) whose text holds the key: they hold its listing. */
  mentions: BrokenMention[];
  /** A feed keyed by Url: the records whose MLSNumber is the key (someone gave the MLSNumber). */
  byMlsNumber: { place: RecordPlace; url: string }[];
  /** The same rows as the plan reads them. */
  brokenRows: BrokenRow[];
  /** The feed's first record: the mapping an inferred (CSV header) feed uses comes from it. */
  first: RawRecord | undefined;
  /** The fields the feed sets on some listing (`fieldMask`'s bits): the fields a sync clears a value in. */
  fieldsSet: number;
}

/** Mentions kept: a key found in more broken rows than this says enough. */
const MENTIONS_KEPT = 10;
/** Earlier records of the key kept (and shown), besides the last. */
export const EARLIER_KEPT = 10;

/** Read the feed and keep the records with `key` (trimmed, case-sensitive, as the run matches). */
export async function findRecords(
  feed: FeedConfig,
  key: string,
  deps: Pick<IngestDeps, 'signal' | 'logger' | 'now' | 'budget'>,
): Promise<FoundRecords> {
  const matches: FoundRecord[] = [];
  const mentions: BrokenMention[] = [];
  const brokenRows: BrokenRow[] = [];
  const byMlsNumber: FoundRecords['byMlsNumber'] = [];
  let first: RawRecord | undefined;
  let earlierOmitted = 0;
  let fieldsSet = 0;
  const scanned = await scanFeed(feed, deps, (item, record, name) => {
    first ??= record;
    if (item.kind === 'listing') fieldsSet |= fieldMask(item.listing);
    const itemKey = keyOfItem(item);
    if (itemKey === key) {
      const found = { item, record, place: placeOf(record, name) };
      // The first few and the last: the one before it is dropped when a later one comes.
      if (matches.length <= EARLIER_KEPT) matches.push(found);
      else {
        matches[matches.length - 1] = found;
        earlierOmitted++;
      }
    }
    if (feed.key === 'Url' && item.kind === 'listing' && item.listing.MLSNumber?.trim() === key)
      if (byMlsNumber.length < MENTIONS_KEPT)
        byMlsNumber.push({ place: placeOf(record, name), url: item.ref.key ?? '' });
    // A broken row holds every listing whose key appears in its text, as a whole word (issue 19).
    const broken = item.kind === 'rejected' ? (item.broken ?? item.keyless) : undefined;
    if (broken && brokenRows.length < MENTIONS_KEPT && containsWord(broken.cells.join('\u0000'), key)) {
      brokenRows.push(broken);
      mentions.push(mentionOf(record, name, item.kind === 'rejected' ? item.rejection.message : ''));
    }
  });
  return { ...scanned, matches, earlierOmitted, mentions, brokenRows, byMlsNumber, first, fieldsSet };
}

/** A broken record as `explain` shows it: where, why, and its cells in order (under the header's names). */
function mentionOf(record: RawRecord, name: string, message: string): BrokenMention {
  const columns = Object.keys(record.fields).filter((column) => column !== '$tag');
  const values = record.problem?.values ?? columns.map((column) => record.fields[column]);
  const cells = values.map((value, i) => ({
    ...(columns[i] !== undefined ? { column: columns[i] } : {}),
    value: typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value),
  }));
  const shape = record.problem?.shape;
  return { ...placeOf(record, name), message, ...(shape ? { shape } : {}), cells };
}

/** Where a record is: its row (CSV, BLM), its element (XML), its ListingKey (RESO). */
export function placeOf(record: RawRecord, name: string): RecordPlace {
  const place: RecordPlace = { where: '', index: record.index };
  if (record.row !== undefined) place.row = record.row;
  const listingKey = record.fields.ListingKey;
  if (typeof listingKey === 'string' && listingKey.trim() !== '') place.listingKey = listingKey.trim();
  const element = record.fields.$tag;
  if (typeof element === 'string') place.element = element;
  place.where = wordPlace(place, name);
  return place;
}

function wordPlace(place: RecordPlace, name: string): string {
  if (place.row !== undefined) return `row ${place.row} of ${name}`;
  const what = place.element ? `<${place.element}> element` : 'record';
  const listingKey = place.listingKey ? ` (ListingKey ${place.listingKey})` : '';
  return `${what} ${place.index + 1} of ${name}${listingKey}`;
}
