import type { Operation } from '../api/schemas.ts';
import type { FeedConfig } from '../config/schema.ts';
import type { RunOutcome, RunReport } from './report-types.ts';

/** A report being filled in during a run. */
export type ReportDraft = Omit<RunReport, 'finishedAt' | 'durationMs' | 'outcome'>;

export function startReport(
  feed: FeedConfig,
  startedAt: Date,
  apiCalls: Record<Operation, number>,
  dryRun: boolean,
): ReportDraft {
  return {
    feedId: feed.id,
    chatbot: feed.chatbot,
    startedAt: startedAt.toISOString(),
    dryRun,
    created: 0,
    updated: 0,
    deleted: 0,
    unchanged: 0,
    read: 0,
    rejected: 0,
    held: 0,
    heldKeys: [],
    rejectedWithoutKey: 0,
    foreign: 0,
    adopted: 0,
    skipped: [],
    duplicatesDeleted: 0,
    heldDeletes: 0,
    ambiguousResolved: 0,
    failed: [],
    guards: [],
    apiCalls,
    rejections: [],
    drift: [],
  };
}

/** Failed writes make a run failed; a tripped guard makes it guarded; otherwise it is ok. */
export function outcomeOf(draft: ReportDraft): RunOutcome {
  if (draft.failed.length > 0) return 'failed';
  if (draft.guards.some((g) => g.tripped)) return 'guarded';
  return 'ok';
}

function reasonOf(draft: ReportDraft, outcome: RunOutcome): string | undefined {
  if (draft.reason) return draft.reason;
  if (outcome === 'failed' && draft.failed.length > 0) return `${draft.failed.length} write(s) failed`;
  if (outcome === 'guarded')
    return draft.guards
      .filter((g) => g.tripped)
      .map((g) => g.message)
      .join('; ');
  if (outcome === 'cancelled') return 'cancelled: the writes not issued are listed in notApplied';
  return undefined;
}

export function finishReport(
  draft: ReportDraft,
  finishedAt: Date,
  outcome: RunOutcome,
  reason?: string,
): RunReport {
  const why = reason ?? reasonOf(draft, outcome);
  const report: RunReport = {
    ...draft,
    // A copy: the counting client keeps counting if anything is still in flight.
    apiCalls: { ...draft.apiCalls },
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - Date.parse(draft.startedAt),
    outcome,
  };
  if (why) report.reason = why;
  else delete report.reason;
  return report;
}
