import type { ErrorKind } from '../errors.ts';
import { isFeedSyncError } from '../errors.ts';
import { CliExit } from './context.ts';

/** The CLI's exit code for an error that stopped a command, by kind: one table (see the README). */
const EXIT_CODE: Record<ErrorKind, number> = {
  CONFIG_INVALID: 2,
  FEED_FETCH: 1,
  FEED_PARSE: 1,
  API_BUSINESS: 1,
  API_TRANSPORT: 1,
  SNAPSHOT: 1,
  GUARD_TRIPPED: 3,
  RUN_CANCELLED: 130,
  SERVICE_UNAVAILABLE: 1,
  INTERNAL: 1,
};

export function exitCodeOfError(error: unknown): number {
  if (error instanceof CliExit) return error.exitCode;
  return isFeedSyncError(error) ? EXIT_CODE[error.kind] : 1;
}
