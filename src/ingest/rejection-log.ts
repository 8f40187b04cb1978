import type { ProblemCount, Rejection, RejectionCount } from './types.ts';

/** Distinct fields and reasons counted apart; the rest are counted together (a feed's fields are far fewer). */
const LABELS_KEPT = 10_000;

/**
 * A feed's rejections, bounded: every one counted (by field and reason, and by problem), and the
 * first `perLabel` of each field and reason kept whole, in feed order. A feed whose every record
 * is rejected (a renamed column) is as long as any other: 300k rejections kept whole took ~540
 * bytes each and ran a sync out of the image's heap. The first N rejections of the feed are all
 * kept whatever N ≤ `perLabel` (each is among the first N of its label), so a report's first
 * examples do not change.
 */
export class RejectionLog {
  readonly kept: Rejection[] = [];
  readonly #perLabel: number;
  readonly #labels = new Map<string, RejectionCount>();
  readonly #problems = new Map<string, ProblemCount>();
  #count = 0;
  #withoutKey = 0;

  readonly #spill: ((rejection: Rejection) => void) | undefined;

  /** `spill`, when given, is handed every rejection as it comes, kept or not. */
  constructor(perLabel = Number.POSITIVE_INFINITY, spill?: (rejection: Rejection) => void) {
    this.#perLabel = perLabel;
    this.#spill = spill;
  }

  add(rejection: Rejection): void {
    this.#spill?.(rejection);
    this.#count++;
    if (rejection.key === undefined) this.#withoutKey++;
    const { field, reason } = rejection;
    // A record rejected as a whole has no field (or an empty one): its label is its reason, as
    // `validate` prints it.
    const label = countIn(this.#labels, field ? `${field}\u0000${reason}` : reason, () =>
      field ? { field, reason, count: 0 } : { reason, count: 0 },
    );
    if (label.count <= this.#perLabel) this.kept.push(rejection);
    const problems = rejection.problems ?? [{ field: field || '(record)', reason }];
    for (const problem of problems)
      countIn(this.#problems, `${problem.field}\u0000${problem.reason}`, () => ({
        field: problem.field,
        reason: problem.reason,
        count: 0,
      }));
  }

  /** Every rejection, kept or not. */
  get count(): number {
    return this.#count;
  }

  /** Rejections whose record's key could not be read. */
  get withoutKey(): number {
    return this.#withoutKey;
  }

  /** Records rejected by field and reason, most first (first seen first among equals). */
  counts(): RejectionCount[] {
    return [...this.#labels.values()].sort((a, b) => b.count - a.count);
  }

  /** Problems by field and reason, most first, then by field. */
  problems(): ProblemCount[] {
    return [...this.#problems.values()].sort((a, b) => b.count - a.count || a.field.localeCompare(b.field));
  }
}

/** The entry of `key`, made by `make` if new (or the shared "(other)" entry once the map is full), counted once. */
function countIn<T extends { count: number }>(map: Map<string, T>, key: string, make: () => T): T {
  let entry = map.get(key);
  if (entry === undefined) {
    if (map.size >= LABELS_KEPT) {
      entry = map.get(OTHER) ?? ({ ...make(), field: '(other)', reason: '(other)', count: 0 } as T);
      map.set(OTHER, entry);
    } else {
      entry = make();
      map.set(key, entry);
    }
  }
  entry.count++;
  return entry;
}

const OTHER = '\u0001other';
