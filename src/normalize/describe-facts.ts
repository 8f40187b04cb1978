import type { FactRule, MappingConfig } from './mapping-schema.ts';

const quote = (text: string) => JSON.stringify(text);
/** `"a", "b", "c", … (12)`: short enough for one line. */
function some(items: readonly string[], max = 3): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown}, … (${items.length})` : shown;
}

/** One fact rule in a line: `each "listingAgent": "name", "telephone", as openHouse, yes "f.pool" → pool`. */
export function describeFact(rule: string | FactRule): string {
  if (typeof rule === 'string') return quote(rule);
  const parts: string[] = [];
  const from = rule.from === undefined ? [] : typeof rule.from === 'string' ? [rule.from] : rule.from;
  if (from.length > 0)
    parts.push(
      some(from.map((entry) => (typeof entry === 'string' ? quote(entry) : entry.map(quote).join(' or ')))),
    );
  const counts = Object.entries(rule.count ?? {}).map(
    ([path, label]) => `${quote(path)} → ${label.split('|').at(-1)}`,
  );
  if (counts.length > 0) parts.push(`counts ${some(counts)}`);
  const flags = Object.entries(rule.yes ?? {}).map(([path, label]) => `${quote(path)} → ${label}`);
  if (flags.length > 0) parts.push(`yes ${some(flags)}`);
  if (rule.no !== undefined) parts.push(`else ${quote(rule.no)} when the feed says no`);
  if (rule.split !== undefined) parts.push(`split ${quote(rule.split)}`);
  if (rule.map !== undefined) parts.push('codes as words');
  if (rule.as !== undefined && rule.as !== 'text') parts.push(`as ${rule.as}`);
  const head = parts.join(', ');
  const each = rule.each === undefined ? head : `each ${quote(rule.each)}: ${head}`;
  return rule.when === undefined
    ? each
    : `${each}, when ${(Array.isArray(rule.when) ? rule.when : [rule.when]).map((c) => quote(c.path)).join(' and ')} holds`;
}

/** `Pool ← yes "features.poolInGround" → in-ground, …`: each ExtensionColumn fact and where it comes from. */
export function explainFacts(mapping: MappingConfig | undefined): string[] {
  const fields = Object.entries(mapping?.extensions?.fields ?? {}).filter(
    (entry): entry is [string, string | FactRule] => entry[1] !== null,
  );
  const width = Math.max(0, ...fields.map(([key]) => key.length));
  const lines = fields.map(([key, rule]) => `    ${key.padEnd(width)} ← ${describeFact(rule)}`);
  if (mapping?.extensions?.unmapped)
    lines.push('    (and every other top-level field, as `extensions.unmapped` asks)');
  return lines;
}
