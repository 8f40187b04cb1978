import type { Listing, MappingHint, RawFields } from '../normalize/index.ts';
import type { FeedSpec, KeySet, OpenedFeed, SourceDigest, SourcePause } from '../sources/index.ts';
import type { FeedState } from '../state/index.ts';
import type { MemoEntry } from './record-memo.ts';

/**
 * The part of a feed's config ingestion reads: what opening the feed needs, and the listing field
 * that identifies a listing (records are deduped by it, last wins).
 */
export interface IngestSpec extends FeedSpec {
  key: 'MLSNumber' | 'Url';
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

/** How many records were rejected for one field and reason (`Bedrooms not_a_number`). */
export interface RejectionCount {
  /** Absent for a rejection of the record as a whole (a broken row, a missing key). */
  field?: string;
  reason: string;
  count: number;
}

/** How many records had one problem (a record may have several: each is counted). */
export interface ProblemCount {
  field: string;
  reason: string;
  count: number;
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

/**
 * Held keys as a run reads them: how many, one by its place (`at`), all in order. An array is one
 * (tests, a plan for one key); a feed's are columns (`HeldKeys`) that make each hold when read, and
 * say a hold's key without making it (`keyAt`).
 */
export interface HeldKeyList extends Iterable<HeldKey> {
  readonly length: number;
  at(index: number): HeldKey | undefined;
  keyAt?(index: number): string;
}

/**
 * A record the run's memo knows (`record-memo.ts`): the listing key, mask and digest its unchanged
 * fields had last run, and the fields, to map again only if the listing is written.
 */
export interface KnownItem {
  kind: 'known';
  entry: MemoEntry;
  fields: RawFields;
  /** The record's `values` and `names`, when its format gives them (`RawRecord`). */
  values?: readonly string[] | undefined;
  names?: readonly string[] | undefined;
  fp: number;
  check: number;
  ref: RecordRef;
  /** Fields the record lacked, filled with the unknown marker, as the memo said. */
  unknown?: readonly string[];
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
      /** Facts left out because a value could not be read (`2.210` with `decimalComma` unsaid): a hint. */
      droppedFacts?: { key: string; path: string; value: string; message: string }[];
      /**
       * The record's fingerprint, when the run keeps a record memo and the listing may be memoized
       * (no unknown marker, no image dropped: nothing a report counts): see `record-memo.ts`.
       */
      fp?: number;
      /** The fingerprint's other 32 bits (`fingerprintCheck`). */
      check?: number;
      /** `unknown` as bits (`unknownMaskOf`), when `fp` is set. */
      unknownMask?: number;
    }
  | { kind: 'remove'; key: string; ref: RecordRef }
  | {
      kind: 'rejected';
      rejection: Rejection;
      /** Set when the format itself says the record is broken (fields that do not fit the header). */
      broken?: BrokenRow;
      /**
       * A record without its key: its cells, so a listing whose key appears in them is held rather
       * than deleted as gone (a tester: a blank MLS cell beside a Url holding the key deleted it).
       * Unlike a broken row's, kept only while there is room: one never stops other deletes.
       */
      keyless?: BrokenRow;
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
  /**
   * The cells are keys as a whole (a keyless record's: `keylessRow`), matched exactly, never as
   * words of a text: a draft row's `3` beds or `12 Main St` must not hold listings `3` and `12`.
   */
  exact?: true;
}

export interface DuplicateKey {
  key: string;
  /** The records carrying the key, in feed order (the first ones and the last); the last is kept. */
  refs: RecordRef[];
  /** Records of the key between the first ones and the last, not in `refs`. */
  omitted?: number;
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
  /**
   * Rejected records, in feed order: all of them, or the first of each field and reason a caller
   * asked to keep (`collectFeed`'s `rejectionsPerLabel`); `stats.rejected` counts them all.
   */
  rejections: Rejection[];
  /** Every rejection counted by its field and reason, most first. */
  rejectionCounts: RejectionCount[];
  /** Every problem of every rejected record counted by field and reason, most first. */
  problemCounts: ProblemCount[];
  /** Keys whose last record was rejected, in the order of their last records: their listings are held (see HeldKey). */
  held: HeldKeyList;
  /** Rejected records whose key could not be read: they hold nothing by their key. */
  rejectedWithoutKey: number;
  /**
   * Records whose fields do not fit the header, with their cells: a listing whose key appears in one
   * is held (see `BrokenRow`). At most `BROKEN_ROWS_KEPT` rows and `BROKEN_CELLS_BYTES` of text;
   * `brokenRowsOmitted` counts the rest, and then no listing gone from the feed is deleted.
   */
  brokenRows?: BrokenRow[];
  brokenRowsOmitted?: number;
  /**
   * Keys with more than one record, each with every record's ref, in the order the keys first
   * appeared: all of them, or the first a caller asked to keep (`collectFeed`'s
   * `duplicateKeysKept`); `stats.duplicates` counts every repeated record.
   */
  duplicates: DuplicateKey[];
  /** More keys repeated than `duplicates` lists (it holds the first to repeat). */
  duplicatesUnlisted?: true;
  stats: {
    records: number;
    valid: number;
    rejected: number;
    removed: number;
    duplicates: number;
    /** Records the run's memo knew (`record-memo.ts`): valid listings not mapped again. Absent without a memo. */
    known?: number;
  };
  /**
   * The feed's bytes were those the last run read (size and SHA-256): that run's reading of them is
   * this one's (`feed-reading.ts`), and no record was read or mapped. Its figures are that run's.
   */
  reused?: SourceDigest;
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
  /** Not modified: the validators the source's 304 carried (`OpenedFeed.notModifiedBy`), never saved. */
  notModifiedBy?: Partial<FeedState>;
  /** A feed read to its end: its bytes' size and SHA-256 (a `url:` feed's as they arrived; a feed reading is kept by them, `feed-reading.ts`). */
  sourceDigest?: SourceDigest;
  /** Keys the feed lists without sending them this run (a RESO key sweep): kept, not deleted. */
  present?: KeySet;
  /** The source stopped on the provider's budget: when it can go on. */
  pause?: SourcePause;
  /** The source stopped at its per-run limit and goes on in the next run. */
  continues?: boolean;
  /** Where a RESO replication stands; how a CSV read to a connection's close was read. */
  sourceNote?: string;
  /** A CSV read to the connection's close, its end unverifiable (`SourceEnd.unframed`). */
  unframed?: boolean;
  /** Asks the source which keys gone from its read it still lists (`OpenedFeed.stillListed`: RESO). */
  stillListed?: OpenedFeed['stillListed'];
  /** The mapping in use (preset merged, or inferred from a CSV header), for `validate` to print. */
  mapping: unknown;
  /**
   * Said once about the mapping as a whole, besides the rejections it explains: a CSV header with
   * no column recognized as the listing URL (`code: no_url_column`) and how to map one.
   */
  hints?: MappingHint[];
}
