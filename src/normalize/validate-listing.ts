import type { z } from 'zod';
import { compileObjectCheck } from './compile-check.ts';
import type { MappedRecord } from './compile-field.ts';
import { type FieldProblem, problem } from './field-problem.ts';
import { type Listing, listingSchema } from './listing-schema.ts';

export type Validation = { ok: true; listing: Listing } | { ok: false; problems: FieldProblem[] };

/** The listing schema compiled to plain checks: the hot path. zod judges whatever it does not accept. */
const quickCheck = compileObjectCheck(listingSchema);

/**
 * The listing when the compiled check accepts the record (the hot path); undefined when it has
 * problems or the check leaves it to zod: then `validateListing` says why (map with `explain`).
 */
export function acceptListing(mapped: MappedRecord): Listing | undefined {
  if (mapped.problems.length > 0) return undefined;
  return quickCheck(mapped.listing) as Listing | undefined;
}

/**
 * Validate a mapped record with the canonical listing schema. Mapping problems (a number that is not
 * one) come first; schema issues are then named by field with the feed's raw value and a reason code.
 */
export function validateListing(mapped: MappedRecord): Validation {
  const listing = acceptListing(mapped);
  if (listing !== undefined) return { ok: true, listing };
  const result = listingSchema.safeParse(setFields(mapped.listing));
  const problems = [...mapped.problems];
  if (!result.success) {
    const seen = new Set(problems.map((p) => p.field));
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? '(record)');
      if (seen.has(field)) continue;
      seen.add(field);
      problems.push(describeIssue(field, issue, mapped));
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, listing: (result as { data: Listing }).data };
}

function describeIssue(field: string, issue: z.core.$ZodIssue, mapped: MappedRecord): FieldProblem {
  const value = mapped.raw?.[field] !== undefined ? mapped.raw[field] : mapped.listing[field];
  if (mapped.listing[field] === undefined) {
    // "N/A", "-", "" in a required column: unset, so the problem is that it is missing.
    return value === undefined
      ? problem(field, undefined, 'missing', 'is missing (required)')
      : problem(field, value, 'missing', 'is missing (required; the feed sent no usable value)');
  }
  switch (issue.code) {
    case 'invalid_value':
      return problem(field, value, 'invalid_enum', `is not one of ${issue.values.join(', ')}`);
    case 'too_small':
      return problem(field, value, 'out_of_range', `is out of range (at least ${String(issue.minimum)})`);
    case 'too_big':
      return problem(field, value, 'out_of_range', `is out of range (at most ${String(issue.maximum)})`);
    case 'invalid_format':
      return problem(
        field,
        value,
        field === 'Url' ? 'invalid_url' : 'invalid',
        `is not a valid ${issue.format === 'url' ? 'URL' : issue.format}`,
      );
    case 'invalid_type':
      return problem(
        field,
        value,
        issue.expected === 'int' ? 'not_an_integer' : 'invalid',
        `is not ${issue.expected === 'int' ? 'a whole number' : `a ${issue.expected}`}`,
      );
    case 'custom':
      return problem(field, value, String(issue.params?.reason ?? 'invalid'), issue.message);
    default:
      return problem(field, value, 'invalid', issue.message);
  }
}

/** The candidate without its unset fields, as zod would see a record that never had them. */
function setFields(listing: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(listing)) if (value !== undefined) out[field] = value;
  return out;
}
