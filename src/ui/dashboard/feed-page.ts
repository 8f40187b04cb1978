import { failedCountOf, type ListingChange, type RunReport } from '../../reconcile/index.ts';
import { feedNotes, holdReason, phasesText, showField, withOtherProblems } from '../../render/index.ts';
import { isFromStateFile } from '../../state/index.ts';
import { type FeedSummary, outcomeLabel, recordCounts } from './feed-summary.ts';
import { type LiveRun, liveText, outcomeBadge, readableReason, runNowForm } from './feeds-page.ts';
import { type Html, html } from './html.ts';
import { keyLink } from './listing-page.ts';
import { searchForm } from './listing-search.ts';
import { ago, duration, formatInZone } from './schedule.ts';

export interface FeedView {
  summary: FeedSummary;
  runs: RunReport[];
  /** Index into `runs` of the run shown in detail. */
  selected: number;
  live?: LiveRun;
  readOnly: boolean;
  now: Date;
}

const OPS: Record<ListingChange['op'], string> = {
  create: 'created',
  update: 'updated',
  replace: 'replaced',
  adopt: 'adopted',
  sold: 'marked Sold',
  delete: 'deleted',
};
const DELETE_REASONS: Record<string, string> = {
  gone: 'gone from the feed',
  removed: 'removed status in the feed',
  duplicate: 'duplicate on the platform',
};

function runsTable(view: FeedView, feedId: string): Html {
  if (view.runs.length === 0) return html`<p class="empty">No run recorded yet.</p>`;
  const cliRuns = view.runs.filter(isFromStateFile).length;
  return html`${
    cliRuns === view.runs.length
      ? html`<p class="sub">Runs made with <span class="mono">feed-sync sync</span> from the command line (the config's state file): no worker has run this feed yet.</p>
`
      : cliRuns > 0
        ? html`<p class="sub">Runs marked <span class="flag">command line</span> were made with <span class="mono">feed-sync sync</span> (the config's state file); the others by the worker.</p>
`
        : ''
  }<table class="runs">
<thead><tr><th>Started</th><th>Outcome</th><th>Trigger</th><th class="num">Duration</th><th class="num">Read</th><th class="num">Rejected</th><th class="num">Held</th><th class="num">Changes</th></tr></thead>
<tbody>${view.runs.map((run, i) => {
    const counts = recordCounts(run);
    return html`<tr class="${i === view.selected ? 'selected' : ''}">
  <td><a href="/feeds/${encodeURIComponent(feedId)}?run=${i}">${formatInZone(new Date(run.startedAt), view.summary.schedule?.timezone ?? 'UTC')}</a> <span class="tz">${view.summary.schedule?.timezone ?? 'UTC'}</span> <span class="sub">${ago(new Date(run.startedAt), view.now)}</span></td>
  <td>${outcomeBadge(outcomeLabel(run))}${run.dryRun ? html` <span class="flag">dry run</span>` : ''}</td>
  <td>${run.trigger ?? 'cli'}${cliRuns > 0 && cliRuns < view.runs.length && isFromStateFile(run) ? html` <span class="flag">command line</span>` : ''}</td>
  <td class="num">${duration(run.durationMs)}</td>
  <td class="num">${counts.read}</td>
  <td class="num${counts.rejected ? ' warn' : ''}">${counts.rejected}</td>
  <td class="num${counts.held ? ' warn' : ''}">${counts.held}</td>
  <td class="num changes"><span class="c">+${run.created}</span> <span class="u">~${run.updated}</span> <span class="d">−${run.deleted}</span></td>
</tr>`;
  })}</tbody></table>`;
}

function guardSection(run: RunReport, feedId: string, readOnly: boolean): Html {
  if (run.guards.length === 0) return html``;
  const tripped = run.guards.some((g) => g.tripped);
  // Only the share guards give way to the override; a feed with no listing, or a source that
  // failed, deletes nothing whatever is allowed.
  const overridable = run.guards.some(
    (g) =>
      g.tripped &&
      (g.guard === 'max-delete-share' ||
        g.guard === 'unkeyed-rejections' ||
        g.guard === 'adopt-from' ||
        g.guard === 'unframed-body' ||
        g.guard === 'override-mismatch' ||
        g.guard === 'mass-replace'),
  );
  const replaces = run.guards.find((g) => g.tripped && g.guard === 'mass-replace');
  const cli = html`<code>feed-sync sync --feed ${feedId} --allow-mass-delete</code>`;
  const readOnlyNote = html`<p class="sub">(read-only: set UI_USER and UI_PASSWORD to act from here; or run ${cli})</p>`;
  // Each override names what it allows (the held keys' digest): the deletes' button lets no replace
  // through, and neither acts on what the feed drops after the page was shown (a tester).
  const overrideForm = (
    what: 'deletes' | 'replaces',
    held: { digest: string; count: number } | undefined,
    confirm: string,
  ) =>
    readOnly
      ? readOnlyNote
      : held === undefined
        ? html`<p class="sub">(this run was saved by an older version: run the feed again to allow its ${what} from here; or run ${cli})</p>`
        : html`<form method="post" action="/feeds/${encodeURIComponent(feedId)}/run" class="run-now" data-feed="${feedId}" data-confirm="${confirm}"><input type="hidden" name="${what === 'deletes' ? 'allowDeletes' : 'allowReplaces'}" value="${held.digest}:${held.count}"><button type="submit" class="danger">Run now, allowing these ${what}</button></form>`;
  const deletesPart =
    tripped && run.heldDeletes > 0
      ? html`<p>${run.heldDeletes} deletes were held back${
          run.heldDeleteKeys?.length
            ? html`: ${run.heldDeleteKeys.map((d, i) => html`${i > 0 ? ', ' : ''}${keyLink(feedId, d.key)}`)}${run.heldDeletes > run.heldDeleteKeys.length ? ` and ${run.heldDeletes - run.heldDeleteKeys.length} more` : ''}`
            : ''
        }. If the feed really dropped these listings, run once with these deletes allowed:</p>${overrideForm(
          'deletes',
          run.heldDeletesDigest === undefined
            ? undefined
            : { digest: run.heldDeletesDigest, count: run.heldDeletes },
          `Delete the ${run.heldDeletes} held listings of ${feedId} from the platform? If the feed has changed since, none is deleted.`,
        )}`
      : '';
  const replacesPart = replaces
    ? html`<p>${replaces.held ? `${replaces.held.count} replaces were` : 'Replaces were'} held back: the listings keep the values the feed no longer sends. If the feed really dropped them, run once with these replaces allowed:</p>${overrideForm(
        'replaces',
        replaces.held,
        `Replace the ${replaces.held?.count ?? 0} held listings of ${feedId} on the platform, clearing the values the feed no longer sends (each gets a new ID)? If the feed has changed since, none is replaced.`,
      )}`
    : '';
  return html`<section class="card${tripped ? ' card-alert' : ''}"><h3>Guards</h3><ul class="guards">${run.guards.map(
    (g) =>
      html`<li class="${g.tripped ? 'tripped' : ''}"><b>${g.guard}</b>: ${g.tripped ? 'tripped' : g.overridden ? 'overridden' : 'ok'} — ${g.message}</li>`,
  )}</ul>${
    tripped && !overridable
      ? html`<p>No override applies: fix the feed (<code>feed-sync validate --feed ${feedId}</code> says what its records lack).</p>`
      : html`${deletesPart}${replacesPart}`
  }</section>`;
}

function changeRow(change: ListingChange, notApplied: Set<string>, feedId: string): Html {
  const units = { CurrencySymbol: change.currency ?? '', AreaUnit: change.areaUnit } as Parameters<
    typeof showField
  >[2];
  const fields =
    change.op === 'delete'
      ? html`<span class="sub">${DELETE_REASONS[change.reason ?? ''] ?? change.reason ?? ''}</span>`
      : change.fields?.length
        ? html`<ul class="fields">${change.fields.map(
            (f) =>
              html`<li><span class="field">${f.field}</span> <span class="old">${showField(f.field, f.from, units)}</span> → <span class="new">${showField(f.field, f.to, units)}</span></li>`,
          )}</ul>`
        : html`<span class="sub">${change.summary ?? ''}</span>`;
  return html`<tr><td>${keyLink(feedId, change.key)}</td><td><span class="op op-${change.op}">${OPS[change.op]}</span>${
    notApplied.has(change.key) ? html` <span class="flag">not applied</span>` : ''
  }</td><td>${fields}</td></tr>`;
}

function changesSection(run: RunReport, feedId: string): Html {
  const changes = run.changes;
  const title = run.dryRun ? 'Planned changes' : 'Applied changes';
  // A run that failed before its plan changed nothing; its reason is above.
  if (!changes && run.outcome === 'failed' && !run.snapshot) return html``;
  if (!changes) {
    return html`<section class="card"><h3>${title}</h3><p class="sub">${run.created} created, ${run.updated} updated, ${run.deleted} deleted (this report has counts only).</p></section>`;
  }
  const n = run.notApplied;
  const notApplied = new Set(n ? [...n.creates, ...n.updates, ...n.deletes] : []);
  // Listings of the chatbot the run left alone: another feed's (foreign), or skipped (a tester read
  // "owned 0" and "no changes" on a feed whose every listing was another feed's).
  // Another feed's listings are among the skipped ones (counted once: a tester read 60 + 60 of 60).
  const foreign = run.foreign ?? 0;
  const skipped = Math.max(run.skippedCount ?? run.skipped?.length ?? 0, foreign);
  const besides =
    skipped > 0 ? [`${skipped} skipped${foreign > 0 ? ` (${foreign} another feed's)` : ''}`] : [];
  return html`<section class="card"><h3>${title} <span class="sub">${run.created} created · ${run.updated} updated · ${run.deleted} deleted · ${run.unchanged} unchanged${besides.map((b) => ` · ${b}`).join('')}</span></h3>${
    changes.length
      ? html`<table class="changes-table"><thead><tr><th>Listing</th><th>Change</th><th>Fields (old → new)</th></tr></thead><tbody>${changes.map((c) => changeRow(c, notApplied, feedId))}</tbody></table>`
      : html`<p class="sub">${noChangesText(run, skipped)}</p>`
  }${run.changesOmitted ? html`<p class="sub">… and ${run.changesOmitted} more.</p>` : ''}</section>`;
}

/**
 * Why a run wrote nothing, truly: held back by a guard, the feed's listings another feed's, or in
 * sync. "No changes: the chatbot already matched the feed" was said beside 54 held deletes (a tester).
 */
function noChangesText(run: RunReport, leftAlone: number): string {
  const tripped = run.guards.filter((g) => g.tripped).map((g) => g.guard);
  if (tripped.length > 0 || run.heldDeletes > 0)
    return `Nothing applied${run.heldDeletes > 0 ? `: ${run.heldDeletes} delete(s) held back` : ''}${tripped.length > 0 ? ` (guard ${[...new Set(tripped)].join(', ')}: see Guards above)` : ''}.`;
  if (leftAlone > 0 && run.unchanged === 0)
    return `No changes: the chatbot's listings with this feed's keys are another feed's or skipped (${leftAlone}), so this feed writes none of them; \`feed-sync plan --feed ${run.feedId}\` says whose.`;
  return 'No changes: the chatbot already matched the feed.';
}

/** What the run read beside its listings (removals, unknown markers, dropped images…), as the CLI's report says it. */
function notesSection(run: RunReport): Html {
  const notes = feedNotes(run);
  if (notes.length === 0) return html``;
  return html`<section class="card notes"><h3>Read in the feed</h3><ul>${notes.map((n) => html`<li>${n}</li>`)}</ul></section>`;
}

/** `Row` for a CSV's rows; `Record` where the feed has none (XML, JSON): the place a rejection names. */
const placeHeader = (rows: readonly { row?: number }[]) =>
  rows.some((r) => r.row !== undefined) ? 'Row' : 'Record';

function rejectedSection(run: RunReport, feedId: string, index: number): Html {
  // A rejected record holds its listing: left as it is on the platform until the feed is fixed.
  const held = run.heldKeys ?? [];
  const heldPart = held.length
    ? html`<section class="card"><h3>Held listings (${run.held}) <span class="sub">${run.heldOnPlatform === 0 ? 'none of this feed’s on the platform: not created until their record is fixed' : 'left exactly as they are on the platform until their record is fixed'}</span></h3><table class="held"><thead><tr><th class="num">${placeHeader(held)}</th><th>Listing</th><th>Why</th></tr></thead><tbody>${held.map(
        (h) =>
          html`<tr><td class="num">${h.row ?? h.index + 1}</td><td>${keyLink(feedId, h.key)}</td><td>${holdReason(h)}</td></tr>`,
      )}</tbody></table>${run.held > held.length ? html`<p class="sub">The first ${held.length} of ${run.held}.</p>` : ''}</section>`
    : html``;
  if (run.rejected === 0) return heldPart;
  const csv = `/feeds/${encodeURIComponent(feedId)}/runs/${index}/rejections.csv`;
  return html`<section class="card"><h3>Rejected records (${run.rejected}) <a class="button small" href="${csv}" download>Download CSV</a></h3>
<table class="rejections"><thead><tr><th class="num">${placeHeader(run.rejections)}</th><th>Listing</th><th>Field</th><th>Value</th><th>Reason</th></tr></thead><tbody>${run.rejections.map(
    (r) =>
      html`<tr><td class="num">${r.row ?? r.index + 1}</td><td>${keyLink(feedId, r.key)}</td><td>${r.field ?? ''}</td><td class="mono">${r.value === undefined ? '' : JSON.stringify(r.value)}</td><td>${withOtherProblems(r)}</td></tr>`,
  )}</tbody></table>${
    run.rejected > run.rejections.length
      ? html`<p class="sub">The first ${run.rejections.length} of ${run.rejected}; <code>feed-sync validate --feed ${feedId} --json</code> lists them all.</p>`
      : ''
  }</section>${heldPart}`;
}

/**
 * What the run says about the feed's config, with the fix: a CSV with no listing URL column, keys a
 * feed id the config does not have tags (a renamed feed: `adoptFrom`).
 */
function hintsSection(run: RunReport): Html {
  const hints = run.hints ?? [];
  if (hints.length === 0) return html``;
  return html`<section class="card hints"><h3>To fix in the config (${hints.length})</h3><ul>${hints.map(
    (h) => html`<li><p>${h.message}</p><p class="sub">Fix: ${h.fix}</p></li>`,
  )}</ul></section>`;
}

/** Listings gone from the feed that a grace keeps for now, and when they go. */
function graceSection(run: RunReport, feedId: string): Html {
  const grace = run.graceKeys ?? [];
  if (grace.length === 0) return html``;
  return html`<section class="card"><h3>Gone from the feed, kept for now (${run.inGrace}) <span class="sub">gone.afterDays: deleted when their grace ends, unless they come back</span></h3><table class="grace"><thead><tr><th>Listing</th><th class="num">ID</th><th>Gone since</th><th>Deleted from</th></tr></thead><tbody>${grace.map(
    (g) =>
      html`<tr><td>${keyLink(feedId, g.key)}</td><td class="num">${g.id}</td><td>${g.since.slice(0, 16).replace('T', ' ')} UTC${g.action === 'markSold' ? html` <span class="flag">Sold</span>` : ''}</td><td>${g.until.slice(0, 16).replace('T', ' ')} UTC</td></tr>`,
  )}</tbody></table>${run.inGrace > grace.length ? html`<p class="sub">The first ${grace.length} of ${run.inGrace}.</p>` : ''}</section>`;
}

function failuresSection(run: RunReport, feedId: string): Html {
  if (run.failed.length === 0) return html``;
  return html`<section class="card card-alert"><h3>Failed writes (${failedCountOf(run)})</h3><table><thead><tr><th>Listing</th><th>Operation</th><th>Error</th></tr></thead><tbody>${run.failed.map(
    (f) =>
      html`<tr><td>${keyLink(feedId, f.key)}</td><td>${f.operation}</td><td>${f.message} <span class="sub">${f.code}</span></td></tr>`,
  )}</tbody></table>${failedCountOf(run) > run.failed.length ? html`<p class="sub">The first ${run.failed.length} of ${failedCountOf(run)}, in key order.</p>` : ''}</section>`;
}

/** One feed: its last runs, and one run in detail (changes old → new, rejections, guards). */
export function feedPage(view: FeedView): Html {
  const s = view.summary;
  const run = view.runs[view.selected];
  return html`<p class="crumbs"><a href="/">Feeds</a> /</p>
<div class="title-row"><h1>${s.id}</h1>${outcomeBadge(s.outcome)}${s.stale ? html`<span class="flag flag-stale">stale</span>` : ''}
  <div class="spacer"></div>${runNowForm(s, view.readOnly)}<div class="progress" data-progress="${s.id}" aria-live="polite">${liveText(view.live)}</div></div>
<p class="lede">chatbot <span class="mono">${s.chatbot}</span> · ${
    s.schedule
      ? html`${s.schedule.words} (${s.schedule.timezone}), next ${s.schedule.next ? formatInZone(s.schedule.next, s.schedule.timezone) : '—'}`
      : 'no schedule'
  }</p>
${searchForm(s.id)}
<section id="run-detail">${
    run
      ? html`<h2>Run of ${formatInZone(new Date(run.startedAt), s.schedule?.timezone ?? 'UTC')} <span class="tz">${s.schedule?.timezone ?? 'UTC'}</span> ${outcomeBadge(outcomeLabel(run))}</h2>
<p class="lede">${run.trigger ? `${run.trigger} run` : 'run'} · ${duration(run.durationMs)}${run.mode && run.outcome !== 'skipped' ? ` · ${run.mode} compare` : ''}${
          run.reason ? html` · <span class="reason">${readableReason(run.reason)}</span>` : ''
        }</p>${run.phases ? html`<p class="sub phases">time: ${phasesText(run.phases)}</p>` : ''}
${guardSection(run, s.id, view.readOnly)}${hintsSection(run)}${failuresSection(run, s.id)}${changesSection(run, s.id)}${graceSection(run, s.id)}${rejectedSection(run, s.id, view.selected)}${notesSection(run)}`
      : ''
  }</section>
<h2>Last runs</h2>
${runsTable(view, s.id)}`;
}
