import type { PlatformClient } from '../api/index.ts';
import type { Rejection } from '../ingest/index.ts';
import type { Logger } from '../logger.ts';
import type { MappingHint } from '../normalize/index.ts';
import type { FeedState, StateStore } from '../state/index.ts';
import type { DesiredSet } from './desired.ts';
import type { Ingest } from './ingest-contract.ts';
import type { GuardDecision, Plan } from './plan-types.ts';
import type { RunReport } from './report-types.ts';

export type SyncPhase = 'fetching' | 'normalizing' | 'snapshot' | 'planning' | 'applying' | 'done';

/** What a run tells while it goes: where it is, and its plan once made. Plain data. */
export type RunEvent =
  | { type: 'progress'; phase: SyncPhase; percent: number; detail?: string }
  | {
      type: 'plan';
      plan: Plan;
      /** The records the plan's creates and updates would send, readable during this event only. */
      records: DesiredSet;
    };

/** Why a run was started: manual runs always compare with the platform; scheduled ones may skip. */
export type RunTrigger = 'schedule' | 'manual' | 'config' | 'repair';

export interface SyncDeps {
  /** Already wired with the limiter: every attempt of every call goes through it. */
  client: PlatformClient;
  /** Read only: a run returns the state to save (`RunResult.state`); its caller saves it. */
  state: StateStore;
  logger: Logger;
  /** Cancels the run: no new call is issued, the ones in flight finish; the run ends `cancelled`. */
  signal?: AbortSignal;
  now?: () => Date;
  /** Ingestion; default `ingestFeed` of src/sources. Tests pass listings built in code. */
  ingest?: Ingest;
  /** The run's one event stream: progress and the plan, for a terminal, a job or a page to show. */
  onEvent?: (event: RunEvent) => void;
}

export interface SyncOptions {
  /** Plan only: read the feed and the remote, write nothing (not even state). */
  dryRun?: boolean;
  /** Let a run delete more than `maxDeleteShare` of the feed's owned listings. */
  allowMassDelete?: boolean;
  /** Ignore validators and watermarks: fetch and compare everything. */
  forceFull?: boolean;
  /**
   * Default `manual`: compare with the platform even when the feed has not changed. Only `schedule`
   * may skip an unchanged feed, and only until `fullCompareEveryHours` has passed since the last compare.
   */
  trigger?: RunTrigger;
  /** Creates and updates the plan describes (place, price): default 1000; `plan --all` asks for all. */
  briefs?: number;
}

/** What ingestion told about the feed, without its listings: what a report needs. */
export interface IngestSummary {
  mode: 'full' | 'incremental';
  read: number;
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
}

export interface SnapshotSummary {
  remoteCount: number;
  pages: number;
  pageSize: number;
  requestedPageSize: number;
  drift: string[];
}

/** Everything a run learned before writing: reads only. */
export type PreparedRun =
  | {
      kind: 'planned';
      ingest: IngestSummary;
      snapshot: SnapshotSummary;
      plan: Plan;
      /** The feed's records the plan's creates and updates send, read back one at a time. */
      records: DesiredSet;
      /** Frees `records` (a spill file): call it once the plan is applied or dropped. */
      close: () => void;
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
