import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/**
 * Turn zod issues into the one-line `Message` of a failed envelope, naming field and reason:
 * `Bedrooms: expected number, got string; Status: required`. Parse with `{ reportInput: true }` so
 * a missing field (no input) can be told from a wrong one.
 */
export function describeIssues(error: z.ZodError, limit = 5): string {
  const shown = error.issues.slice(0, limit).map(describeIssue);
  const more = error.issues.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

export function describeIssue(issue: Issue): string {
  return `${formatPath(issue.path)}: ${reason(issue)}`;
}

export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

function reason(issue: Issue): string {
  const hasInput = 'input' in issue && issue.input !== undefined;
  switch (issue.code) {
    case 'invalid_type':
      if (!hasInput) return 'required';
      if (issue.expected === 'int') return `expected an integer, got ${JSON.stringify(issue.input)}`;
      return `expected ${issue.expected}, got ${typeName(issue.input)}`;
    case 'invalid_value':
      if (!hasInput) return 'required';
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(issue.input)}`;
    case 'too_small':
      return bound(issue.origin, issue.inclusive ? '>=' : '>', issue.minimum, 'at least');
    case 'too_big':
      return bound(issue.origin, issue.inclusive ? '<=' : '<', issue.maximum, 'at most');
    case 'invalid_format':
      return issue.format === 'regex' ? issue.message : `expected a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}

function bound(origin: string, operator: string, limit: number | bigint, words: string): string {
  const unit =
    origin === 'string' ? 'characters' : origin === 'array' || origin === 'set' ? 'items' : undefined;
  if (unit === undefined) return `must be ${operator} ${limit}`;
  if (Number(limit) === 1 && words === 'at least') return 'must not be empty';
  return `must have ${words} ${limit} ${unit}`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value;
}
