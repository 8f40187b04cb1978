import { isApiError, type Operation, PlatformError } from '../api/index.ts';
import type { Failure } from './report-types.ts';

/** Failed writes a run keeps whole (the first in key order); every one is counted. */
export const FAILURES_KEPT = 1000;

const byKey = (a: Failure, b: Failure) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * A run's failed writes, bounded: every one counted, the first `kept` in key order kept whole. A
 * platform that refuses every record alike (a field it stopped accepting) fails a million creates:
 * a million failures of ~250 bytes each outgrew the image's heap, and were saved with the report.
 * Deletes that failed are remembered by key besides, all of them: their grace clocks stay.
 */
export class FailureLog {
  readonly #kept: number;
  #failures: Failure[] = [];
  #count = 0;
  readonly failedDeletes: string[] = [];

  constructor(kept = FAILURES_KEPT) {
    this.#kept = kept;
  }

  push(failure: Failure): void {
    this.#count++;
    if (failure.operation === 'delete') this.failedDeletes.push(failure.key);
    this.#failures.push(failure);
    // Cut back to the first in key order once twice as many are held: amortized, and the same
    // failures kept whatever order the writes finished in.
    if (this.#failures.length >= 2 * this.#kept)
      this.#failures = this.#failures.sort(byKey).slice(0, this.#kept);
  }

  /** Every failure, kept or not. */
  get count(): number {
    return this.#count;
  }

  /** The first `kept` failures, in key order (a stable sort: the order they came among equal keys). */
  sorted(): Failure[] {
    return this.#failures.sort(byKey).slice(0, this.#kept);
  }
}

/** A write that did not happen, as a report entry. Programming errors are not failures: they throw. */
export function toFailure(error: unknown, operation: Operation, key: string, id?: number): Failure {
  if (!isApiError(error)) throw error;
  const platform =
    error instanceof PlatformError
      ? {
          ...(error.platformCode === undefined ? {} : { platformCode: error.platformCode }),
          platformMessage: error.platformMessage,
        }
      : {};
  return {
    key,
    operation,
    ...(id === undefined ? {} : { id }),
    code: error.code,
    ...platform,
    message: error.message,
  };
}
