import { PlatformError } from '../api/index.ts';
import { HttpStatusError } from '../http/index.ts';

/** Writes refused for the key, one after another, that stop a run's writing. */
export const KEY_REFUSALS_TO_STOP = 3;

/**
 * The platform refused the request's key: HTTP 401, or an envelope Code 401. Not a 403: a platform
 * may forbid one record (a content rule), and records are written in the feed's order, so three
 * forbidden ones first would stop every run at the same place, the rest never written.
 */
export function refusesKey(error: unknown): boolean {
  if (error instanceof PlatformError) return error.platformCode === 401;
  if (error instanceof HttpStatusError) return error.status === 401;
  return false;
}

/**
 * Stops a run's writing once the platform refuses its key: a key revoked or rotated mid-run (the
 * spec leaves keys' lifetime unsaid) failed every write left, a million requests the platform had
 * already answered, each a failure in the report. `KEY_REFUSALS_TO_STOP` refusals in a row with no
 * write done between them stop it; a record the platform forbids (403) never counts.
 */
export class KeyRefusals {
  #inARow = 0;
  #stopped: string | undefined;

  /** A write went through. */
  done(): void {
    this.#inARow = 0;
  }

  /** A write failed with `error`. */
  failed(error: unknown): void {
    if (!refusesKey(error)) return;
    this.#inARow++;
    if (this.#inARow >= KEY_REFUSALS_TO_STOP && this.#stopped === undefined) {
      const said = error instanceof Error ? error.message : String(error);
      this.#stopped = `the platform refused the API key for ${this.#inARow} writes in a row (${said}): writing stopped`;
    }
  }

  /** Why writing stopped, once it has. */
  get stopped(): string | undefined {
    return this.#stopped;
  }
}
