import type { Operation } from '../api/index.ts';
import type { Rejection } from '../ingest/index.ts';
import {
  failedCountOf,
  type ListingChange,
  notAppliedCounts,
  type OutcomeLabel,
  outcomeLabel,
  type RunPhases,
  type RunReport,
  skippedCountOf,
} from '../reconcile/index.ts';
import { duration } from './duration.ts';
import { graceLine, holdReason } from './render-plan.ts';

/** Rejections and failures shown in full in the text; `--json` carries the rest. */
export const SHOWN = 10;

const MARK: Record<OutcomeLabel, string> = {
  ok: '✓',
  partial: '~',
  failed: '✗',
  'guard tripped': '!',
  skipped: '=',
  cancelled: '⏹',
  paused: '⏸',
  'never run': '',
};

/**
 * A run report for a terminal: outcome, counts, calls, guards and drift, then what was wrong: the
 * first rejected feed records and failed writes, each in full.
 */
export function renderReport(report: RunReport): string {
  const seconds = (report.durationMs / 1000).toFixed(1);
  const label = outcomeLabel(report);
  const lines = [
    `${MARK[label]} ${report.feedId} → ${report.chatbot}: ${label}${report.dryRun ? ' (dry run)' : ''}` +
      ` in ${seconds}s${report.reason ? ` — ${report.reason}` : ''}`,
  ];
  if (report.resumesAt) lines.push(`  resumes at ${report.resumesAt}`);
  if (report.source)
    lines.push(`  source: ${report.source}${report.continues ? ' (the next run goes on at once)' : ''}`);
  if (report.outcome === 'skipped' || (report.outcome === 'paused' && !report.snapshot))
    return lines.join('\n');
  const verb = report.dryRun ? 'would be ' : '';
  lines.push(
    `  ${verb}created ${report.created}, ${verb}updated ${report.updated}, ${verb}deleted ${report.deleted}, ` +
      `unchanged ${report.unchanged}, rejected ${report.rejected}, held ${report.held}, foreign ${report.foreign}, ` +
      `adopted ${report.adopted}, failed ${failedCountOf(report)}`,
  );
  if (report.reusedReading)
    lines.push(
      report.reusedReadingRecordsRead
        ? `  feed reading: the feed's bytes are the last run's (SHA-256 ${report.reusedReading.slice(0, 12)}…): compared from its last reading; the file's records read to write the listings the platform lost or changed, each checked against that reading`
        : `  feed reading: the feed's bytes are the last run's (SHA-256 ${report.reusedReading.slice(0, 12)}…): not read again, its records taken from the record memo`,
    );
  if (report.known)
    lines.push(
      `  record memo: ${report.known} of ${report.read} record(s) known from the last run, not mapped again`,
    );
  const extras = [
    report.duplicatesDeleted ? `${report.duplicatesDeleted} remote duplicates deleted` : '',
    report.heldDeletes ? `${report.heldDeletes} deletes held back` : '',
    report.markedSold ? `${report.markedSold} listing(s) gone from the feed marked Sold` : '',
    report.replaced
      ? `${report.replaced} listing(s) ${report.dryRun ? 'would be ' : ''}replaced to clear a value the feed no longer sends (created anew, the old ID deleted)`
      : '',
    report.inGrace ? `${report.inGrace} listing(s) gone from the feed kept until their grace ends` : '',
    report.ambiguousResolved ? `${report.ambiguousResolved} ambiguous creates resolved by lookup` : '',
    skippedCountOf(report)
      ? `${skippedCountOf(report)} feed listings skipped (key held by another owner)`
      : '',
  ].filter(Boolean);
  if (extras.length > 0) lines.push(`  ${extras.join('; ')}`);
  const calls = Object.entries(report.apiCalls).filter(([, n]) => n > 0);
  const callText = ([op, n]: [string, number]) => `${op} ${n}${failedCalls(report, op as Operation, n)}`;
  lines.push(`  API calls: ${calls.length ? calls.map(callText).join(', ') : 'none'}`);
  if (report.phases) lines.push(`  time: ${phasesText(report.phases)}`);
  if (report.snapshot) {
    const s = report.snapshot;
    const capped = s.pageSize !== s.requestedPageSize ? ` (asked ${s.requestedPageSize}, server capped)` : '';
    lines.push(`  remote: ${s.remoteCount} listing(s) in ${s.pages} page(s) of ${s.pageSize}${capped}`);
    if (s.pagesKnown)
      lines.push(
        `  page memo: ${s.pagesKnown} of ${s.pages} page(s) known from the last run, not decoded again`,
      );
  }
  for (const g of report.guards)
    lines.push(
      `  guard ${g.guard}: ${g.tripped ? 'TRIPPED' : g.overridden ? 'overridden' : 'ok'} — ${g.message}`,
    );
  for (const d of report.drift) lines.push(`  drift: ${d}`);
  lines.push(...heldDeleteLines(report));
  lines.push(...hintLines(report));
  lines.push(...changeLines(report));
  lines.push(...rejectionLines(report), ...heldLines(report), ...failureLines(report));
  if (report.notApplied) {
    const n = report.notApplied;
    const { creates, updates, deletes } = notAppliedCounts(n);
    lines.push(
      `  not applied: ${creates} creates, ${updates} updates, ${deletes} deletes (the next run repairs them)`,
    );
  }
  return lines.join('\n');
}

/** The deletes a guard held back, by key: what an override would delete, named before it is given. */
function heldDeleteLines(report: RunReport): string[] {
  const held = report.heldDeleteKeys ?? [];
  if (held.length === 0) return [];
  const shown = held.slice(0, SHOWN).map((d) => `${d.key} (ID ${d.id}, ${d.reason})`);
  const more = report.heldDeletes - shown.length;
  return [
    `  held back, --allow-mass-delete would delete: ${shown.join(', ')}${more > 0 ? `, … and ${more} more (\`feed-sync plan --feed ${report.feedId}\` lists them)` : ''}`,
  ];
}

/** The report's words for each kind of write (`ListingChange.op`), in the plan's order. */
const WRITTEN: readonly [ListingChange['op'], string][] = [
  ['create', 'created'],
  ['update', 'updated'],
  ['replace', 'replaced (a value the feed no longer sends cleared)'],
  ['adopt', 'adopted'],
  ['sold', 'marked Sold'],
  ['delete', 'deleted'],
];

/**
 * Which listings the run wrote, by key (the first few of each kind; updates with the fields that
 * changed): a sync run by hand says what it deleted, not only how many. Where a write failed or was
 * not applied, these are the plan's, and the lines below say which did not happen.
 */
function changeLines(report: RunReport): string[] {
  const changes = report.changes ?? [];
  if (changes.length === 0) return [];
  const partial = failedCountOf(report) > 0 || report.notApplied !== undefined;
  const lines = [
    report.dryRun
      ? '  listings it would write:'
      : partial
        ? '  listings planned (what failed or was not applied is below):'
        : '  listings written:',
  ];
  for (const [op, word] of WRITTEN) {
    const of = changes.filter((c) => c.op === op);
    if (of.length === 0) continue;
    const shown = of.slice(0, SHOWN).map((c) => {
      const fields = c.fields?.map((f) => f.field) ?? [];
      const key = c.newId === undefined ? c.key : `${c.key} [ID ${c.id} → ${c.newId}]`;
      return fields.length > 0 ? `${key} (${fields.join(', ')})` : key;
    });
    const more = of.length - shown.length;
    lines.push(`    ${word}: ${shown.join(', ')}${more > 0 ? `, … and ${more} more` : ''}`);
  }
  if (report.changesOmitted)
    lines.push(`    … and ${report.changesOmitted} more write(s) past the first ${changes.length}`);
  lines.push('    (`--json` lists them, with each field old → new)');
  return lines;
}

/** What was wrong with the feed, row by row, as ingestion worded it: feed, row, field, value, reason. */
function rejectionLines(report: RunReport): string[] {
  if (report.rejected === 0) return [];
  const shown = report.rejections.slice(0, SHOWN);
  const lines = [
    `  rejected ${report.rejected} feed record(s):`,
    ...shown.map((r) => `    ${rejectionLine(r)}`),
  ];
  const more = report.rejected - shown.length;
  if (more > 0)
    lines.push(
      `    … and ${more} more; \`feed-sync validate --feed ${report.feedId} --json\` lists them all`,
    );
  return lines;
}

/** Listings kept as they are because their feed record was rejected, and rejections that hold nothing. */
function heldLines(report: RunReport): string[] {
  const lines: string[] = [];
  if (report.held > 0) {
    const on = report.heldOnPlatform;
    lines.push(
      on === undefined || on === report.held
        ? `  held ${report.held} listing(s), kept exactly as they are:`
        : on === 0
          ? `  held ${report.held} key(s), none of this feed's on the platform (nothing is created for them):`
          : `  held ${report.held} key(s): ${on} listing(s) on the platform kept exactly as they are, ${report.held - on} not created:`,
    );
    for (const h of report.heldKeys.slice(0, SHOWN)) {
      // Where the line above says none is on the platform, each key does not say it again.
      const where = h.ids.length > 0 ? ` (ID ${h.ids.join(', ')})` : on === 0 ? '' : ' (not created)';
      lines.push(`    ${h.key}${where}: ${holdReason(h)}`);
    }
    if (report.held > SHOWN)
      lines.push(
        `    … and ${report.held - SHOWN} more; ${
          report.held > report.heldKeys.length
            ? `--json lists the first ${report.heldKeys.length}, \`feed-sync validate --feed ${report.feedId} --json\` every rejected record`
            : '--json lists them'
        }`,
      );
  }
  const grace = report.graceKeys ?? [];
  if (grace.length > 0) {
    lines.push(`  ${report.inGrace} listing(s) gone from the feed, kept for now (gone.afterDays):`);
    for (const g of grace.slice(0, SHOWN)) lines.push(`    ${g.key} (ID ${g.id}): ${graceLine(g)}`);
    if (report.inGrace > SHOWN)
      lines.push(
        `    … and ${report.inGrace - SHOWN} more; --json lists ${report.inGrace > grace.length ? `the first ${grace.length}` : 'them'}`,
      );
  }
  lines.push(...feedNotes(report).map((note) => `  ${note}`));
  return lines;
}

/**
 * What the run read in the feed beside its listings and rejections: removals it stated, repeated
 * keys, rows read as Windows-1252, unknown markers, dropped images, keyless rejections. The text
 * report and the dashboard's run page say the same sentences.
 */
export function feedNotes(report: RunReport): string[] {
  const notes: string[] = [];
  if (report.removals)
    notes.push(
      `${report.removals} record(s) said their listing left the market (withdrawn, expired, deleted at the source): not listings; a listing of theirs on the platform leaves with them, unless a guard holds it (above)`,
    );
  const elsewhere = report.removalsElsewhere;
  if (elsewhere) {
    const owners = elsewhere.owners.map((o) => (o === '' ? 'an untagged listing' : `feed "${o}"`)).join(', ');
    notes.push(
      `${elsewhere.count} removal(s) the feed states name listings this feed does not own (${owners}): left as they are; if that feed was renamed to this one, \`adoptFrom\` makes them this feed's`,
    );
  }
  if (report.decodedAs1252Count > 0) {
    const rows = (report.decodedAs1252 ?? []).slice(0, SHOWN).join(', ');
    const more = report.decodedAs1252Count > SHOWN ? ', …' : '';
    notes.push(
      `${report.decodedAs1252Count} row(s) were not UTF-8 and were read as Windows-1252: ${rows}${more}`,
    );
  }
  // Reports saved before a count existed lack it: the dashboard shows those too.
  const markers = Object.entries(report.unknownMarkers ?? {}).filter(([, n]) => n > 0);
  if (markers.length > 0)
    notes.push(
      `unknown (0, the feed has no value): ${markers.map(([field, n]) => `${field} ${n}`).join(', ')}`,
    );
  if (report.droppedImages > 0)
    notes.push(
      `${report.droppedImages} image URL(s) dropped (not absolute http(s); \`validate --feed\` lists them)`,
    );
  if (report.rejectedWithoutKey > 0)
    notes.push(
      `${report.rejectedWithoutKey} rejected record(s) had no readable key: such a row, like a broken one, holds only the listings whose keys appear in its cells (fix the rows above)`,
    );
  if (report.duplicates)
    notes.push(
      report.fromProvider
        ? `${report.duplicates} record(s) came twice from the provider (changed while the feed was read, they moved to a later page): the last of each key is kept`
        : `${report.duplicates} record(s) repeated the key of an earlier one: the last of each key is kept (\`feed-sync validate --feed ${report.feedId}\` lists them)`,
    );
  return notes;
}

/** Each write that failed: operation, key, remote ID, and what the platform answered. */
function failureLines(report: RunReport): string[] {
  const count = failedCountOf(report);
  if (count === 0) return [];
  const lines = [`  failed ${count} write(s):`];
  for (const f of report.failed.slice(0, SHOWN)) {
    const what =
      f.platformCode !== undefined || f.platformMessage
        ? `platform Code ${f.platformCode ?? '?'}: ${JSON.stringify(f.platformMessage ?? '')}`
        : f.message.replace(`${f.operation}: `, '');
    lines.push(`    ${f.operation} ${f.key}${f.id ? ` (ID ${f.id})` : ''}: ${what} [${f.code}]`);
  }
  if (count > SHOWN)
    lines.push(
      `    … and ${count - SHOWN} more; --json lists ${count > report.failed.length ? `the first ${report.failed.length}` : 'them all'}`,
    );
  return lines;
}

/**
 * A rejection as its line in the report: `Row 20 of feed.csv (ML81332052): Bedrooms "three" is not
 * a number`. Ingestion words where the record is; a row's line also names its key when it has one.
 */
export function rejectionLine(rejection: Pick<Rejection, 'key' | 'message' | 'problems'>): string {
  const { key } = rejection;
  const message = withOtherProblems(rejection);
  const at = message.indexOf(': ');
  if (key === undefined || at < 0) return message;
  const head = message.slice(0, at);
  // Named already where a place ends with the key (`Record 3 of feed.xml (MLSNumber K-3)`); a key
  // that is only some word of the place (`Row 20 of feed.csv`, key `20`) is still added.
  if (head.endsWith(` ${key})`) || head.endsWith(`(${key})`) || head.endsWith(` ${key}`)) return message;
  return `${head} (${key})${message.slice(at)}`;
}

/**
 * A rejection's message with its other problems after it (`…; also LotArea "1.649" …`): every
 * problem of the record at once, so one round of fixes clears it. The report, `validate`, the
 * dashboard's run page and its CSV say the same.
 */
export function withOtherProblems(rejection: Pick<Rejection, 'message' | 'problems'>): string {
  const others = (rejection.problems ?? []).slice(1).map((p) => p.message);
  return others.length === 0 ? rejection.message : `${rejection.message}; also ${others.join('; ')}`;
}

/** ` (5 attempts)` beside a count whose one call failed, ` (2 failed after 9 attempts)` beside more. */
function failedCalls(report: RunReport, operation: Operation, calls: number): string {
  const failed = report.apiCallsFailed?.[operation];
  if (!failed || failed.attempts <= failed.calls) return '';
  const attempts = `${failed.attempts} attempt${failed.attempts === 1 ? '' : 's'}`;
  return calls === 1 && failed.calls === 1 ? ` (${attempts})` : ` (${failed.calls} failed after ${attempts})`;
}

/** What a run says to fix in the config (`hints`), a line each and its fix: the report's and the plan's. */
export function hintLines(report: Pick<RunReport, 'hints'>): string[] {
  return (report.hints ?? []).flatMap((hint) => [`  hint: ${hint.message}`, `    fix: ${hint.fix}`]);
}

/** Where a run's time went: `feed 29.5 s, pages 212 ms, plan 1.3 s, writes 2 min 15 s`. */
export function phasesText(phases: RunPhases): string {
  const { feedMs, pagesMs, planMs, writesMs } = phases;
  return `feed ${duration(feedMs)}, pages ${duration(pagesMs)}, plan ${duration(planMs)}, writes ${duration(writesMs)}`;
}
