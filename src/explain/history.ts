import { outcomeLabel, type RunReport } from '../reconcile/index.ts';
import { isFromStateFile } from '../state/index.ts';
import { changeOutcome, outcomeNote } from './change-outcome.ts';
import type { HistoryEntry } from './types.ts';

/** Entries shown: the listing's last few runs. */
export const HISTORY_SHOWN = 10;

const DONE = {
  create: 'created',
  update: 'updated',
  replace: 'replaced (a value the feed no longer sends cleared)',
  adopt: 'adopted',
  sold: 'marked Sold',
  delete: 'deleted',
} as const;
const PLANNED = {
  create: 'would create',
  update: 'would update',
  replace: 'would replace (a value the feed no longer sends cleared)',
  adopt: 'would adopt',
  sold: 'would mark Sold',
  delete: 'would delete',
} as const;

/**
 * What the recorded runs (newest first) did to one listing: each write with its fields old → new, a
 * failed write, a hold or a rejection of its record. A run whose report left the listing's change
 * out (more writes than a report keeps) says so rather than nothing. Pure.
 */
export function historyOf(runs: readonly RunReport[], key: string, shown = HISTORY_SHOWN): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const run of runs) {
    if (entries.length >= shown) break;
    const base = {
      startedAt: run.startedAt,
      trigger: run.trigger ?? 'cli',
      outcome: outcomeLabel(run),
      dryRun: run.dryRun,
      ...(isFromStateFile(run) ? { commandLine: true as const } : {}),
    };
    const found = entriesOf(run, key);
    if (found.length > 0) entries.push(...found.map((e) => ({ ...base, ...e })));
    else if ((run.changesOmitted ?? 0) > 0)
      entries.push({
        ...base,
        what: 'not recorded',
        detail: `the run wrote ${run.changesOmitted} more listing(s) than its report keeps; this one may be among them`,
      });
  }
  return entries.slice(0, shown);
}

type Found = Omit<HistoryEntry, 'startedAt' | 'trigger' | 'outcome' | 'dryRun'>;

function entriesOf(run: RunReport, key: string): Found[] {
  const found: Found[] = [];
  for (const change of run.changes ?? []) {
    if (change.key !== key) continue;
    const outcome = run.dryRun ? 'done' : changeOutcome(run, change);
    // A failed write is told below, from the failure itself.
    if (outcome === 'failed') continue;
    const id = change.id !== undefined ? { id: change.id } : {};
    if (outcome === 'not issued') {
      found.push({
        what: `${change.op} not issued`,
        ...id,
        detail: 'the run stopped before it; the next run issues it',
      });
      continue;
    }
    const what = run.dryRun ? PLANNED[change.op] : DONE[change.op];
    const unsure = outcomeNote(run, outcome);
    found.push({
      what,
      ...id,
      ...(change.fields ? { fields: change.fields } : {}),
      ...(change.reason ? { detail: change.reason === 'gone' ? 'gone from the feed' : change.reason } : {}),
      ...(change.summary ? { detail: change.summary } : {}),
      ...(unsure ? { detail: unsure } : {}),
    });
  }
  for (const f of run.failed)
    if (f.key === key)
      found.push({
        what: `${f.operation} failed`,
        ...(f.id !== undefined ? { id: f.id } : {}),
        detail: f.message,
      });
  const grace = run.graceKeys?.find((g) => g.key === key);
  if (grace)
    found.push({
      what: 'kept in grace',
      id: grace.id,
      detail: `gone since ${grace.since.slice(0, 16).replace('T', ' ')} UTC, deleted from ${grace.until.slice(0, 16).replace('T', ' ')} UTC`,
    });
  const held = run.heldKeys?.find((h) => h.key === key);
  if (held)
    found.push({
      what: 'held',
      ...(held.ids.length > 0 ? { id: held.ids[0] } : {}),
      detail: held.message,
    });
  else {
    const rejected = run.rejections.find((r) => r.key === key);
    if (rejected) found.push({ what: 'rejected', detail: rejected.message });
  }
  return found;
}
