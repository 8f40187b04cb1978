import type { RunReport } from '../reconcile/index.ts';
import { graceLine, holdReason } from '../render/index.ts';
import { changeOutcome, outcomeNote } from './change-outcome.ts';

/** A key a run's report names (the feed page shows it), with what the report says of it. */
export interface ReportKey {
  key: string;
  /** `held: key appears in the shifted row 4 of acme.csv`, `deleted (gone from the feed)`… */
  said: string[];
  /** Held by a broken row: the row (`the shifted row 4 of acme.csv`). */
  brokenRow?: string;
}

const DONE = {
  create: 'created',
  update: 'updated',
  replace: 'replaced (a value the feed no longer sends cleared)',
  adopt: 'adopted',
  sold: 'marked Sold',
  delete: 'deleted',
} as const;

/**
 * Every key a run's report names, as the feed page lists them: its changes, failed writes,
 * listings in grace, held listings and rejected rows; each with what the report says. Pure.
 */
export function keysOfReport(report: RunReport | undefined): ReportKey[] {
  const keys = new Map<string, ReportKey>();
  const note = (key: string | undefined, said: string) => {
    if (!key) return undefined;
    const entry = keys.get(key) ?? { key, said: [] };
    keys.set(key, entry);
    if (!entry.said.includes(said)) entry.said.push(said);
    return entry;
  };
  if (!report) return [];
  const planned = report.dryRun ? 'would be ' : '';
  for (const c of report.changes ?? []) {
    const outcome = report.dryRun ? 'done' : changeOutcome(report, c);
    if (outcome === 'failed') continue;
    if (outcome === 'not issued') {
      note(c.key, `${c.op} not issued (the run stopped before it)`);
      continue;
    }
    const unsure = outcomeNote(report, outcome);
    note(
      c.key,
      `${planned}${DONE[c.op]}${c.op === 'delete' && c.reason === 'gone' ? ' (gone from the feed)' : ''}${unsure ? ` (${unsure})` : ''}`,
    );
  }
  for (const f of report.failed) note(f.key, `${f.operation} failed: ${f.message}`);
  for (const g of report.graceKeys ?? []) note(g.key, graceLine(g));
  const held = new Set<string>();
  for (const h of report.heldKeys ?? []) {
    held.add(h.key);
    const entry = note(h.key, holdReason(h));
    // `key appears in the shifted row 4 of acme.csv`: the row that holds it.
    if (entry && h.reason === 'in_broken_row') entry.brokenRow = h.message.replace(/^key appears in /, '');
  }
  for (const r of report.rejections) if (r.key && !held.has(r.key)) note(r.key, `rejected: ${r.message}`);
  return [...keys.values()];
}
