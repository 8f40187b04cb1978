import {
  type Explanation,
  extensionField,
  type FieldTrace,
  fieldsOf,
  type HistoryEntry,
  INCOMPLETE,
  noListing,
  type PlatformRecord,
} from '../../explain/index.ts';
import type { FieldChange } from '../../reconcile/index.ts';
import { imagesDifference, showField } from '../../render/index.ts';
import { type Html, html } from './html.ts';

/** The listing page of a key: `/feeds/<id>/listing?key=<key>` (a Url key stays whole in a query). */
export function listingHref(feedId: string, key: string): string {
  return `/feeds/${encodeURIComponent(feedId)}/listing?key=${encodeURIComponent(key)}`;
}

/** A listing key as the dashboard shows it: a link to its page. */
export function keyLink(feedId: string, key: string | undefined): Html {
  if (!key) return html``;
  return html`<a class="mono key" href="${listingHref(feedId, key)}">${key}</a>`;
}

/** The page's own styles, served after the dashboard's. */
export const LISTING_CSS = `
.parts { display:grid; grid-template-columns:repeat(auto-fit,minmax(480px,1fr)); gap:0 16px; }
.parts > section, #platform { min-width:0; overflow-wrap:anywhere; }
td.field, table.raw td:first-child { white-space:nowrap; overflow-wrap:normal; font-weight:600; }
h1.key-title { font-family:ui-monospace,SFMono-Regular,Menlo,monospace; font-size:20px; }
table.remote td.differs { background:#fff6f5; } table.remote td.differs .mono { color:var(--bad); font-weight:600; }
.verdict { font-size:15px; } .verdict.state-in-sync { border-color:#a6f4c5; background:#f6fef9; }
.verdict.state-will-write { border-color:#b2ccff; background:#f5f8ff; } .verdict.state-unknown { border-color:#fda29b; background:#fffbfa; }
table.trace td, table.raw td, table.remote td { padding:4px 8px; }
table.trace .whence { color:var(--muted); } table.trace .problem td { background:#fff6f5; }
.problem-text { color:var(--bad); font-weight:600; } .unset { color:var(--warn); }
.origin { font-size:11px; padding:0 6px; border-radius:8px; background:var(--infobg); color:var(--info); white-space:nowrap; }
form.search { display:flex; gap:6px; margin:8px 0 4px; } form.search input { font:inherit; padding:4px 8px; border:1px solid var(--line); border-radius:6px; min-width:320px; }
a.key { white-space:nowrap; }
`;

const SHOWN_RAW = 80;

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function show(field: string, value: unknown, units: Units): string {
  if (value === undefined) return '(unset)';
  if (field === 'Images' && Array.isArray(value))
    return `${value.length} image URL${value.length === 1 ? '' : 's'}`;
  if (field === 'ExtensionColumn' && Array.isArray(value))
    return (value as { Key: string; value: string }[]).map((e) => `${e.Key}=${e.value}`).join(', ');
  return showField(field, value, units);
}

type Units = Parameters<typeof showField>[2];

function unitsOf(e: Explanation): Units {
  const of = (field: string) => e.listing?.fields.find((f) => f.field === field)?.value;
  const currency =
    of('CurrencySymbol') ?? (e.platform.lookedUp ? e.platform.records[0]?.listing.CurrencySymbol : undefined);
  const area = of('AreaUnit');
  return {
    ...(typeof currency === 'string' ? { CurrencySymbol: currency } : {}),
    ...(area === 'Square Feet' || area === 'Square Meters' ? { AreaUnit: area } : {}),
  };
}

function sourceCard(e: Explanation): Html {
  const s = e.source;
  if (!s.found)
    return html`<section class="card" id="source"><h3>Source</h3><p>${
      s.error
        ? html`<span class="problem-text">The feed could not be read:</span> ${s.error}`
        : `No record with ${e.keyField} ${e.key} among the ${s.records} records of ${s.name ?? 'the feed'}.`
    }</p>${s.mentions.map(
      (m) =>
        html`<p class="broken">${m.where} is broken and its text holds ${e.key}, so it holds the listing: <span class="problem-text">${m.message}</span></p><table class="raw broken-row"><tbody>${m.cells.map(
          (c, i) =>
            html`<tr><td class="mono">${c.column ?? `(field ${i + 1}, beyond the header)`}</td><td class="mono">${JSON.stringify(c.value)}</td></tr>`,
        )}</tbody></table>`,
    )}</section>`;
  const kind = { listing: 'a valid listing', remove: 'no longer listed (its status)', rejected: 'rejected' }[
    s.kind
  ];
  const rows = flat(s.fields);
  return html`<section class="card" id="source"><h3>Source <span class="sub">${s.place.where} · ${kind} · ${s.records} records read, ${s.mode} feed</span></h3>${s.earlier.map(
    (p) => html`<p class="sub">Also ${p.where}: an earlier record with the key (the last one is kept).</p>`,
  )}<table class="raw"><tbody>${rows
    .slice(0, SHOWN_RAW)
    .map(
      ([name, value]) =>
        html`<tr><td class="mono">${name}</td><td class="mono">${JSON.stringify(value)}</td></tr>`,
    )}</tbody></table>${
    rows.length > SHOWN_RAW ? html`<p class="sub">… and ${rows.length - SHOWN_RAW} more fields.</p>` : ''
  }</section>`;
}

function flat(fields: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(fields).flatMap(([name, value]): [string, unknown][] => {
    if (name === '$tag') return [];
    const path = prefix ? `${prefix}.${name}` : name;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? flat(value as Record<string, unknown>, path)
      : [[path, value]];
  });
}

/** A rule that only names where to read (`"List Price"`): its inputs say it all. */
const PLAIN_PATHS = /^"(?:[^"\\]|\\.)*"(?: or "(?:[^"\\]|\\.)*")*$/;

function whence(f: FieldTrace): Html {
  const rule = f.rule && !(PLAIN_PATHS.test(f.rule) && f.inputs.length > 0) ? f.rule : '';
  const inputs = f.inputs.map((i) =>
    i.value === undefined
      ? html`<span class="mono">"${i.path}"</span> (empty)`
      : html`<span class="mono">"${i.path}"</span> ${JSON.stringify(i.value)}`,
  );
  const read = inputs.map((x, i) => html`${i ? ', ' : ''}${x}`);
  return html`${rule}${rule && inputs.length ? html` ← ${read}` : read}${
    f.alternatives ? html` <span class="sub">(alternative ${f.alternative} of ${f.alternatives})</span>` : ''
  }${f.conversion ? html` <span class="sub">(${f.conversion})</span>` : ''}${
    f.unset ? html` <span class="unset">(unset: ${f.unset})</span>` : ''
  } <span class="origin">${f.origin}</span>`;
}

function listingCard(e: Explanation, units: Units): Html {
  const l = e.listing;
  if (!l)
    return html`<section class="card" id="listing"><h3>Listing</h3><p class="sub">${capitalized(noListing(e))}.</p></section>`;
  const title = {
    valid: 'each field, its value and where it came from',
    remove: 'the record says the listing is no longer listed',
    rejected: 'rejected: what the mapping read of the record',
  }[l.status];
  return html`<section class="card${l.status === 'rejected' ? ' card-alert' : ''}" id="listing"><h3>Listing <span class="sub">${title}</span></h3>
<table class="trace"><thead><tr><th>Field</th><th>Value</th><th>From</th></tr></thead><tbody>${l.fields.map(
    (f) => {
      const problem = l.problems.find((p) => p.field === f.field);
      return html`<tr class="${problem ? 'problem' : ''}" data-field="${f.field}"><td class="field">${f.field}</td><td class="mono">${show(f.field, f.value, units)}</td><td class="whence">${whence(f)}${
        problem ? html` <span class="problem-text">✗ ${problem.message}</span>` : ''
      }</td></tr>`;
    },
  )}</tbody></table>${l.tags.length ? html`<p class="sub">Tags feed-sync adds: ${l.tags.map((t) => `${t.Key}=${t.value}`).join(', ')}</p>` : ''}${
    l.problems.length
      ? html`<h3>Problems</h3><ul class="problems">${l.problems.map((p) => html`<li><b>${p.field}</b>: ${p.message} <span class="sub">${p.reason}</span></li>`)}</ul>`
      : ''
  }${l.hold ? html`<p><b>Held:</b> its listing is kept exactly as it is on the platform until the record is fixed.</p>` : ''}</section>`;
}

/** Fields the list operation never returns (spec 2.4): not unset, unknown. */
const NOT_RETURNED = new Set(['AreaUnit', 'Location']);

/** The fields a sync would change on each remote listing: where the page marks them. */
function differing(e: Explanation): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const line of e.verdict.lines)
    if (line.id !== undefined && line.changes) out.set(line.id, new Set(line.changes.map((c) => c.field)));
  return out;
}

/**
 * The feed's listing beside the platform's listing(s) with the key, field by field: what a person
 * compares by eye. A cell the verdict would change is marked; the verdict, not the page, judges.
 */
function sideBySide(e: Explanation, units: Units): Html {
  const p = e.platform;
  if (!p.lookedUp) return html``;
  // The feed's listing as sent: its fields and the tags feed-sync adds to it.
  const feed = new Map<string, unknown>([
    ...(e.listing?.fields ?? []).map((f) => [f.field, f.value] as const),
    ...(e.listing?.tags ?? []).map((t) => [extensionField(t.Key), t.value] as const),
  ]);
  const remote = new Map(p.records.map((r) => [r.id, new Map(fieldsOf(r.listing))]));
  const fields = [...new Set([...feed.keys(), ...[...remote.values()].flatMap((r) => [...r.keys()])])].filter(
    (f) => feed.get(f) !== undefined || [...remote.values()].some((r) => r.get(f) !== undefined),
  );
  const marks = differing(e);
  const owner = (r: PlatformRecord) =>
    r.owner === undefined
      ? 'no owner tag (added by hand)'
      : r.owner === e.feedId
        ? `owned by ${e.feedId}`
        : `owned by feed ${r.owner}`;
  return html`<table class="remote"><thead><tr><th>Field</th><th>The feed's listing</th>${p.records.map(
    (r) => html`<th>Platform ID ${r.id} <span class="sub">${owner(r)}</span></th>`,
  )}</tr></thead><tbody>${fields.map(
    (field) =>
      html`<tr data-field="${field}"><td class="field">${field}</td><td class="mono">${e.listing ? show(field, feed.get(field), units) : ''}</td>${p.records.map(
        (r) =>
          html`<td class="${marks.get(r.id)?.has(field) ? 'differs' : ''}"><span class="mono">${
            NOT_RETURNED.has(field)
              ? html`<span class="sub">(the list never returns it)</span>`
              : show(field, remote.get(r.id)?.get(field), units)
          }</span></td>`,
      )}</tr>`,
  )}</tbody></table>`;
}

function platformCard(e: Explanation, units: Units): Html {
  const p = e.platform;
  if (!p.lookedUp)
    return html`<section class="card${p.error ? ' card-alert' : ''}" id="platform"><h3>Platform</h3><p>${p.error ? 'Could not be read' : 'Not looked up'}: ${p.reason}</p></section>`;
  const how = `filtered by ${p.by}; ${p.calls} list call${p.calls === 1 ? '' : 's'}`;
  return html`<section class="card" id="platform"><h3>Platform <span class="sub">${p.records.length} listing${p.records.length === 1 ? '' : 's'} with ${e.keyField} ${e.key} · ${how}</span></h3>${
    p.records.length === 0
      ? html`<p class="sub">The chatbot has no listing with the key${p.incomplete ? html` among those read: ${INCOMPLETE}` : ''}.</p>`
      : sideBySide(e, units)
  }${p.truncated ? html`<p class="sub">More listings match the filter than two pages hold.</p>` : ''}</section>`;
}

function changeList(changes: readonly FieldChange[] | undefined, units: Units): Html {
  if (!changes?.length) return html``;
  return html`<ul class="fields">${changes.map((c) =>
    c.field === 'Images' && Array.isArray(c.from) && Array.isArray(c.to)
      ? html`<li><span class="field">Images</span> ${imagesDifference(c.from, c.to)}</li>`
      : html`<li><span class="field">${c.field}</span> <span class="old">${show(c.field, c.from, units)}</span> → <span class="new">${show(c.field, c.to, units)}</span></li>`,
  )}</ul>`;
}

function verdictCard(e: Explanation, units: Units): Html {
  const v = e.verdict;
  const state = v.state.replaceAll(' ', '-');
  const [only, ...others] = v.lines;
  const lines =
    only && others.length === 0 && v.state !== 'in sync'
      ? html`<p>${only.text}</p>${changeList(only.changes, units)}`
      : html`<p><b>${v.summary}</b></p>${v.state === 'in sync' ? '' : v.lines.map((l) => html`<p>${l.text}</p>${changeList(l.changes, units)}`)}`;
  return html`<section class="card verdict state-${state}" id="verdict"><h3>Verdict <span class="badge">${v.state}</span></h3>${lines}</section>`;
}

function historyRow(h: HistoryEntry, units: Units): Html {
  return html`<tr><td>${h.startedAt.slice(0, 19).replace('T', ' ')} UTC</td><td>${h.trigger}${h.commandLine ? html` <span class="flag">command line</span>` : ''}</td><td>${h.outcome}${h.dryRun ? ' (dry run)' : ''}</td><td><b>${h.what}</b>${h.id === undefined ? '' : ` ID ${h.id}`}${
    h.detail ? html` <span class="sub">${h.detail}</span>` : ''
  }${changeList(h.fields, units)}</td></tr>`;
}

function historyCard(e: Explanation, units: Units): Html {
  const h = e.history;
  return html`<section class="card" id="history"><h3>History <span class="sub">the last runs that touched it · ${h.runs} run${h.runs === 1 ? '' : 's'} in ${h.from}</span></h3>${
    h.entries.length === 0
      ? html`<p class="sub">No recorded run touched it.</p>`
      : html`<table class="history"><thead><tr><th>Started</th><th>Trigger</th><th>Outcome</th><th>What</th></tr></thead><tbody>${h.entries.map((x) => historyRow(x, units))}</tbody></table>`
  }</section>`;
}

/** One listing, end to end: the five parts of `feed-sync explain`, read live when the page loads. */
export function listingPage(e: Explanation): Html {
  const units = unitsOf(e);
  return html`<p class="crumbs"><a href="/">Feeds</a> / <a href="/feeds/${encodeURIComponent(e.feedId)}">${e.feedId}</a> /</p>
<div class="title-row"><h1 class="key-title">${e.key}</h1><span class="sub">matched by ${e.keyField} · chatbot <span class="mono">${e.chatbot}</span></span></div>
<p class="lede">Read now: the feed as a run reads it, the platform's listings with the key (one or two list calls). Nothing is written. The same from a terminal: <code>feed-sync explain --feed ${e.feedId} ${e.key}</code></p>
${verdictCard(e, units)}
<div class="parts">${sourceCard(e)}${listingCard(e, units)}</div>
${platformCard(e, units)}${historyCard(e, units)}`;
}
