import { emptyReport, type RunReport } from '../reconcile/index.ts';

/** The instant the report builder's runs start and finish at. */
export const REPORT_AT = new Date('2026-11-21T09:00:00Z');

/**
 * A run's report for tests of what reads one (explain, the dashboard): feed `acme` on chatbot
 * `BOT`, one list call, nothing done, at `REPORT_AT`; `patch` sets the rest.
 */
export function runReport(patch: Partial<RunReport> = {}): RunReport {
  const apiCalls = { edit: 0, session: 0, ask: 0, create: 0, update: 0, list: 1, delete: 0 };
  const base = emptyReport({
    feedId: 'acme',
    chatbot: 'BOT',
    startedAt: REPORT_AT,
    finishedAt: REPORT_AT,
    apiCalls,
    dryRun: false,
  });
  return { ...base, ...patch };
}
