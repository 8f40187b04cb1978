import type { ResoRecord } from '../odata-eval.ts';
import type { Walk } from '../page.ts';
import { QueryError, type ResoQuery } from '../query.ts';
import type { Resource } from '../resources.ts';

/** The walk an `$orderby` asks for: none or the key field → key order; ModificationTimestamp → time order. */
export function walkOf(resource: Resource, query: ResoQuery, fallback: Walk): Walk {
  const orderby = query.orderby ?? [];
  if (orderby.length === 0) return fallback;
  const [first, ...rest] = orderby;
  const supported =
    rest.length === 0 ||
    (rest.length === 1 && first!.field === 'ModificationTimestamp' && rest[0]!.field === resource.keyField);
  if (!supported || orderby.some((o) => o.desc))
    throw new QueryError(
      `$orderby: this sandbox orders by ${resource.keyField} or ModificationTimestamp (then ${resource.keyField}), ascending`,
    );
  if (first!.field === resource.keyField) return 'key';
  if (first!.field === 'ModificationTimestamp') return 'time';
  throw new QueryError(
    `$orderby: this sandbox orders by ${resource.keyField} or ModificationTimestamp, ascending`,
  );
}

/** Media expanded or queried: sorted by `Order` when asked, else left as the source has them. */
export function sortMedia(media: ResoRecord[], query: ResoQuery): ResoRecord[] {
  const orderby = query.orderby ?? [];
  if (orderby.length === 0) return media;
  if (orderby.length !== 1 || orderby[0]!.field !== 'Order')
    throw new QueryError('$orderby: Media is ordered by Order only in this sandbox');
  const sign = orderby[0]!.desc ? -1 : 1;
  return [...media].sort((a, b) => sign * (Number(a.Order) - Number(b.Order)));
}

/** Keys a Media query names: `ResourceRecordKey eq 'X'`, `in (…)` or `or`s of those. */
export function mediaKeysOf(query: ResoQuery): string[] {
  const keys: string[] = [];
  const visit = (filter: NonNullable<ResoQuery['filter']>): boolean => {
    if (filter.type === 'or') return visit(filter.left) && visit(filter.right);
    if (
      filter.type === 'cmp' &&
      filter.field === 'ResourceRecordKey' &&
      filter.op === 'eq' &&
      filter.value.kind === 'string'
    ) {
      keys.push(filter.value.value);
      return true;
    }
    if (filter.type === 'in' && filter.field === 'ResourceRecordKey') {
      for (const value of filter.values) if (value.kind === 'string') keys.push(value.value);
      return true;
    }
    return false;
  };
  if (!query.filter || !visit(query.filter))
    throw new QueryError('Media queries in this sandbox filter ResourceRecordKey only (eq, in, or)');
  return keys;
}
