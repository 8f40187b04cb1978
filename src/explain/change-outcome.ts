import { failedCountOf, type ListingChange, type RunReport } from '../reconcile/index.ts';

/**
 * What became of a change a run's report lists: the report lists a run's first changes, its first
 * 1,000 failed writes in key order and its first 1,000 writes not issued of each kind, so past
 * those a change is only known to maybe have failed or not been issued.
 */
export type ChangeOutcome = 'done' | 'failed' | 'not issued' | 'maybe failed' | 'maybe not issued';

export function changeOutcome(run: RunReport, change: ListingChange): ChangeOutcome {
  const op = change.op === 'adopt' || change.op === 'sold' || change.op === 'replace' ? 'update' : change.op;
  // A replace is a create and a delete: either failing fails it.
  const ops = change.op === 'replace' ? ['create', 'update', 'delete'] : [op];
  const failed = run.failed.some(
    (f) =>
      f.key === change.key &&
      ops.includes(f.operation) &&
      (f.id === undefined || change.id === undefined || f.id === change.id),
  );
  if (failed) return 'failed';
  const kind = op === 'create' ? 'creates' : op === 'update' ? 'updates' : 'deletes';
  const left = run.notApplied;
  if (left?.[kind].includes(change.key)) return 'not issued';
  // The kept ones are the first in key order: a key past the last kept may be among the rest.
  const past = (keys: readonly string[]) => {
    const last = keys.at(-1);
    return last === undefined || change.key > last;
  };
  if (failedCountOf(run) > run.failed.length && past(run.failed.map((f) => f.key))) return 'maybe failed';
  if (left?.counts && left.counts[kind] > left[kind].length && past(left[kind])) return 'maybe not issued';
  return 'done';
}

/** What a report says of a change it cannot tell the outcome of, or undefined when it can. */
export function outcomeNote(run: RunReport, outcome: ChangeOutcome): string | undefined {
  if (outcome === 'maybe failed')
    return `the report keeps the first ${run.failed.length} of ${failedCountOf(run)} failed writes: this one may be among the others`;
  if (outcome === 'maybe not issued')
    return 'the run stopped before some writes and its report lists the first of them: this one may not have been issued';
  return undefined;
}
