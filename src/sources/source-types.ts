import type { BudgetStore } from '../budget/index.ts';
import type { Logger } from '../logger.ts';
import type { MappingConfig, RawFields } from '../normalize/index.ts';
import type { FeedState } from '../state/index.ts';
import type { SourceConfig } from './source-schema.ts';
import type { SourceDigest } from './transports/read-file.ts';

/**
 * The part of a feed's config that opening and reading it needs (src/config validates the whole
 * feed entry): its id for messages, where and in which format it is, and the mapping (its preset
 * names the record element of an XML feed and may refuse a source it cannot read).
 */
export interface FeedSpec {
  id: string;
  source: SourceConfig;
  mapping: MappingConfig;
  /** The listing field that names a listing: a RESO key sweep reads the keys the feed lists by it. */
  key?: 'MLSNumber' | 'Url';
}

/** A record as a source yields it, before mapping. */
export interface RawRecord {
  /** Line of the record in the file, as a person counts (CSV). */
  row?: number;
  /** 0-based position among the feed's records. */
  index: number;
  fields: RawFields;
  /**
   * A flat record's values in the order of `names` (a CSV row that fits its header): `fields` is
   * the two zipped. `names` is one array for every record of the feed. The run keeps a record it
   * knew by its values alone (`reconcile/run-memo.ts`).
   */
  values?: readonly string[];
  names?: readonly string[];
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
  /**
   * The source marks the record a deletion (MLS Grid `MlgCanView: false`): its listing is removed,
   * as a removal status removes it, whatever its other fields say.
   */
  removed?: true;
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
  /**
   * How the feed is opened: `openFeed` (its transport and format) unless said otherwise. Tests and
   * benchmarks hand a feed's raw records through here (`src/testing/records-feed.ts`), so that
   * everything after the reader (mapping, validation, holds, the run) is the production path.
   */
  open?: FeedOpener;
  /** Where provider request budgets are counted (the state store's); default one for the process. */
  budget?: BudgetStore;
  /**
   * The clock of those budgets: real time, whatever `now` says. A run at a clock of the user's
   * (`--now`) must not write its times into a budget other processes share: a future time would
   * hold every other run on the key back until then, a past one would be forgotten by them at once.
   * Tests inject one.
   */
  budgetClock?: () => Date;
}

/**
 * A set of keys a feed lists, as the plan needs it: membership only. A RESO key sweep holds a
 * hash per key rather than the keys (formats/reso/key-set.ts).
 */
export interface KeySet {
  readonly size: number;
  has(key: string): boolean;
}

/** A source that stopped before the end of the feed on purpose, and when it can go on. */
export interface SourcePause {
  /** ISO time from which the provider's budget allows the next request. */
  resumesAt: string;
  /** `the per-hour budget is spent until …` */
  reason: string;
}

/**
 * What a source says once its records are read, where that differs from what it said on opening:
 * a RESO replication that stopped before the end reads as incremental (absent listings are kept),
 * one that ended with a key sweep as full over the keys the sweep found.
 */
export interface SourceEnd {
  mode?: 'full' | 'incremental';
  /** Keys the feed lists (a key sweep): with mode full, the listings gone are those not among them. */
  present?: KeySet;
  /** The provider's budget stopped the read: the run writes what it read and ends `paused`. */
  pause?: SourcePause;
  /** A long read stopped at `recordsPerRun`: the next run goes on from the saved place at once. */
  continues?: boolean;
  /** The source state after the read (the RESO checkpoint, watermark, sweep time). */
  state?: Partial<FeedState>;
  /** One line on where the replication stands, for the report (`first import: 30,000 records, 3 runs`). */
  note?: string;
  /**
   * A CSV read to the connection's close (no Content-Length, no chunks): a body cut at a row's end
   * reads as a whole feed, so the delete guards ask more of what it leaves out (`unframed-body`).
   */
  unframed?: boolean;
}

/** Opens a feed: its raw records, or the news that it has not changed. `openFeed` is the one of production. */
export type FeedOpener = (feed: FeedSpec, deps: IngestDeps) => Promise<OpenedFeed>;

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
   * A `url:` feed not modified: the validators its server's 304 carried (not remembered: a 304 never
   * changes the state), to tell a 304 for other bytes than the ones asked about (`feed-reading.ts`).
   */
  notModifiedBy?: Partial<FeedState>;
  /**
   * The source state after one more record, for sources whose state depends on what they yield (the
   * RESO watermark is the newest timestamp read). A pure reducer: nothing is patched in place.
   */
  nextState?: (state: Partial<FeedState>, record: RawRecord) => Partial<FeedState>;
  /** File lines read as Windows-1252 (`encoding: auto`), ascending; complete once `records` is exhausted. */
  linesAs1252?: readonly number[];
  /** What the source says once `records` is exhausted (RESO: the mode it turned out to be, a pause). */
  end?: () => SourceEnd;
  /** The feed's bytes digested, once `records` is exhausted (`OpenSource`'s `digest`). */
  digest?: () => SourceDigest | undefined;
  /**
   * Of some keys gone from the read, those the source still lists (a RESO provider asked by key):
   * a read that moved while it was taken must not delete them. `asked` counts the keys asked about;
   * `problem` says why the rest were not.
   */
  stillListed?: (keys: readonly string[]) => Promise<StillListed>;
  /** A CSV's header, once read (before its first record): the columns a mapping may name. */
  columns?: () => readonly string[] | undefined;
}

/** What a source says of keys gone from its read (`OpenedFeed.stillListed`). */
export interface StillListed {
  listed: Set<string>;
  asked: number;
  problem?: string;
  /** The asking stopped for the provider's budget or rate: the keys not asked about are kept. */
  paused?: boolean;
}
