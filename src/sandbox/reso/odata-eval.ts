import type { Comparison, Filter, Literal } from './odata-filter.ts';

/** A record as served: field name to JSON value. */
export type ResoRecord = Record<string, unknown>;

/**
 * Whether a record matches a filter. Null/absent fields match only `eq null` and `ne <value>` (OData:
 * a comparison with null is false, except `ne`). Datetimes compare as instants, dates as `YYYY-MM-DD`.
 */
export function matches(filter: Filter, record: ResoRecord): boolean {
  switch (filter.type) {
    case 'and':
      return matches(filter.left, record) && matches(filter.right, record);
    case 'or':
      return matches(filter.left, record) || matches(filter.right, record);
    case 'not':
      return !matches(filter.expr, record);
    case 'in':
      return filter.values.some((value) => compare('eq', record[filter.field], value));
    case 'cmp':
      return compare(filter.op, record[filter.field], filter.value);
  }
}

function compare(op: Comparison, actual: unknown, literal: Literal): boolean {
  if (literal.kind === 'null') return op === 'eq' ? actual == null : op === 'ne' ? actual != null : false;
  if (actual == null) return op === 'ne';
  const order = orderOf(actual, literal);
  if (order === undefined) return op === 'ne';
  switch (op) {
    case 'eq':
      return order === 0;
    case 'ne':
      return order !== 0;
    case 'gt':
      return order > 0;
    case 'ge':
      return order >= 0;
    case 'lt':
      return order < 0;
    case 'le':
      return order <= 0;
  }
}

/** -1, 0 or 1 comparing the record's value with the literal; undefined when they cannot be compared. */
function orderOf(actual: unknown, literal: Exclude<Literal, { kind: 'null' }>): number | undefined {
  switch (literal.kind) {
    case 'datetime': {
      const time = typeof actual === 'string' ? Date.parse(actual) : Number.NaN;
      return Number.isNaN(time) ? undefined : Math.sign(time - literal.value);
    }
    case 'date':
      return typeof actual === 'string' ? sign(actual.slice(0, 10), literal.value) : undefined;
    case 'number':
      return typeof actual === 'number' ? Math.sign(actual - literal.value) : undefined;
    case 'boolean':
      return typeof actual === 'boolean' ? (actual === literal.value ? 0 : 1) : undefined;
    case 'string':
      return typeof actual === 'string' ? sign(actual, literal.value) : undefined;
  }
}

function sign(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The conjuncts of the top level: `a and (b or c) and d` gives a, (b or c), d. */
export function conjuncts(filter: Filter): Filter[] {
  return filter.type === 'and' ? [...conjuncts(filter.left), ...conjuncts(filter.right)] : [filter];
}

/** Every field the filter names. */
export function fieldsOf(filter: Filter): Set<string> {
  const fields = new Set<string>();
  const visit = (f: Filter): void => {
    switch (f.type) {
      case 'and':
      case 'or':
        visit(f.left);
        visit(f.right);
        return;
      case 'not':
        visit(f.expr);
        return;
      default:
        fields.add(f.field);
    }
  };
  visit(filter);
  return fields;
}

/** How many comparisons (or `in`s) name `field`. */
export function fieldUses(filter: Filter, field: string): number {
  switch (filter.type) {
    case 'not':
      return fieldUses(filter.expr, field);
    case 'and':
    case 'or':
      return fieldUses(filter.left, field) + fieldUses(filter.right, field);
    default:
      return filter.field === field ? 1 : 0;
  }
}

/** How many `or` operators the filter holds (MLS Grid allows five). */
export function orCount(filter: Filter): number {
  if (filter.type === 'not') return orCount(filter.expr);
  if (filter.type === 'and' || filter.type === 'or')
    return (filter.type === 'or' ? 1 : 0) + orCount(filter.left) + orCount(filter.right);
  return 0;
}

/**
 * The lowest instant a matching record's `field` can have, from top-level `gt`/`ge`/`eq` conjuncts
 * with a datetime: the server starts its scan there instead of at the first record. Undefined when
 * the filter does not bound it.
 */
export function lowerBoundOf(filter: Filter | undefined, field: string): number | undefined {
  if (!filter) return undefined;
  let bound: number | undefined;
  for (const part of conjuncts(filter)) {
    if (part.type !== 'cmp' || part.field !== field || part.value.kind !== 'datetime') continue;
    if (part.op !== 'gt' && part.op !== 'ge' && part.op !== 'eq') continue;
    bound = bound === undefined ? part.value.value : Math.max(bound, part.value.value);
  }
  return bound;
}
