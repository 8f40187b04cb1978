import type { Logger } from '../logger.ts';
import type { MappingConfig, RawFields } from '../normalize/index.ts';
import type { FeedState } from '../state/index.ts';
import type { SourceConfig } from './source-schema.ts';

/**
 * The part of a feed's config that opening and reading it needs (src/config validates the whole
 * feed entry): its id for messages, where and in which format it is, and the mapping (its preset
 * names the record element of an XML feed and may refuse a source it cannot read).
 */
export interface FeedSpec {
  id: string;
  source: SourceConfig;
  mapping: MappingConfig;
}

/** A record as a source yields it, before mapping. */
export interface RawRecord {
  /** Line of the record in the file, as a person counts (CSV). */
  row?: number;
  /** 0-based position among the feed's records. */
  index: number;
  fields: RawFields;
  /**
   * The format itself says the record is broken (a row with the wrong field count): rejected by
   * row. `alternate` is another reading of the same fields (a short or long row read from its right
   * end): the key is trusted, and its listing held, only when both readings give the same key.
   */
  problem?: {
    reason: string;
    message: string;
    alternate?: RawFields;
    /** `shifted`: more fields than the header; `cut`: fewer. */
    shape?: 'shifted' | 'cut';
    /** Every raw value of the record, where `fields` and `alternate` do not carry them all. */
    values?: readonly string[];
  };
}

export interface IngestDeps {
  /** The feed's state from the last successful run (validators, watermark). */
  state: FeedState;
  signal?: AbortSignal;
  logger?: Logger;
  /** Clock, for the RESO watermark, the full-run interval and `daysSince` rules. Default `() => new Date()`. */
  now?: () => Date;
  /** Ignore validators and the RESO watermark: fetch everything. */
  forceFull?: boolean;
}

/**
 * An opened feed (the one name for it, from `openFeed` to the end of ingestion): its records, not
 * yet read, or the news that it has not changed.
 */
export interface OpenedFeed {
  notModified: boolean;
  mode: 'full' | 'incremental';
  /** Name used in messages (`acme.csv`). */
  name: string;
  /**
   * Its records in batches, in feed order (a batch per chunk read or page fetched, never empty):
   * one await per batch rather than per record keeps the async machinery off the hot path.
   */
  records: AsyncIterable<readonly RawRecord[]>;
  /** The source state to remember after a successful run, as known when the feed was opened (validators). */
  state: Partial<FeedState>;
  /**
   * The source state after one more record, for sources whose state depends on what they yield (the
   * RESO watermark is the newest timestamp read). A pure reducer: nothing is patched in place.
   */
  nextState?: (state: Partial<FeedState>, record: RawRecord) => Partial<FeedState>;
  /** File lines read as Windows-1252 (`encoding: auto`), ascending; complete once `records` is exhausted. */
  linesAs1252?: readonly number[];
}
