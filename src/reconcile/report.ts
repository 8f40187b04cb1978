import type { Operation } from '../api/index.ts';
import type { MappingHint } from '../normalize/index.ts';
import { type ApplyResult, noWrites } from './apply.ts';
import { changesOf } from './changes-of.ts';
import { heldDeletesDigest } from './held-digest.ts';
import type { Plan, PlanList } from './plan-types.ts';
import { itemsOf } from './planned-creates.ts';
import { duplicateDeletes } from './planned-deletes.ts';
import { PlannedHeld } from './planned-held.ts';
import { updateCounts } from './planned-updates.ts';
import {
  failedCountOf,
  HELD_KEPT,
  NOT_APPLIED_KEPT,
  type NotApplied,
  notAppliedCount,
  notAppliedText,
  type RunOutcome,
  type RunReport,
  SKIPPED_KEPT,
} from './report-types.ts';
import type { CaseTwins, PreparedRun, RunTrigger, UnknownOwner } from './run-types.ts';

/** What `reportOf` needs besides the run's values: who, when, and the calls it counted. */
export interface ReportMeta {
  feedId: string;
  chatbot: string;
  startedAt: Date;
  finishedAt: Date;
  apiCalls: Record<Operation, number>;
  /** Calls that failed after their retries, and their attempts (`countingClient`). */
  apiCallsFailed?: RunReport['apiCallsFailed'];
  dryRun: boolean;
  /** Why the run was started (schedule, manual, config, repair, resume). */
  trigger?: RunTrigger;
  /** How long the plan's writes took, ms (`RunPhases.writesMs`): 0 when none were made. */
  writesMs?: number;
  /** How long the run took, ms, by a monotonic clock; default `finishedAt - startedAt`. */
  durationMs?: number;
}

/** A report of a run that did nothing yet: every count 0. The base `reportOf` fills in. */
export function emptyReport(meta: ReportMeta, outcome: RunOutcome = 'ok'): RunReport {
  return {
    feedId: meta.feedId,
    chatbot: meta.chatbot,
    startedAt: meta.startedAt.toISOString(),
    finishedAt: meta.finishedAt.toISOString(),
    durationMs: meta.durationMs ?? meta.finishedAt.getTime() - meta.startedAt.getTime(),
    outcome,
    dryRun: meta.dryRun,
    ...(meta.trigger ? { trigger: meta.trigger } : {}),
    created: 0,
    updated: 0,
    deleted: 0,
    unchanged: 0,
    read: 0,
    rejected: 0,
    held: 0,
    heldKeys: [],
    rejectedWithoutKey: 0,
    decodedAs1252: [],
    decodedAs1252Count: 0,
    unknownMarkers: {},
    droppedImages: 0,
    foreign: 0,
    adopted: 0,
    skipped: [],
    duplicatesDeleted: 0,
    heldDeletes: 0,
    markedSold: 0,
    inGrace: 0,
    graceKeys: [],
    ambiguousResolved: 0,
    failed: [],
    guards: [],
    // A copy: the counting client keeps counting if anything is still in flight.
    apiCalls: { ...meta.apiCalls },
    ...(meta.apiCallsFailed && Object.keys(meta.apiCallsFailed).length > 0
      ? { apiCallsFailed: structuredClone(meta.apiCallsFailed) }
      : {}),
    rejections: [],
    drift: [],
  };
}

/**
 * The report of a run, from what it prepared and what it applied (undefined when it applied
 * nothing: a dry run, a cancelled or failed run). Pure. A planned run's counts are the plan's;
 * an applied run's are what was done.
 */
export function reportOf(
  prepared: PreparedRun,
  applied: ApplyResult | undefined,
  meta: ReportMeta,
): RunReport {
  const report = runReportOf(prepared, applied, meta);
  // A source stopped by its provider's budget: what it read is written, the rest waits for
  // `resumesAt`. A failure, a tripped guard or a stop says more and stays.
  const pause = prepared.ingest?.pause;
  if (pause && !meta.dryRun && (report.outcome === 'ok' || report.outcome === 'skipped')) {
    report.outcome = 'paused';
    report.resumesAt = pause.resumesAt;
    report.reason = `${pause.reason}; the next run goes on from there`;
  }
  return report;
}

function runReportOf(prepared: PreparedRun, applied: ApplyResult | undefined, meta: ReportMeta): RunReport {
  const report = emptyReport(meta);
  if (prepared.ingest) {
    const { mode, read, rejected, rejections, rejectedWithoutKey, decodedAs1252 } = prepared.ingest;
    Object.assign(report, { mode, read, rejected, rejections, rejectedWithoutKey });
    if (prepared.ingest.duplicates > 0) report.duplicates = prepared.ingest.duplicates;
    if (prepared.ingest.removals) report.removals = prepared.ingest.removals;
    if (prepared.ingest.fullReadDue) report.fullReadDue = true;
    if (prepared.ingest.fromProvider) report.fromProvider = true;
    if (prepared.ingest.known !== undefined) report.known = prepared.ingest.known;
    if (prepared.ingest.reused) report.reusedReading = prepared.ingest.reused.sha256;
    if (prepared.ingest.reused?.recordsRead) report.reusedReadingRecordsRead = true;
    report.decodedAs1252 = decodedAs1252.slice(0, 100);
    report.decodedAs1252Count = decodedAs1252.length;
    report.unknownMarkers = prepared.ingest.unknownMarkers;
    report.droppedImages = prepared.ingest.droppedImages;
    if (prepared.ingest.hints) report.hints = prepared.ingest.hints;
    if (prepared.ingest.sourceNote) report.source = prepared.ingest.sourceNote;
    if (prepared.ingest.continues) report.continues = true;
  }
  if (prepared.kind !== 'planned') {
    if (prepared.kind === 'failed') report.guards = prepared.guards;
    return finish(report, prepared.kind, prepared.reason);
  }
  // Whole milliseconds, as `durationMs`.
  const { feedMs, pagesMs, planMs } = prepared.phases;
  const ms = Math.round;
  report.phases = {
    feedMs: ms(feedMs),
    pagesMs: ms(pagesMs),
    planMs: ms(planMs),
    writesMs: ms(meta.writesMs ?? 0),
  };
  report.drift = prepared.snapshot.drift;
  const { drift: _drift, ...snapshot } = prepared.snapshot;
  report.snapshot = snapshot;
  Object.assign(report, plannedCounts(prepared.plan));
  if (prepared.unknownOwners !== undefined) {
    const skipped = prepared.unknownOwners.reduce((sum, o) => sum + o.skipped, 0);
    if (skipped > 0) report.skippedUnknownOwner = skipped;
    report.hints = [
      ...(report.hints ?? []),
      ...prepared.unknownOwners.map((o) => formerIdHint(prepared.plan.feedId, o)),
    ];
  }
  if (prepared.caseTwins !== undefined)
    report.hints = [...(report.hints ?? []), caseTwinsHint(prepared.caseTwins)];
  const { changes, omitted } = changesOf(prepared.plan);
  report.changes = changes;
  report.changesOmitted = omitted;
  if (!applied && meta.dryRun) return finish(report, outcomeOf(report));
  // Stopped before its first write: it wrote nothing, and every write of the plan is not applied.
  const before = !applied;
  const done = applied ?? { ...noWrites(), cancelled: true, notApplied: unappliedOf(prepared.plan) };
  Object.assign(report, {
    created: done.created,
    updated: done.updated,
    adopted: done.adopted,
    markedSold: done.markedSold,
    deleted: done.deleted,
    duplicatesDeleted: done.duplicatesDeleted,
    ambiguousResolved: done.ambiguousResolved,
    failed: done.failures,
    failedCount: done.failedCount,
  });
  if (done.hints !== undefined) report.hints = [...(report.hints ?? []), ...done.hints];
  if (done.replaced > 0) report.replaced = done.replaced;
  else delete report.replaced;
  // A replace's new listing, by its new ID: what anyone who keeps platform IDs needs.
  for (const change of report.changes ?? []) {
    const newId = change.op === 'replace' ? done.newIds[change.key] : undefined;
    if (newId !== undefined) change.newId = newId;
  }
  if (done.stopped !== undefined) {
    // The key was refused: every write left would have been refused too.
    report.notApplied = keptOf(done.notApplied);
    return finish(
      report,
      'failed',
      `${done.stopped}; ${notAppliedText(done.notApplied)}${done.failedCount > 0 ? `, besides the ${done.failedCount} that failed` : ''}: the next run writes them once the key is accepted`,
    );
  }
  if (done.cancelled) {
    report.notApplied = keptOf(done.notApplied);
    if (!before) return finish(report, 'cancelled');
    return finish(
      report,
      'cancelled',
      notAppliedCount(report.notApplied) === 0
        ? 'cancelled before applying; the plan had nothing to write'
        : `cancelled before applying: ${notAppliedText(report.notApplied)}; the next run repairs them`,
    );
  }
  return finish(report, outcomeOf(report));
}

/** The plan's counts: the report of a dry run, and the base a real run overwrites with what it did. */
function plannedCounts(plan: Plan): Partial<RunReport> {
  const { adopted, markedSold, replaced } = updateCounts(plan.updates);
  return {
    ownedBefore: plan.ownedCount,
    ...(plan.removalsElsewhere ? { removalsElsewhere: plan.removalsElsewhere } : {}),
    created: plan.creates.length,
    updated: plan.updates.length,
    adopted,
    ...(replaced > 0 ? { replaced } : {}),
    deleted: plan.deletes.length,
    duplicatesDeleted: duplicateDeletes(plan.deletes),
    unchanged: plan.unchanged.length,
    foreign: plan.foreign.length,
    skipped: itemsOf(plan.skipped, 0, SKIPPED_KEPT).map((s) => ({
      key: s.key,
      reason: s.reason,
      id: s.id,
      ...(s.owner ? { owner: s.owner } : {}),
    })),
    skippedCount: plan.skipped.length,
    heldDeletes: plan.heldDeletes.length,
    markedSold,
    inGrace: plan.grace.length,
    graceKeys: itemsOf(plan.grace, 0, HELD_KEPT),
    ...(plan.heldDeletes.length > 0
      ? {
          heldDeletesDigest: heldDeletesDigest(plan.heldDeletes),
          heldDeleteKeys: itemsOf(plan.heldDeletes, 0, HELD_KEPT).map((d) => ({
            key: d.key,
            id: d.id,
            reason: d.reason,
          })),
        }
      : {}),
    held: plan.held.length,
    heldOnPlatform: countOnPlatform(plan.held),
    heldKeys: itemsOf(plan.held, 0, HELD_KEPT),
    guards: plan.guards,
  };
}

/**
 * The outcome as a person reads it, the same on the dashboard, in `explain`, in the CLI's report
 * and in the worker's log: a run with rejected or held records is `partial` (the CLI's exit code
 * 4), `guarded` is `guard tripped`. The report's `outcome` stays the machine's word (`--json`).
 */
export type OutcomeLabel =
  | 'ok'
  | 'partial'
  | 'failed'
  | 'cancelled'
  | 'guard tripped'
  | 'skipped'
  | 'paused'
  | 'never run';

export function outcomeLabel(
  report: Pick<RunReport, 'outcome' | 'rejected' | 'held' | 'skippedUnknownOwner'> | undefined,
): OutcomeLabel {
  if (!report) return 'never run';
  if (report.outcome === 'guarded') return 'guard tripped';
  if (
    report.outcome === 'ok' &&
    (report.rejected > 0 || (report.held ?? 0) > 0 || (report.skippedUnknownOwner ?? 0) > 0)
  )
    return 'partial';
  return report.outcome;
}

/** What a report says of creates whose key a hand-made listing has in other letter case. */
function caseTwinsHint({ count, first }: CaseTwins): MappingHint {
  const named = first.map((t) => `${t.key} ≈ ${t.remoteKey} (ID ${t.id})`).join(', ');
  const more = count > first.length ? `, and ${count - first.length} more` : '';
  return {
    code: 'key_case',
    message: `${count} listing(s) this feed creates have a key that an untagged listing on the chatbot has in other letter case (${named}${more}): not the same key, so the home is listed twice`,
    fix: "delete the hand-made listing on the platform (the feed's own replaces it); or, before the feed creates its own (`feed-sync plan` says this first), give it the feed's key exactly and the feed adopts it. Keys are compared exactly",
  };
}

/** What a run says of listings another feed id tags, when the config has no feed of that id. */
function formerIdHint(feedId: string, { owner, skipped, foreign }: UnknownOwner): MappingHint {
  if (skipped === 0)
    return {
      code: 'unknown_owner',
      message: `${foreign} listing(s) on this chatbot are tagged for feed "${owner}", which this config does not have: no feed updates or deletes them`,
      fix: `if feed "${owner}" was removed, delete its listings on the platform; if it was renamed, add \`adoptFrom: [${owner}]\` to its new feed (here, if that is "${feedId}")`,
    };
  return {
    code: 'unknown_owner',
    message: `${skipped} listing(s) of this feed's keys are tagged for feed "${owner}", which this config does not have: they are skipped, never updated or deleted by this feed`,
    fix: `if feed "${owner}" was renamed to "${feedId}", add \`adoptFrom: [${owner}]\` to feed "${feedId}": its listings become this feed's (each written once, to carry the new id); if it was removed, delete its listings on the platform or adopt them the same way`,
  };
}

/**
 * The feed's listings on the platform after a run, as its report tells them: what it found before
 * its writes and what they added and took (`ownedBefore`), whatever the run (an incremental one, a
 * RESO sweep's, a part, a paused or cancelled one). A report older than `ownedBefore` counts a
 * full compare that ended ok or guarded: created, updated (a mark Sold is an update its grace
 * counts too: once), unchanged, and kept without a write (a rejected record's listing, a listing in
 * its grace, a delete a guard held). A failed create or delete leaves the count unknown, a run
 * without a plan says nothing, and a dry run wrote nothing: undefined.
 */
export function ownedAfter(report: RunReport): number | undefined {
  if (report.dryRun || report.snapshot === undefined || failedCountOf(report) > 0) return undefined;
  // What the run found and what its writes did: exact for every run (a RESO key sweep's run reads a
  // few records and keeps the rest unread, which a count of what it read would leave out).
  if (report.ownedBefore !== undefined) return report.ownedBefore + report.created - report.deleted;
  const settled = report.outcome === 'ok' || report.outcome === 'guarded';
  if (report.mode !== 'full' || report.continues || !settled) return undefined;
  const kept = (report.heldOnPlatform ?? 0) + (report.inGrace ?? 0) + (report.heldDeletes ?? 0);
  return report.created + report.updated - (report.markedSold ?? 0) + report.unchanged + kept;
}

/**
 * Whether the feed's next part runs at once (the CLI straight after, the worker queued): a run that
 * ended ok and goes on, having read something (a part that read nothing new would go on forever),
 * or owing a full read (which reads, and owes nothing after).
 */
export function goesOnNow(report: RunReport): boolean {
  if (report.continues !== true || report.outcome !== 'ok' || report.dryRun) return false;
  return report.read > 0 || report.fullReadDue === true;
}

/** Failed writes make a run failed; a tripped guard makes it guarded; otherwise it is ok. */
export function outcomeOf(report: Pick<RunReport, 'failed' | 'failedCount' | 'guards'>): RunOutcome {
  if (failedCountOf(report) > 0) return 'failed';
  if (report.guards.some((g) => g.tripped)) return 'guarded';
  return 'ok';
}

function reasonOf(report: RunReport, outcome: RunOutcome): string | undefined {
  if (outcome === 'failed' && failedCountOf(report) > 0) return `${failedCountOf(report)} write(s) failed`;
  if (outcome === 'guarded')
    return report.guards
      .filter((g) => g.tripped)
      .map((g) => g.message)
      .join('; ');
  if (outcome === 'cancelled') {
    const left = report.notApplied ? notAppliedText(report.notApplied) : '0 listing(s) not written';
    return `cancelled: ${left}; the next run repairs them`;
  }
  return undefined;
}

/** Held keys whose listing is on the platform (the rest have none yet: nothing is created for them). */
function countOnPlatform(held: Plan['held']): number {
  if (held instanceof PlannedHeld) return held.onPlatform;
  let count = 0;
  for (const h of held) if (h.ids.length > 0) count++;
  return count;
}

/**
 * Every write of a plan none of whose writes was issued, as `keptOf` keeps them: the first
 * `NOT_APPLIED_KEPT` keys of each kind (a plan's lists are in key order), and the counts once any
 * is cut.
 */
function unappliedOf(plan: Plan): NotApplied {
  const first = (list: PlanList<{ key: string }>) =>
    itemsOf(list, 0, NOT_APPLIED_KEPT).map((item) => item.key);
  const n: NotApplied = {
    creates: first(plan.creates),
    updates: first(plan.updates),
    deletes: first(plan.deletes),
  };
  const counts = { creates: plan.creates.length, updates: plan.updates.length, deletes: plan.deletes.length };
  const cut = Object.values(counts).some((count) => count > NOT_APPLIED_KEPT);
  return cut ? { ...n, counts } : n;
}

/** The first `NOT_APPLIED_KEPT` keys of each kind (in key order), and the counts once any is cut. */
function keptOf(n: NotApplied): NotApplied {
  const cut = [n.creates, n.updates, n.deletes].some((keys) => keys.length > NOT_APPLIED_KEPT);
  if (!cut) return n;
  const first = (keys: string[]) => [...keys].sort().slice(0, NOT_APPLIED_KEPT);
  return {
    creates: first(n.creates),
    updates: first(n.updates),
    deletes: first(n.deletes),
    counts: { creates: n.creates.length, updates: n.updates.length, deletes: n.deletes.length },
  };
}

function finish(report: RunReport, outcome: RunOutcome, reason?: string): RunReport {
  report.outcome = outcome;
  const why = reason ?? reasonOf(report, outcome);
  if (why) report.reason = why;
  return report;
}
