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
