import type { RecordProblem } from '../ingest/index.ts';
import type { FieldChange } from '../reconcile/index.ts';

/**
 * One listing explained end to end (issue 22): where its record is in the feed, what the mapping
 * made of it and why, what the platform holds for its key, what a sync would do, and what past runs
 * did to it. Plain data: `feed-sync explain --json` prints it, the text and the dashboard render it.
 */
export interface Explanation {
  feedId: string;
  chatbot: string;
  key: string;
  /** The listing field that matches feed and platform (`feeds[].key`). */
  keyField: 'MLSNumber' | 'Url';
  source: SourcePart;
  /** Absent when the feed has no record with the key. */
  listing?: ListingPart;
  platform: PlatformPart;
  verdict: Verdict;
  history: HistoryPart;
}

/** Where a record is in its feed: `row 812 of acme.csv`, `element 3 of listings.xml`, `ListingKey 3yd-…`. */
export interface RecordPlace {
  /** Human words: `row 812 of acme.csv`. */
  where: string;
  row?: number;
  /** 0-based position among the feed's records. */
  index: number;
  /** RESO records: the `ListingKey` (the source's own id). */
  listingKey?: string;
  /** XML records: the element's name. */
  element?: string;
}

export type SourcePart =
  | {
      found: true;
      /** The feed as messages name it (`acme.csv`, the host of a URL feed). */
      name: string;
      /** The record that decides (the last with the key). */
      place: RecordPlace;
      /** What the record became: a listing, a removal (its status says gone), or a rejection. */
      kind: 'listing' | 'remove' | 'rejected';
      /** The record's fields as read, raw (CSV: header → text; XML/RESO: the parsed element). */
      fields: Record<string, unknown>;
      /** Earlier records with the same key (the last is kept): the first `EARLIER_KEPT` of them. */
      earlier: RecordPlace[];
      /** Earlier records with the key beyond those in `earlier`. */
      earlierOmitted?: number;
      /** Records read from the feed. */
      records: number;
      mode: 'full' | 'incremental';
    }
  | {
      found: false;
      name?: string;
      /** Records read from the feed (0 when it could not be read). */
      records: number;
      mode?: 'full' | 'incremental';
      /** The feed could not be read: the error, in one line. */
      error?: string;
      /** Broken records (a shifted row, a cut one) whose text holds the key: they hold its listing. */
      mentions: BrokenMention[];
      /**
       * A feed keyed by Url asked for a key that is not a Url: the records whose MLSNumber is the key,
       * with their Url (the key to ask for).
       */
      byMlsNumber?: { place: RecordPlace; url: string }[];
    };

/** A broken record (fields that do not fit the header) whose text holds the key: it holds the listing. */
export interface BrokenMention extends RecordPlace {
  /** Why it is broken, as the run reports it: `Row 4 of acme.csv: has 15 fields, the header has 14 (…)`. */
  message: string;
  /** `shifted` (more fields than the header), `cut` (fewer). */
  shape?: 'shifted' | 'cut';
  /** The record's cells as read, in order: the first under the header's names, the rest beyond it. */
  cells: { column?: string; value: string }[];
}

/** One listing field and where its value came from. */
export interface FieldTrace {
  /** A listing field; each of the feed's ExtensionColumn entries is one: `ExtensionColumn[Pool]`. */
  field: string;
  /** The value the listing gets (canonical), or the candidate value of a rejected record. */
  value: unknown;
  /** `config` (the feed's mapping), `preset NAME`, `inferred` (from the CSV header), `default`, `computed`, `unknown marker`, `feed-sync`. */
  origin: string;
  /** The rule in words (`"List Price"`, `template "https://…/{MLS #}"`, `constant "$"`). */
  rule?: string;
  /** Of several alternatives, the one (1-based) that gave the value. */
  alternative?: number;
  alternatives?: number;
  /** Each path the rule reads and its raw value in this record (absent: the record has none). */
  inputs: { path: string; value?: unknown }[];
  /** What was done to the raw value: `money`, `area sqft → Square Feet`, `"Pending" → Active`… */
  conversion?: string;
  /** An unset field whose rule has a condition: the condition that failed, with the value read. */
  unset?: string;
}

export interface ListingPart {
  /** Valid and written as is, removed by its status, or rejected (held when it has a key). */
  status: 'valid' | 'remove' | 'rejected';
  fields: FieldTrace[];
  /** Every problem of a rejected record. */
  problems: RecordProblem[];
  /** A rejected record with a key holds its listing: what and why. */
  hold?: { reason: string; message: string };
  /** Fields filled with the unknown marker 0 (the feed does not say). */
  unknown: string[];
  /** The ExtensionColumn entries feed-sync adds to the record it sends (owner tag, record hash). */
  tags: { Key: string; value: string }[];
}

/** One of the chatbot's listings for the key, as the list operation returned it (canonical form). */
export interface PlatformRecord {
  id: number;
  /** The feed whose tag it carries; undefined when untagged (added by hand). */
  owner?: string;
  listing: Record<string, unknown>;
}

export type PlatformPart =
  | {
      lookedUp: true;
      /** `MLSNumber HH-2402`, `MLSNumber CR-510, then Url`: the filter used. */
      by: string;
      /** List calls made (one or two). */
      calls: number;
      records: PlatformRecord[];
      /** More records carry the filter than were read (beyond two pages). */
      truncated?: boolean;
      /** None found, and the chatbot was read only in part: whether it holds the key is not known. */
      incomplete?: boolean;
    }
  | { lookedUp: false; reason: string; error?: boolean };

/**
 * What the plan makes of the key, one entry per remote listing (or a create): the classification
 * the verdict is written from. Extracted from a plan of the key alone (`classifyKey`).
 */
export type Classification =
  | { kind: 'create' }
  | {
      kind: 'update';
      id: number;
      adopt: boolean;
      changes: readonly FieldChange[];
      /** A field the feed stopped sending is cleared: created anew, this ID deleted. */
      replace?: true;
    }
  | { kind: 'unchanged'; id: number }
  | { kind: 'delete'; id: number; reason: 'gone' | 'removed' | 'duplicate'; since?: string }
  /** Gone from the feed and marked Sold this run (`gone.action: markSold`). */
  | { kind: 'sold'; id: number; from: unknown }
  /** Gone from the feed and kept for now (`gone.afterDays`): since when, deleted from when. */
  | {
      kind: 'grace';
      id: number;
      reason: 'gone' | 'removed';
      since: string;
      until: string;
      action: 'delete' | 'markSold';
    }
  /** `reason`: the rejection's code, or `in_broken_row`; `message` says which record. */
  | { kind: 'held'; ids: number[]; reason: string; message: string }
  | { kind: 'foreign'; id: number; owner?: string }
  | { kind: 'skipped'; id: number; reason: 'adopt-disabled' | 'owned-by-other-feed'; owner?: string }
  | { kind: 'nothing' };

export interface VerdictLine {
  /** What a sync does about one listing: a write, or `none`. */
  action: 'create' | 'update' | 'replace' | 'adopt' | 'mark Sold' | 'delete' | 'none';
  id?: number;
  /** One sentence. */
  text: string;
  /** Updates: each field old → new (canonical form; the record-hash tag left out unless alone). */
  changes?: FieldChange[];
}

export interface Verdict {
  /** `in sync`, `will write` (a sync would write something), `nothing written` (held, foreign…), `unknown`. */
  state: 'in sync' | 'will write' | 'nothing written' | 'unknown';
  /**
   * The guards that may hold what `will write` says (`mass-replace`: the last run that compared held
   * its replaces, and this verdict's write is a replace). Absent when none may.
   */
  mayBeHeldBy?: 'mass-replace'[];
  /** One line. */
  summary: string;
  lines: VerdictLine[];
  classification: Classification[];
}

/** What one past run did to the listing. */
export interface HistoryEntry {
  startedAt: string;
  trigger: string;
  /** The run's outcome as the dashboard says it (`outcomeLabel`): `ok`, `partial`, `guard tripped`… */
  outcome: string;
  dryRun: boolean;
  /** The run was `feed-sync sync` from the command line, read beside the worker's (`withCliHistory`). */
  commandLine?: true;
  /** `created`, `updated`, `adopted`, `marked Sold`, `deleted`, `… failed`, `kept in grace`, `held`, `rejected`, `not recorded`. */
  what: string;
  id?: number;
  fields?: FieldChange[];
  detail?: string;
}

export interface HistoryPart {
  /** Where the runs were read: `the state file .feed-sync-state.json`, `the worker's store`. */
  from: string;
  /** Runs looked at. */
  runs: number;
  entries: HistoryEntry[];
}
