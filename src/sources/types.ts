import type { Logger } from '../logger.ts';
import type { RawFields } from '../normalize/field-path.ts';
import type { MappingHint } from '../normalize/infer-csv-mapping.ts';
import type { Listing } from '../normalize/listing-schema.ts';
import type { FeedState } from '../state/state-store.ts';

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

/** Where a record came from, for messages and duplicate reports. */
export interface RecordRef {
  feedId: string;
  row?: number;
  index: number;
  key?: string;
}

/** One record that could not become a listing, and why. */
export interface Rejection {
  feedId: string;
  row?: number;
  index: number;
  key?: string;
  field?: string;
  /** The raw value from the feed. */
  value?: unknown;
  /** Stable code: missing, not_a_number, unknown_status, unknown_unit, invalid_enum, out_of_range, invalid_url, … */
  reason: string;
  /** `Row 812 of acme.csv: Bedrooms "three" is not a number` (the first problem; `problems` has them all) */
  message: string;
  /**
   * Every problem of the record, in field order of discovery: the first is the one `field`,
   * `value`, `reason` and `message` describe. A user fixes them all in one pass. Ingestion always
   * sets it; optional so that rejections built elsewhere (tests, older saved reports) still type.
   */
  problems?: RecordProblem[];
}

/** One problem of a rejected record: `{ field: 'Bedrooms', value: 'three', reason: 'not_a_number', message }`. */
export interface RecordProblem {
  field: string;
  value?: unknown;
  reason: string;
  /** `Bedrooms "three" is not a number` (without the row: the rejection says where). */
  message: string;
}

/**
 * A key whose last record in the feed was rejected. Its listing is held: left exactly as it is on the
 * platform (never updated, never deleted), and reported. A bad cell must never cost a listing.
 */
export interface HeldKey {
  key: string;
  row?: number;
  index: number;
  /** The rejection's stable reason code (`not_a_number`, `missing`…). */
  reason: string;
  /** The rejection's message: feed, row, field, value and reason. */
  message: string;
}

export type FeedItem =
  | {
      kind: 'listing';
      listing: Listing;
      ref: RecordRef;
      /** Fields the record lacked, filled with the unknown marker 0 (the mapping's `missing` policy). */
      unknown?: readonly string[];
      /** Image URLs left out because they cannot be absolute http(s) URLs. */
      droppedImages?: string[];
    }
  | { kind: 'remove'; key: string; ref: RecordRef }
  | {
      kind: 'rejected';
      rejection: Rejection;
      /** Set when the format itself says the record is broken (fields that do not fit the header). */
      broken?: BrokenRow;
    };

/**
 * A record whose fields do not fit its header (a shifted or cut row): which listing it was cannot be
 * told, so every listing whose key appears anywhere in its text is held, and nothing else.
 */
export interface BrokenRow {
  row?: number;
  index: number;
  /** `the shifted row 812 of acme.csv`: how a hold names it. */
  where: string;
  /** Its distinct non-empty cell values, trimmed, from every reading of the row. */
  cells: readonly string[];
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

export interface DuplicateKey {
  key: string;
  /** Every record carrying the key, in feed order; the last one is kept. */
  refs: RecordRef[];
}

/** A feed read whole. `T`: what is kept of each valid listing (the listing itself unless a caller says otherwise). */
export interface IngestResult<T = Listing> {
  feedId: string;
  /** Conditional GET answered 304: nothing else is meaningful, the run skips. */
  notModified: boolean;
  /** `incremental` (RESO) means absent listings must NOT be deleted. */
  mode: 'full' | 'incremental';
  /** Valid listings, deduped by the feed's key, last wins. */
  listings: T[];
  /** Keys whose feed status says "no longer listed". */
  removals: string[];
  rejections: Rejection[];
  /** Keys whose last record was rejected: their listings are held (see HeldKey). */
  held: HeldKey[];
  /** Rejected records whose key could not be read: they hold nothing by their key. */
  rejectedWithoutKey: number;
  /**
   * Records whose fields do not fit the header, with their cells: a listing whose key appears in one
   * is held (see `BrokenRow`). At most `BROKEN_ROWS_KEPT` rows and `BROKEN_CELLS_BYTES` of text;
   * `brokenRowsOmitted` counts the rest, and then no listing gone from the feed is deleted.
   */
  brokenRows?: BrokenRow[];
  brokenRowsOmitted?: number;
  duplicates: DuplicateKey[];
  stats: { records: number; valid: number; rejected: number; removed: number; duplicates: number };
  /**
   * Per field, how many of `listings` carry the unknown marker (0: the feed does not say), e.g.
   * `{ YearBuilt: 120, LotArea: 31 }`. Fields with no marker are absent. For `validate`, the run
   * report and the job result: a user tells the chatbot what 0 means there.
   */
  unknownMarkers: Record<string, number>;
  /**
   * Image URLs left out of listings because they cannot be absolute http(s) URLs (relative without
   * `mapping.baseUrl`, `ftp:`, `data:`): how many, and the first few with where they were.
   */
  droppedImages?: { count: number; examples: { ref: RecordRef; url: string }[] };
  /**
   * Rows read as Windows-1252 because their bytes are not valid UTF-8 (`encoding: auto`): CSV rows
   * as rejections number them; for XML and JSON, lines of the file. Every other record is UTF-8.
   */
  decodedAs1252?: number[];
  /** Save ONLY after the whole run succeeded. */
  sourceState: Partial<FeedState>;
  /** The mapping in use (preset merged, or inferred from a CSV header), for `validate` to print. */
  mapping: unknown;
  /**
   * Said once about the mapping as a whole, besides the rejections it explains: a CSV header with
   * no column recognized as the listing URL (`code: no_url_column`) and how to map one.
   */
  hints?: MappingHint[];
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
