/** A `${NAME}` or `${NAME:-default}` reference, as a pattern's source: the one spelling of one. */
const REFERENCE = String.raw`\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}`;
/** Every reference in a config string. */
const REF = new RegExp(REFERENCE, 'g');

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
const WHOLE_REF = new RegExp(`^${REFERENCE}$`);
/** A reference written bare after a separator of a line (not in quotes). */
const BARE_REF = new RegExp(String.raw`(?:^|[\s,:{[])(${REFERENCE})`);

/**
 * A reference written bare in a line of YAML (`{ afterDays: ${GD:-0} }`, where YAML reads its
 * braces as a map): the reference and its column (1-based); undefined when there is none.
 */
export function bareReferenceIn(line: string): { reference: string; column: number } | undefined {
  const bare = BARE_REF.exec(line);
  if (!bare?.[1]) return undefined;
  return { reference: bare[1], column: bare.index + bare[0].indexOf('$') + 1 };
}

/**
 * The variable a value written as one reference (`${PAGE_SIZE}`, `${PAGE_SIZE:-100}`) took from
 * `env`: none when the value is not one, or is the file's default (the variable unset or empty).
 */
export function variableOf(
  written: unknown,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const found = typeof written === 'string' ? WHOLE_REF.exec(written) : null;
  const name = found?.[1];
  if (name === undefined) return undefined;
  const value = env[name];
  return value === undefined || (value === '' && found?.[2] !== undefined) ? undefined : name;
}

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
    const path = keyPath(issue.path);
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
    if (!issues.some((issue) => samePath(c.path, keyPath(issue.path)))) continue;
    c.parent[c.key] = c.text;
    reverted++;
  }
  return reverted;
}

/** A zod issue's path as the config's key path (symbols as their text). */
function keyPath(path: readonly PropertyKey[]): (string | number)[] {
  return path.map((part) => (typeof part === 'number' ? part : String(part)));
}

function samePath(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}
