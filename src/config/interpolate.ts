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
      if (found !== undefined) return found;
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

/**
 * Environment values are strings, so `pageSize: ${PAGE_SIZE:-100}` gives "100" where the schema
 * wants a number. Where the schema said a value is not the number (or boolean) it expects, and that
 * value was one reference and nothing else, a string that reads as one exactly (`100`, `true`) is
 * made it, in place. Only there: a reference inside a longer string, a chatbot id of digits (a
 * string field) and a value written in the file are never changed. Returns how many were.
 */
export function coerceReferences(
  interpolated: unknown,
  whole: readonly (string | number)[][],
  issues: readonly TypeIssue[],
): number {
  let changed = 0;
  for (const issue of issues) {
    if (issue.code !== 'invalid_type' || (issue.expected !== 'number' && issue.expected !== 'boolean'))
      continue;
    const path = issue.path.map((part) => (typeof part === 'number' ? part : String(part)));
    if (path.length === 0 || !whole.some((p) => p.length === path.length && p.every((k, i) => k === path[i])))
      continue;
    const parent = path
      .slice(0, -1)
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], interpolated) as
      | Record<string | number, unknown>
      | undefined;
    const key = path.at(-1)!;
    const text = parent?.[key];
    if (typeof text !== 'string') continue;
    const value =
      issue.expected === 'number'
        ? NUMBER.test(text.trim())
          ? Number(text.trim())
          : undefined
        : text === 'true'
          ? true
          : text === 'false'
            ? false
            : undefined;
    if (value === undefined || (typeof value === 'number' && !Number.isFinite(value))) continue;
    parent![key] = value;
    changed++;
  }
  return changed;
}
