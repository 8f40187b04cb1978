import { failedCountOf, type RunReport } from '../reconcile/index.ts';

export type IncidentKind = 'failed' | 'guarded' | 'rejected';

export interface Incident {
  feedId: string;
  kind: IncidentKind;
  /** One line for people (Slack's `text`). */
  text: string;
}

/** Share of the records read from the feed that validation rejected (over all records, not the planned ones). */
export function rejectedShareOf(report: RunReport): number {
  return report.read === 0 ? 0 : report.rejected / report.read;
}

/** The incidents a report shows, and the kinds it shows to be over. Pure. */
export function incidentsOf(
  report: RunReport,
  maxRejectedShare: number,
): { open: Incident[]; resolved: IncidentKind[] } {
  const open: Incident[] = [];
  const feed = report.feedId;
  if (report.outcome === 'failed') {
    const first = report.failed[0];
    const detail =
      report.reason ??
      (first ? `${first.operation} ${first.key}: ${first.code} ${first.message}` : 'see the report');
    open.push({
      feedId: feed,
      kind: 'failed',
      text: `feed-sync: run of feed ${feed} failed (${failedCountOf(report)} failed writes): ${detail}`,
    });
  }
  if (report.outcome === 'guarded' || report.heldDeletes > 0) {
    open.push({
      feedId: feed,
      kind: 'guarded',
      // A guard with nothing to hold back (a feed with no valid listing on a first run) says what it stopped.
      text: `feed-sync: delete guard tripped for feed ${feed}: ${
        report.heldDeletes > 0
          ? `${report.heldDeletes} deletes held back${report.reason ? ` (${report.reason})` : ''}`
          : (report.reason ?? 'nothing deleted or changed')
      }`,
    });
  }
  const share = rejectedShareOf(report);
  if (share > maxRejectedShare) {
    open.push({
      feedId: feed,
      kind: 'rejected',
      text: `feed-sync: feed ${feed} rejected ${report.rejected} of ${report.read} records (${Math.round(share * 100)}%, over ${Math.round(maxRejectedShare * 100)}%); ${report.held} listing(s) held as they are`,
    });
  }
  const kinds = new Set(open.map((i) => i.kind));
  // A cancelled, skipped or paused run says nothing about whether the incident is over.
  const conclusive =
    report.outcome !== 'cancelled' &&
    report.outcome !== 'skipped' &&
    report.outcome !== 'paused' &&
    !report.dryRun;
  const resolved = conclusive
    ? (['failed', 'guarded', 'rejected'] as const).filter((k) => !kinds.has(k))
    : [];
  return { open, resolved };
}
