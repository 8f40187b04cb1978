/** A `${NAME}` or `${NAME:-default}` reference in a config string. */
const REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface InterpolationIssue {
  path: (string | number)[];
  message: string;
}

/**
 * Replace `${VAR}` references in every string of a parsed config tree. Pure: the environment is
 * passed in. A reference to an unset variable without a default is an issue naming the key path
 * (and the variable, never its value).
 */
export function interpolate(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  issues: InterpolationIssue[] = [],
  path: (string | number)[] = [],
): unknown {
  if (typeof value === 'string') {
    return value.replace(REF, (_match, name: string, fallback: string | undefined) => {
      const found = env[name];
      // `:-` as the shell and docker compose read it: the default when unset or empty.
      if (found !== undefined && (found !== '' || fallback === undefined)) return found;
      if (fallback !== undefined) return fallback;
      issues.push({ path, message: `environment variable ${name} is not set` });
      return '';
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => interpolate(item, env, issues, [...path, i]));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolate(item, env, issues, [...path, key])]),
    );
  }
  return value;
}

/** A string that is one reference and nothing else: `${PAGE_SIZE}`, `${PAGE_SIZE:-100}`. */
const WHOLE_REF = /^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$/;

/** The key paths of the strings of a parsed config tree that are one reference and nothing else. */
export function wholeReferences(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return WHOLE_REF.test(value) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => wholeReferences(item, [...path, i]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => wholeReferences(item, [...path, key]));
  return [];
}

/** What the schema said of a value: the part of a zod issue read here. */
export interface TypeIssue {
  code: string;
  path: readonly PropertyKey[];
  expected?: unknown;
}

/** A number as YAML writes one (`100`, `-2`, `0.25`, `1e3`), nothing around it. */
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A value `coerceReferences` changed, to give back if the change did not make it right. */
export interface Coerced {
  parent: Record<string | number, unknown>;
  key: string | number;
  path: (string | number)[];
  text: string;
}

/**
 * Environment values are strings, so `pageSize: ${PAGE_SIZE:-100}` gives "100" where the schema
 * wants a number. Where the schema said a value is not the number or boolean it expects (or fits
 * none of a union's members, `worker.concurrency`: auto or a number), and that value was one
 * reference and nothing else, a string that reads as one exactly (`100`, `true`) is made it, in
 * place. Only there: a reference inside a longer string, a chatbot id of digits (a string field)
 * and a value written in the file are never changed. Returns what it changed (`revertUnfixed`).
 */
export function coerceReferences(
  interpolated: unknown,
  whole: readonly (string | number)[][],
  issues: readonly TypeIssue[],
): Coerced[] {
  const changed: Coerced[] = [];
  for (const issue of issues) {
    const expected =
      issue.code === 'invalid_union' ? 'any' : issue.code === 'invalid_type' ? issue.expected : undefined;
    if (expected !== 'number' && expected !== 'boolean' && expected !== 'any') continue;
    const path = issue.path.map((part) => (typeof part === 'number' ? part : String(part)));
    if (path.length === 0 || !whole.some((p) => samePath(p, path))) continue;
    const parent = path
      .slice(0, -1)
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], interpolated) as
      | Record<string | number, unknown>
      | undefined;
    const key = path.at(-1)!;
    const text = parent?.[key];
    if (parent === undefined || typeof text !== 'string') continue;
    const trimmed = text.trim();
    const number = expected !== 'boolean' && NUMBER.test(trimmed) ? Number(trimmed) : undefined;
    const flag = expected !== 'number' && (trimmed === 'true' || trimmed === 'false');
    const value =
      number !== undefined && Number.isFinite(number) ? number : flag ? trimmed === 'true' : undefined;
    if (value === undefined) continue;
    parent[key] = value;
    changed.push({ parent, key, path, text });
  }
  return changed;
}

/** Give back the values whose change left an issue at their place (the schema's message is the clearer). */
export function revertUnfixed(changed: readonly Coerced[], issues: readonly TypeIssue[]): number {
  let reverted = 0;
  for (const c of changed) {
    const at = (issue: TypeIssue) =>
      samePath(
        c.path,
        issue.path.map((p) => (typeof p === 'number' ? p : String(p))),
      );
    if (!issues.some(at)) continue;
    c.parent[c.key] = c.text;
    reverted++;
  }
  return reverted;
}

function samePath(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}
