import type { RunProgress, RunReport } from '../../reconcile/index.ts';
import { progressText } from '../../render/index.ts';
import { type FeedSummary, OUTCOMES, type SortKey } from './feed-summary.ts';
import { Html, html } from './html.ts';
import { ago, duration, formatInZone } from './schedule.ts';

/** A run queued or in progress, from its job: where it is, and the writes' rate. */
export interface LiveRun {
  state: 'waiting' | 'active';
  progress?: RunProgress;
  /** `35/s · ETA 8s` while applying. */
  rate?: string;
}

export interface FeedsView {
  rows: FeedSummary[];
  sort: SortKey;
  descending: boolean;
  outcome?: string;
  live: Map<string, LiveRun>;
  readOnly: boolean;
  now: Date;
}

const slug = (outcome: string) => outcome.replace(/\s+/g, '-');

/** `feed: feed acme: …` (the run's prefix on the feed error's own) reads once as `feed acme: …`. */
export function readableReason(reason: string): string {
  return reason.replace(/^feed: (?=feed )/, '');
}

export function outcomeBadge(outcome: string): Html {
  return html`<span class="badge badge-${slug(outcome)}">${outcome}</span>`;
}

export function liveText(live: LiveRun | undefined): string {
  if (!live) return '';
  if (live.state === 'waiting') return 'queued…';
  if (!live.progress) return 'running…';
  return progressText(live.progress, live.rate ? ` · ${live.rate}` : '');
}

/** The Run now button: a form that works without JS; the script adds the confirmation and live progress. */
export function runNowForm(row: { id: string; outcome: string }, readOnly: boolean, label = 'Run now'): Html {
  if (readOnly) return html``;
  const confirm =
    row.outcome === 'guard tripped'
      ? `The last run of ${row.id} tripped a delete guard. Run it again now? (Deletes stay held unless you allow them.)`
      : '';
  return html`<form method="post" action="/feeds/${encodeURIComponent(row.id)}/run" class="run-now" data-feed="${row.id}"${
    confirm ? html` data-confirm="${confirm}"` : ''
  }><button type="submit">${label}</button></form>`;
}

function sortLink(view: FeedsView, key: SortKey, label: string): Html {
  const descending = view.sort === key ? !view.descending : key === 'last';
  const params = new URLSearchParams({ sort: key, dir: descending ? 'desc' : 'asc' });
  if (view.outcome) params.set('outcome', view.outcome);
  const mark = view.sort === key ? (view.descending ? ' ↓' : ' ↑') : '';
  return html`<a href="/?${params.toString()}">${label}${mark}</a>`;
}

function filterBar(view: FeedsView): Html {
  const counts = new Map<string, number>();
  for (const row of view.rows) counts.set(row.outcome, (counts.get(row.outcome) ?? 0) + 1);
  const link = (value: string | undefined, label: string, n: number) => {
    const params = new URLSearchParams({ sort: view.sort, dir: view.descending ? 'desc' : 'asc' });
    if (value) params.set('outcome', value);
    const current = view.outcome === value;
    return html`<a class="chip${current ? ' chip-on' : ''}" href="/?${params.toString()}">${label} <b>${n}</b></a>`;
  };
  return html`<nav class="filters" aria-label="Filter by last outcome">${link(undefined, 'all', view.rows.length)}${OUTCOMES.filter(
    (o) => counts.has(o),
  ).map((o) => link(o, o, counts.get(o) ?? 0))}</nav>`;
}

/**
 * When the last run was, and how long it took; after a run that skipped the unchanged feed, the run
 * that read it (whose outcome and counts the row shows) and the check since (a tester read "ok just
 * now · 11 ms" beside an earlier run's counts).
 */
function lastRunLine(last: RunReport, lastRead: RunReport | undefined, now: Date): Html {
  const at = (run: RunReport) => ago(new Date(run.finishedAt), now);
  // A skip is the feed unchanged, or nothing read (a provider's budget spent): said as it was.
  const since =
    last.reason === undefined || /has not changed/.test(last.reason)
      ? `unchanged since: checked ${at(last)}`
      : `skipped since (${at(last)}): ${readableReason(last.reason)}`;
  return lastRead
    ? html`<div class="sub" title="${lastRead.finishedAt}">${at(lastRead)} · ${duration(lastRead.durationMs)}</div><div class="sub" title="${last.finishedAt}">${since}</div>`
    : html`<div class="sub" title="${last.finishedAt}">${at(last)} · ${duration(last.durationMs)}</div>`;
}

function row(r: FeedSummary, view: FeedsView): Html {
  const last = r.last;
  /** The run whose outcome the row shows: the last that read the feed. */
  const standing = r.lastRead ?? last;
  const live = view.live.get(r.id);
  const counts = r.counts;
  const flags = [r.stale ? 'stale' : '', !r.enabled ? 'disabled' : ''].filter(Boolean);
  return html`<tr data-feed-row="${r.id}" class="${r.attention ? 'attention' : ''}">
  <td><a class="feed-id" href="/feeds/${encodeURIComponent(r.id)}">${r.id}</a>${flags.map((f) => html` <span class="flag flag-${f}">${f}</span>`)}
    <div class="sub mono">${r.chatbot}</div></td>
  <td>${r.schedule ? html`${r.schedule.words}<div class="sub">next ${r.schedule.next ? formatInZone(r.schedule.next, r.schedule.timezone) : '—'} <span class="tz">${r.schedule.timezone}</span></div>` : html`<span class="sub">manual only</span>`}</td>
  <td>${outcomeBadge(r.outcome)}${last ? lastRunLine(last, r.lastRead, view.now) : ''}${
    standing?.reason && r.outcome !== 'ok'
      ? html`<div class="reason">${readableReason(standing.reason)}</div>`
      : ''
  }</td>
  <td class="num">${counts ? counts.read : '—'}</td>
  <td class="num">${counts ? counts.accepted : '—'}</td>
  <td class="num${counts?.rejected ? ' warn' : ''}">${counts ? counts.rejected : '—'}</td>
  <td class="num${counts?.held ? ' warn' : ''}">${counts ? counts.held : '—'}</td>
  <td class="num">${r.owned ?? '—'}</td>
  <td class="num changes">${last ? html`<span class="c">+${last.created}</span> <span class="u">~${last.updated}</span> <span class="d">−${last.deleted}</span>` : '—'}</td>
  <td class="actions">${runNowForm(r, view.readOnly)}<div class="progress" data-progress="${r.id}" aria-live="polite">${liveText(live)}</div></td>
</tr>`;
}

/** The home page: one row per configured feed, sortable and filterable by the last outcome. */
export function feedsPage(view: FeedsView): Html {
  const rows = view.outcome ? view.rows.filter((r) => r.outcome === view.outcome) : view.rows;
  const attention = view.rows.filter((r) => r.attention).length;
  // Partial runs (records rejected or held) are not "all healthy": their rows say what to fix.
  const partial = view.rows.filter((r) => r.outcome === 'partial').length;
  return html`<div class="title-row"><h1>Feeds</h1><p class="lede">${view.rows.length} feeds${
    attention
      ? html` · <span class="warn">${attention} need attention</span>${partial ? ` · ${partial} partial` : ''}`
      : partial
        ? html` · <span class="warn">${partial} partial (records rejected or held)</span>`
        : ' · all healthy'
  }</p></div>
${filterBar(view)}
<table class="feeds">
<thead><tr>
  <th>${sortLink(view, 'id', 'Feed')}</th>
  <th>${sortLink(view, 'next', 'Schedule')}</th>
  <th>${sortLink(view, 'last', 'Last run')}</th>
  <th class="num">Read</th><th class="num">Accepted</th><th class="num">${sortLink(view, 'rejected', 'Rejected')}</th><th class="num">Held</th>
  <th class="num" title="The feed's listings on the platform after the last run">Owned</th>
  <th class="num" title="Created, updated, deleted in the last run">Changes</th>
  <th></th>
</tr></thead>
<tbody>
${rows.length ? rows.map((r) => row(r, view)) : html`<tr><td colspan="10" class="empty">No feed matches this filter.</td></tr>`}
</tbody>
</table>`;
}

export { Html };
