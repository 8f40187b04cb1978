import { LISTING_FIELDS, type Listing, type MappingConfig, type RawFields } from '../normalize/index.ts';
import type { FeedOpener, OpenedFeed, RawRecord } from '../sources/index.ts';
import type { FeedState } from '../state/index.ts';

/**
 * The mapping of records that already carry the listing's field names (spec 2.4), each field read
 * from the field of the same name: what a test feed of `listing(n)` records is mapped with, so that
 * the whole production path (mapping, validation, holds, the run) sees them as a feed's records.
 * `ExtensionColumn` is the run's (owner and hash tags), `AreaUnit` the mapping's (`areaUnit`).
 */
export const LISTING_MAPPING: MappingConfig = {
  fields: Object.fromEntries(
    LISTING_FIELDS.filter((f) => f !== 'ExtensionColumn' && f !== 'AreaUnit').map((f) => [
      f,
      f === 'Images' ? { from: 'Images' } : f,
    ]),
  ),
};

/** What a test feed yields besides its records: as `openFeed` would say it. */
export interface RecordsFeedOptions {
  /** `incremental`: listings missing from it are not gone (RESO since its watermark). Default `full`. */
  mode?: 'full' | 'incremental';
  /** Conditional GET answered 304: no record. */
  notModified?: boolean;
  /** The source state the feed would leave (validators: `{ etag: '"v2"' }`). */
  state?: Partial<FeedState>;
  /** Name in messages (`Record 3 of <name>`). Default `records`. */
  name?: string;
  /** Called when the feed is opened, with what the run hands the reader (a stop signal…). */
  onOpen?: (deps: Parameters<FeedOpener>[1]) => void;
}

/** Records per batch, as a reader yields them (`src/sources/formats/batch.ts`). */
const BATCH = 64;

/**
 * A feed of raw records held in memory, opened through the run's reader interface (`SyncDeps.open`):
 * `listing(n)` objects (with `LISTING_MAPPING`), or any records a feed's mapping reads. A record
 * `{ row, fields }` carries its row number, and may carry its `values` and `names` as a CSV row
 * does. The records after the reader are read as production reads them; an empty full feed fails
 * as a real one does (`E_FEED_EMPTY`).
 */
export function recordsFeed(
  records: readonly (Listing | RawFields | Rowed)[],
  options: RecordsFeedOptions = {},
): FeedOpener {
  return async (_feed, deps) => {
    options.onOpen?.(deps);
    deps.signal?.throwIfAborted();
    const raw: RawRecord[] = records.map((record, index) =>
      isRowed(record) ? { ...record, index } : { index, fields: record },
    );
    const opened: OpenedFeed = {
      notModified: options.notModified ?? false,
      mode: options.mode ?? 'full',
      name: options.name ?? 'records',
      records: batches(options.notModified ? [] : raw),
      state: options.state ?? {},
    };
    return opened;
  };
}

type Rowed = { row: number; fields: RawFields; values?: readonly string[]; names?: readonly string[] };

function isRowed(record: object): record is Rowed {
  return 'row' in record && 'fields' in record && typeof (record as { row: unknown }).row === 'number';
}

async function* batches(records: readonly RawRecord[]): AsyncGenerator<RawRecord[]> {
  for (let at = 0; at < records.length; at += BATCH) yield records.slice(at, at + BATCH);
}
