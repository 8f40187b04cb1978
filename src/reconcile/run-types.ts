import type { PlatformClient } from '../api/index.ts';
import type { Rejection } from '../ingest/index.ts';
import type { Logger } from '../logger.ts';
import type { MappingHint } from '../normalize/index.ts';
import type { FeedOpener } from '../sources/index.ts';
import type { FeedState, StateStore } from '../state/index.ts';
import type { DesiredLoader } from './desired.ts';
import type { GuardDecision, Plan } from './plan-types.ts';
import type { RunPhases, RunReport } from './report-types.ts';
import type { MemoStore } from './run-memo.ts';

/** The phases of a run, in order. */
export const SYNC_PHASES = ['fetching', 'normalizing', 'snapshot', 'planning', 'applying', 'done'] as const;
export type SyncPhase = (typeof SYNC_PHASES)[number];

/**
 * Where a run is: its phase, and the counts of the phase (`done` of `total`; 0 of 0 for a phase
 * without counts). Normalizing counts valid records of those read, applying the writes done. Plain
 * numbers: a terminal, a job's progress and a page render them (src/render/progress.ts).
 */
export interface RunProgress {
  phase: SyncPhase;
  done: number;
  total: number;
  /** Why the run is in this phase again, said once (a reused feed reading given up: the feed is read). */
  note?: string;
}

/** Why a run was started: manual runs always compare with the platform; scheduled ones may skip. */
export type RunTrigger = 'schedule' | 'manual' | 'config' | 'repair' | 'resume';

/**
 * The part of the state store a run reads: its feed's state; and where a RESO source counts its
 * provider's requests (`budgets`, counted before each request, not a run's state). Saving is its
 * caller's (`saveRun`).
 */
export type StateReader = Pick<StateStore, 'getFeed' | 'budgets'>;

export interface SyncDeps {
  /** Already wired with the limiter: every attempt of every call goes through it. */
  client: PlatformClient;
  /** What a run may do with the state store: read it. A run returns the state to save (`RunResult.state`); its caller saves it. */
  state: StateReader;
  logger: Logger;
  /** Cancels the run: no new call is issued, the ones in flight finish; the run ends `cancelled`. */
  signal?: AbortSignal;
  now?: () => Date;
  /**
   * A monotonic clock, ms: how long the run's phases took (`RunReport.phases`). Default
   * `performance.now`; not `now`, which a run at a clock of the user's (`sync --now`) holds still.
   */
  elapsed?: () => number;
  /** The clock of provider request budgets (`IngestDeps.budgetClock`): real time; tests inject one. */
  budgetClock?: () => Date;
  /**
   * How the feed is opened; default `openFeed` (its transport and format). Tests and benchmarks
   * hand raw records through it (`src/testing/records-feed.ts`): the rest of the run is production's.
   */
  open?: FeedOpener;
  /** Where the run is, as it goes: for a terminal, a job or a page to show. */
  onProgress?: (progress: RunProgress) => void;
  /**
   * Where the feeds' record memos are kept between runs (`memoFiles`): a run maps, tags and digests
   * only the records that changed since the last (src/ingest/record-memo.ts). None: every record is.
   */
  memo?: MemoStore;
}

export interface SyncOptions {
  /** Plan only: read the feed and the remote, write nothing (not even state). */
  dryRun?: boolean;
  /** Let a run delete more than `maxDeleteShare` of the feed's owned listings. */
  allowMassDelete?: boolean;
  /**
   * Let a run delete the listings an earlier run held, and only those: given when this run holds
   * the same listings (their keys' `heldDeletesDigest`), else they stay held (guard
   * `override-mismatch`). The dashboard's "allowing the deletes" button.
   */
  allowDeletes?: { digest: string; count: number };
  /** Let a run's replaces past `maxDeleteShare` through (guard `mass-replace`), and nothing else. */
  allowMassReplace?: boolean;
  /**
   * Let a run replace the listings an earlier run's guard `mass-replace` held, and only those: given
   * when this run holds the same (its decision's `held.digest`), else they stay held. The
   * dashboard's "allowing the replaces" button.
   */
  allowReplaces?: { digest: string; count: number };
  /** Ignore validators and watermarks: fetch and compare everything. */
  forceFull?: boolean;
  /**
   * Default `manual`: compare with the platform even when the feed has not changed. Only `schedule`
   * may skip an unchanged feed, and only until `fullCompareEveryHours` has passed since the last compare.
   */
  trigger?: RunTrigger;
  /** Creates and updates the plan describes (place, price): default 1000; `plan --all` asks for all. */
  briefs?: number;
  /**
   * Keep the time of this run's compare (`lastCompareAt`, `lastFullRunAt`). Default true; false for
   * a run at a clock of the user's (`sync --now`).
   */
  recordCompare?: boolean;
}

/** What ingestion told about the feed, without its listings: what a report needs. */
export interface IngestSummary {
  mode: 'full' | 'incremental';
  read: number;
  /** Of the records read, those the record memo knew from the last run: not mapped again. */
  known?: number;
  /** The feed's bytes were the last run's (SHA-256): its reading was reused, no record read (`IngestResult.reused`). */
  reused?: { sha256: string; recordsRead?: true };
  /** Records whose key an earlier record had (the last of each key is kept). */
  duplicates: number;
  /** Keys whose record says the listing left the market (a removal status, a deletion marker). */
  removals?: number;
  /** The next part reads the feed in full (listings of the feed went missing from the platform). */
  fullReadDue?: boolean;
  /** The feed is a provider's API (RESO): a key read twice is a record that moved while it was read. */
  fromProvider?: boolean;
  rejected: number;
  /** The first rejections, as ingestion worded them. */
  rejections: Rejection[];
  rejectedWithoutKey: number;
  /** Rows (CSV) or lines (XML/JSON) that were not UTF-8 and were read as Windows-1252. */
  decodedAs1252: number[];
  /** Per listing field, how many listings carry the unknown marker (the feed had no value). */
  unknownMarkers: Record<string, number>;
  /** Image URLs dropped (not absolute http(s)): how many. */
  droppedImages: number;
  /** Said once about the feed's mapping (a CSV header with no listing-URL column). */
  hints?: MappingHint[];
  /** Source state to keep after a successful run (validators, watermark). */
  sourceState: Partial<FeedState>;
  /** The source stopped on its provider's budget: the run ends `paused` and can go on then. */
  pause?: { resumesAt: string; reason: string };
  /** The source stopped at its per-run limit: the next run goes on from its saved place. */
  continues?: boolean;
  /** Where a RESO replication stands (`full read: 10,000 this run, 20,000 records in 2 runs, goes on…`). */
  sourceNote?: string;
}

export interface SnapshotSummary {
  remoteCount: number;
  pages: number;
  pageSize: number;
  requestedPageSize: number;
  /** Pages the page memo knew by their bytes, so not decoded again (`page-memo.ts`); absent without one. */
  pagesKnown?: number;
  /**
   * Pages the decode thread wrote to its spill file: those holding a listing the run read back (to
   * update it, or to tell what changed), and any that waited past its held budget. Absent when
   * the pages were not decoded in the thread.
   */
  pagesWritten?: number;
  drift: string[];
}

/** Everything a run learned before writing: reads only. */
export type PreparedRun =
  | {
      kind: 'planned';
      ingest: IngestSummary;
      snapshot: SnapshotSummary;
      plan: Plan;
      /**
       * Feed ids the config does not have that tag listings of the chatbot: each with how many of
       * this feed's keys they hold (`skipped`: never written by it without `adoptFrom`, a renamed
       * feed) and how many listings in all (`foreign`: a feed removed from the config leaves them).
       */
      unknownOwners?: UnknownOwner[];
      /** Creates whose key an untagged listing on the chatbot has in other letter case (`caseTwinsOf`). */
      caseTwins?: CaseTwins;
      /** The feed's records the plan's creates and updates send, read back one at a time. */
      loader: DesiredLoader;
      /** Frees the records `loader` reads (a spill file): call it once the plan is applied or dropped. */
      close: () => void;
      /** How long reading the feed, the pages left after it and the plan took (`RunPhases`, less `writesMs`). */
      phases: Omit<RunPhases, 'writesMs'>;
      /** The fields the feed's listings set, for the next run (`FeedState.fieldsSet`). */
      fieldsSet?: string[];
    }
  | { kind: 'skipped'; ingest: IngestSummary; reason: string }
  | { kind: 'cancelled'; ingest?: IngestSummary; reason: string }
  | {
      kind: 'failed';
      ingest?: IngestSummary;
      /** `feed: …` or `snapshot: …` */
      reason: string;
      error: Error;
      guards: GuardDecision[];
    };

/** A run's whole outcome. The caller that owns the state store saves `state` (see `saveRun`). */
export interface RunResult {
  report: RunReport;
  /** The error that stopped the run before its plan: the worker maps it (retry, back off, give up). */
  error?: Error;
  /** The feed state to save: the report, and after a successful run the source state. `{}` for a dry run. */
  state: Partial<FeedState>;
}

/** A feed id no feed of the config has, tagging listings of a run's chatbot. */
/**
 * A plan's creates whose key an untagged listing on the chatbot has in other letter case (`BR-1004`
 * and a hand-made `br-1004`): not the same key, so the feed creates its own and the home is listed
 * twice. The first few, and how many.
 */
export interface CaseTwins {
  count: number;
  first: { key: string; remoteKey: string; id: number }[];
}

export interface UnknownOwner {
  owner: string;
  /** This feed's keys it holds (skipped by the run). */
  skipped: number;
  /** Its listings on the chatbot, those skipped included. */
  foreign: number;
}
