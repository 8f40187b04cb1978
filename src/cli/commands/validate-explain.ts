import type { ProblemCount } from '../../ingest/index.ts';

/** Every problem of every rejected record, counted by field and reason: what to fix first. */
export function problemTable(counts: readonly ProblemCount[]): string[] {
  if (counts.length === 0) return [];
  const rows = counts;
  const width = (pick: (r: { field: string; reason: string }) => string, title: string) =>
    Math.max(title.length, ...rows.map((r) => pick(r).length));
  const fw = width((r) => r.field, 'field');
  const rw = width((r) => r.reason, 'reason');
  return [
    '  problems by field and reason:',
    `    ${'field'.padEnd(fw)}  ${'reason'.padEnd(rw)}  records`,
    ...rows.map((r) => `    ${r.field.padEnd(fw)}  ${r.reason.padEnd(rw)}  ${r.count}`),
  ];
}

/** `Bedrooms ← Beds`, `Url ← template https://…/{MLS #}`: each listing field and its source. */
export function explainMapping(mapping: unknown): string[] {
  const { fields = {}, defaults = {} } =
    (mapping as { fields?: Record<string, unknown>; defaults?: Record<string, unknown> } | undefined) ?? {};
  const entries = Object.entries(fields).filter(([, rule]) => rule !== null && rule !== undefined);
  const width = Math.max(0, ...entries.map(([field]) => field.length));
  // A field's default is its last resort: said after its rule (`else the default "$"`).
  return entries.map(
    ([field, rule]) =>
      `    ${field.padEnd(width)} ← ${describeRule(rule)}${defaults[field] === undefined ? '' : `, else the default ${JSON.stringify(defaults[field])}`}`,
  );
}

/** `Class is not one of "Residential Lease", "Lease", … (11)`, short enough for a line. */
function describeWhen(when: unknown): string {
  const conditions = (Array.isArray(when) ? when : [when]) as {
    path: string;
    in?: string[];
    notIn?: string[];
    set?: boolean;
  }[];
  const list = (values: string[]) =>
    values.length > 3
      ? `${values
          .slice(0, 3)
          .map((v) => JSON.stringify(v))
          .join(', ')}, … (${values.length})`
      : values.map((v) => JSON.stringify(v)).join(', ');
  return conditions
    .map((c) => {
      if (c.set !== undefined) return `${JSON.stringify(c.path)} is ${c.set ? 'set' : 'empty'}`;
      if (c.in) return `${JSON.stringify(c.path)} is one of ${list(c.in)}`;
      if (c.notIn) return `${JSON.stringify(c.path)} is not ${list(c.notIn)}`;
      return JSON.stringify(c.path);
    })
    .join(' and ');
}

function describeRule(rule: unknown): string {
  if (typeof rule === 'string') return JSON.stringify(rule);
  if (Array.isArray(rule)) return rule.map(describeRule).join(', else ');
  const r = rule as Record<string, unknown>;
  const parts: string[] = [];
  if (r.const !== undefined) parts.push(`constant ${JSON.stringify(r.const)}`);
  if (r.template !== undefined) parts.push(`template ${JSON.stringify(r.template)}`);
  const from = r.from ?? r.sum;
  if (from !== undefined) {
    const list = (Array.isArray(from) ? from : [from]).map((p) => JSON.stringify(p));
    parts.push(r.sum !== undefined ? `sum of ${list.join(' + ')}` : list.join(' or '));
  }
  for (const key of [
    'full',
    'half',
    'threeQuarter',
    'quarter',
    'daysSince',
    'unitFrom',
    'periodFrom',
  ] as const)
    if (r[key] !== undefined) parts.push(`${key} ${JSON.stringify(r[key])}`);
  for (const key of ['unit', 'period', 'split'] as const)
    if (r[key] !== undefined) parts.push(`${key} ${JSON.stringify(r[key])}`);
  if (r.when !== undefined) parts.push(`when ${describeWhen(r.when)}`);
  if (r.map !== undefined) parts.push('mapped');
  return parts.join(', ') || JSON.stringify(rule);
}
