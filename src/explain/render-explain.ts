import { changeText, showField } from '../render/index.ts';
import { INCOMPLETE } from './explain-listing.ts';
import { extensionField, fieldsOf, keptAsFeeds, keptOnPlatform } from './listing-fields.ts';
import type { Explanation, FieldTrace, HistoryEntry, PlatformRecord } from './types.ts';

/** Raw fields shown in the text before `--json` is the way to see more. */
const RAW_SHOWN = 60;

/** Text longer than this is cut in a line (`--json` has it whole). */
const CUT = 70;

/** One listing explained, for a terminal: source, listing, platform, verdict, history. */
export function renderExplanation(e: Explanation): string {
  const units = unitsOf(e);
  return [
    `${e.key} · feed ${e.feedId} → chatbot ${e.chatbot} (matched by ${e.keyField})`,
    '',
    ...sourceLines(e),
    '',
    ...listingLines(e, units),
    '',
    ...platformLines(e, units),
    '',
    ...verdictLines(e, units),
    '',
    ...historyLines(e, units),
  ].join('\n');
}

/** The one line for a key that is in neither the feed nor the platform (`isUnknownKey`). */
export function unknownKeyLine(e: Explanation): string {
  const records = e.source.found ? 0 : e.source.records;
  const asMls = e.source.found ? undefined : e.source.byMlsNumber?.[0];
  if (asMls)
    return `${e.key} is not a key of feed ${e.feedId}, which is keyed by Url: ${asMls.place.where} has MLSNumber ${e.key} and Url ${asMls.url}; ask for that: feed-sync explain --feed ${e.feedId} ${asMls.url}`;
  if (!e.platform.lookedUp)
    return `${e.key} is not in feed ${e.feedId} (${plural(records, 'record')} read), and a feed keyed by Url is looked up on the platform only through its feed record (the list has no Url filter): \`feed-sync plan --feed ${e.feedId}\` shows every listing`;
  return `${e.key} is in neither feed ${e.feedId} (${plural(records, 'record')} read) nor chatbot ${e.chatbot} (list filtered by ${e.platform.by})`;
}

type Units = { CurrencySymbol?: string; AreaUnit?: 'Square Feet' | 'Square Meters' };

function unitsOf(e: Explanation): Units {
  const value = (field: string) => e.listing?.fields.find((f) => f.field === field)?.value;
  const remote = e.platform.lookedUp ? e.platform.records[0]?.listing : undefined;
  const currency = value('CurrencySymbol') ?? remote?.CurrencySymbol;
  const area = value('AreaUnit');
  return {
    ...(typeof currency === 'string' ? { CurrencySymbol: currency } : {}),
    ...(area === 'Square Feet' || area === 'Square Meters' ? { AreaUnit: area } : {}),
  };
}

function sourceLines(e: Explanation): string[] {
  const s = e.source;
  if (!s.found) {
    if (s.error) return [`Source: the feed could not be read: ${s.error}`];
    const lines = [
      `Source: no record with ${e.keyField} ${e.key} among the ${s.records} records of ${s.name ?? 'the feed'}`,
    ];
    for (const m of s.mentions) {
      lines.push(`  ${m.where} is broken and its text holds ${e.key}, so it holds the listing: ${m.message}`);
      const width = Math.min(28, Math.max(0, ...m.cells.map((c) => (c.column ?? '').length)));
      m.cells.forEach((cell, i) => {
        const name = cell.column ?? `(field ${i + 1}, beyond the header)`;
        lines.push(`    ${name.padEnd(width)}  ${cut(JSON.stringify(cell.value))}`);
      });
    }
    return lines;
  }
  const what = {
    listing: 'a valid listing',
    remove: 'its status says it is no longer listed',
    rejected: 'rejected',
  }[s.kind];
  const lines = [`Source: ${s.place.where} (${what}; ${s.records} records read, ${s.mode} feed)`];
  for (const p of s.earlier)
    lines.push(`  also ${p.where}: an earlier record with the key (the last one is kept)`);
  if (s.earlierOmitted) lines.push(`  … and ${s.earlierOmitted} more earlier records with the key`);
  const entries = flatFields(s.fields);
  const width = Math.min(28, Math.max(0, ...entries.slice(0, RAW_SHOWN).map(([k]) => k.length)));
  for (const [name, value] of entries.slice(0, RAW_SHOWN))
    lines.push(`  ${name.padEnd(width)}  ${cut(JSON.stringify(value))}`);
  if (entries.length > RAW_SHOWN)
    lines.push(`  … and ${entries.length - RAW_SHOWN} more fields (--json has them all)`);
  return lines;
}

/** An XML element's fields as `address.street: "…"` lines; a CSV row is flat already. */
function flatFields(fields: Record<string, unknown>, prefix = ''): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (name === '$tag') continue;
    const path = prefix ? `${prefix}.${name}` : name;
    if (value && typeof value === 'object' && !Array.isArray(value))
      out.push(...flatFields(value as Record<string, unknown>, path));
    else out.push([path, value]);
  }
  return out;
}

function listingLines(e: Explanation, units: Units): string[] {
  const l = e.listing;
  if (!l) return [`Listing: ${noListing(e)}`];
  const head = {
    valid: 'Listing: each field, its value and where it came from',
    remove:
      'Listing: none: the record’s status says the listing is no longer listed (what the mapping read):',
    rejected: 'Listing: rejected; what the mapping read of the record:',
  }[l.status];
  const lines = [head];
  const width = Math.min(28, Math.max(0, ...l.fields.map((f) => f.field.length)));
  const shown = l.fields.map((f) => [f, valueText(f, units)] as const);
  const valueWidth = Math.min(24, Math.max(0, ...shown.map(([, v]) => v.length)));
  for (const [f, value] of shown) {
    const problem = l.problems.find((p) => p.field === f.field);
    const wrong = problem ? `  ✗ ${problem.message}` : '';
    lines.push(`  ${f.field.padEnd(width)}  ${value.padEnd(valueWidth)}  ← ${whence(f)}${wrong}`);
  }
  if (l.tags.length > 0)
    lines.push(`  tags feed-sync adds: ${l.tags.map((t) => `${t.Key}=${t.value}`).join(', ')}`);
  if (l.problems.length > 0) {
    lines.push('  problems:');
    for (const p of l.problems) lines.push(`    ${p.field}: ${p.message} [${p.reason}]`);
  }
  if (l.hold)
    lines.push(`  held: its listing is kept exactly as it is on the platform until the record is fixed`);
  return lines;
}

/** Why there is no listing part: the feed was not read, a broken row holds the key, or no record has it. */
export function noListing(e: Explanation): string {
  const s = e.source;
  if (!s.found && s.error)
    return 'unknown: the feed could not be read, so what it makes of the key is not known';
  if (!s.found && s.mentions.length > 0)
    return 'none readable: the record is broken (above), so its listing is held as it is on the platform';
  return 'none (the feed has no record with the key)';
}

function valueText(f: FieldTrace, units: Units): string {
  if (f.value === undefined) return '(unset)';
  return cut(show(f.field, f.value, units), 40);
}

/** A value in a line: Images as a count, ExtensionColumn as its entries, the rest as a plan shows it. */
function show(field: string, value: unknown, units: Units): string {
  if (field === 'Images' && Array.isArray(value))
    return `${value.length} URL${value.length === 1 ? '' : 's'}`;
  if (field === 'ExtensionColumn' && Array.isArray(value))
    return (value as { Key: string; value: string }[]).map((x) => `${x.Key}=${x.value}`).join(', ');
  return showField(field, value, units);
}

/** A rule that only names where to read (`"List Price"`, `"A" or "B"`): its inputs say it all. */
const PLAIN_PATHS = /^"(?:[^"\\]|\\.)*"(?: or "(?:[^"\\]|\\.)*")*$/;

/** `"List Price" "$1.2M" (money) [preset reso]`: the rule, what it read, the conversion, who wrote it. */
function whence(f: FieldTrace): string {
  const inputs = f.inputs.map((i) =>
    i.value === undefined
      ? `${JSON.stringify(i.path)} (empty)`
      : `${JSON.stringify(i.path)} ${cut(JSON.stringify(i.value), 40)}`,
  );
  const rule = f.rule && !(PLAIN_PATHS.test(f.rule) && inputs.length > 0) ? f.rule : '';
  const parts = [
    rule,
    rule && inputs.length > 0 ? `(${inputs.join(', ')})` : inputs.join(', '),
    f.alternatives ? `(alternative ${f.alternative} of ${f.alternatives})` : '',
    f.conversion ? `(${f.conversion})` : '',
    f.unset ? `(unset: ${f.unset})` : '',
    f.origin === 'config' ? '' : `[${f.origin}]`,
  ].filter(Boolean);
  return parts.join(' ');
}

function platformLines(e: Explanation, units: Units): string[] {
  const p = e.platform;
  if (!p.lookedUp) return [`Platform: ${p.error ? 'could not be read' : 'not looked up'}: ${p.reason}`];
  const calls = `${p.calls} list call${p.calls === 1 ? '' : 's'}`;
  if (p.records.length === 0)
    return [
      `Platform: no listing with ${e.keyField} ${e.key} (filtered by ${p.by}; ${calls})`,
      ...(p.incomplete ? [`  ${INCOMPLETE}`] : []),
    ];
  const lines = [
    `Platform: ${p.records.length} listing${p.records.length === 1 ? '' : 's'} with ${e.keyField} ${e.key} (filtered by ${p.by}; ${calls})`,
  ];
  if (p.truncated)
    lines.push('  more listings match the filter than two pages hold: later ones are not shown');
  for (const r of p.records) lines.push(...recordLines(r, e, units));
  return lines;
}

/**
 * One platform listing, field by field, beside the feed's value where the feed has the key: `≠`
 * marks a field the verdict would write (the verdict judges, never the text).
 */
function recordLines(r: PlatformRecord, e: Explanation, units: Units): string[] {
  const owner =
    r.owner === undefined
      ? 'no owner tag (added by hand)'
      : r.owner === e.feedId
        ? `owned by ${e.feedId}`
        : `owned by feed ${r.owner}`;
  // The feed's listing as sent: its fields and the tags feed-sync adds to it.
  const feed = new Map<string, unknown>([
    ...(e.listing?.fields ?? []).map((f) => [f.field, f.value] as const),
    ...(e.listing?.tags ?? []).map((t) => [extensionField(t.Key), t.value] as const),
  ]);
  const marked = new Set(e.verdict.lines.find((l) => l.id === r.id)?.changes?.map((c) => c.field) ?? []);
  const entries = fieldsOf(r.listing);
  const width = Math.min(28, Math.max(0, ...entries.map(([field]) => field.length)));
  const shown = entries.map(([field, value]) => [field, cut(show(field, value, units), 40)] as const);
  const valueWidth = Math.min(24, Math.max(0, ...shown.map(([, v]) => v.length)));
  const lines = [
    `  ID ${r.id} · ${owner}${e.listing && e.listing.status !== 'remove' ? " (beside it, the feed's value where it differs)" : ''}`,
  ];
  const { classification } = e.verdict;
  const kept = new Set(keptAsFeeds(classification, r.id) ? keptOnPlatform(e.listing, r, classification) : []);
  for (const [field, value] of shown) {
    const differs = marked.has(field);
    const beside =
      differs && feed.get(field) !== undefined
        ? `  ≠ feed ${cut(show(field, feed.get(field), units), 40)}`
        : differs && !field.startsWith('ExtensionColumn')
          ? '  (the feed leaves it unset: cleared)'
          : kept.has(field)
            ? '  (the feed leaves it unset: kept)'
            : '';
    lines.push(`    ${field.padEnd(width)}  ${beside ? value.padEnd(valueWidth) : value}${beside}`);
  }
  return lines;
}

function verdictLines(e: Explanation, units: Units): string[] {
  const v = e.verdict;
  const [only, ...others] = v.lines;
  if (only && others.length === 0 && v.state !== 'in sync')
    return [`Verdict: ${only.text}`, ...changeLines(only.changes, units)];
  const lines = [`Verdict: ${v.summary}`];
  if (v.state === 'in sync') return lines;
  for (const line of v.lines) lines.push(`  ${line.text}`, ...changeLines(line.changes, units));
  return lines;
}

function changeLines(
  changes: readonly { field: string; from: unknown; to: unknown }[] | undefined,
  units: Units,
): string[] {
  return (changes ?? []).map((c) => `    ${changeText(c.field, c.from, c.to, units)}`);
}

/**
 * The history alone (`History: …` and its entries), for a key in neither the feed nor the platform
 * whose runs are recorded (a listing the feed deleted): what `--json` has beside `unknown: true`.
 */
export function renderHistory(e: Explanation): string {
  return historyLines(e, unitsOf(e)).join('\n');
}

function historyLines(e: Explanation, units: Units): string[] {
  const h = e.history;
  if (h.entries.length === 0)
    return [`History: no recorded run touched it (${plural(h.runs, 'run')} in ${h.from})`];
  const lines = [
    `History: the last runs that touched it, newest first (${plural(h.runs, 'run')} in ${h.from})`,
  ];
  for (const entry of h.entries) lines.push(...entryLines(entry, units));
  return lines;
}

function entryLines(entry: HistoryEntry, units: Units): string[] {
  const when = entry.startedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  const id = entry.id === undefined ? '' : ` ID ${entry.id}`;
  const run = `${entry.trigger} run${entry.commandLine ? ' from the command line' : ''}, ${entry.outcome}${entry.dryRun ? ', dry run' : ''}`;
  const detail = entry.detail ? `: ${cut(entry.detail, 100)}` : '';
  return [`  ${when}  ${entry.what}${id}${detail} (${run})`, ...changeLines(entry.fields, units)];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function cut(text: string, length = CUT): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
