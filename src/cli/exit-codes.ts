import type { ErrorKind } from '../errors.ts';
import { FeedSyncError, isFeedSyncError } from '../errors.ts';

/**
 * The binary's exit codes, one meaning each (documented in README "Exit codes"). Scripts and
 * schedulers branch on them, so they never change meaning.
 */
export const EXIT = {
  ok: 0,
  /** The run failed (source, snapshot, platform), or an unexpected error. */
  failed: 1,
  /** A usage error (unknown command or option, missing argument) or a bad config. */
  usage: 2,
  /** A delete guard tripped: deletes were held back until `--allow-mass-delete`. */
  guarded: 3,
  /** The run finished, but some records were rejected or held. */
  partial: 4,
  /** A RESO provider's request budget is spent: what was read is written; the report says when it resumes. */
  paused: 5,
  /** Interrupted (Ctrl-C): the run stopped cleanly with what it had applied. */
  interrupted: 130,
} as const;

/** The CLI's exit code for an error that stopped a command, by kind: one table. */
const EXIT_CODE: Record<ErrorKind, number> = {
  CONFIG_INVALID: EXIT.usage,
  FEED_FETCH: EXIT.failed,
  FEED_PARSE: EXIT.failed,
  API_BUSINESS: EXIT.failed,
  API_TRANSPORT: EXIT.failed,
  SNAPSHOT: EXIT.failed,
  GUARD_TRIPPED: EXIT.guarded,
  RUN_CANCELLED: EXIT.interrupted,
  SERVICE_UNAVAILABLE: EXIT.failed,
  INTERNAL: EXIT.failed,
};

const KIND_OF_EXIT: Record<number, ErrorKind> = {
  [EXIT.usage]: 'CONFIG_INVALID',
  [EXIT.guarded]: 'GUARD_TRIPPED',
  [EXIT.interrupted]: 'RUN_CANCELLED',
};

/**
 * A command failed: one line naming the reason on stderr, and its exit code (default 1, failed;
 * `EXIT.usage` for a wrong invocation). Never a stack, never a key.
 */
export class CliExit extends FeedSyncError {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT.failed) {
    super(message, { kind: KIND_OF_EXIT[exitCode] ?? 'INTERNAL', code: 'E_CLI' });
    this.exitCode = exitCode;
  }
}

export function exitCodeOfError(error: unknown): number {
  if (error instanceof CliExit) return error.exitCode;
  return isFeedSyncError(error) ? EXIT_CODE[error.kind] : EXIT.failed;
}

/** What an exit code needs of a run report. */
export interface ReportOutcome {
  outcome: string;
  rejected?: number;
  held?: number;
  skippedUnknownOwner?: number;
}

/**
 * The exit code of a set of runs: the worst of interrupted, failed, guard tripped, paused, partial,
 * ok. Paused before partial: a paused run is not whole, and a script that runs it again at
 * `resumesAt` must learn so, whatever records the part it read rejected.
 */
export function exitCodeOf(reports: readonly ReportOutcome[]): number {
  if (reports.some((r) => r.outcome === 'cancelled')) return EXIT.interrupted;
  if (reports.some((r) => r.outcome === 'failed')) return EXIT.failed;
  if (reports.some((r) => r.outcome === 'guarded')) return EXIT.guarded;
  if (reports.some((r) => r.outcome === 'paused')) return EXIT.paused;
  if (reports.some((r) => (r.rejected ?? 0) > 0 || (r.held ?? 0) > 0 || (r.skippedUnknownOwner ?? 0) > 0))
    return EXIT.partial;
  return EXIT.ok;
}
