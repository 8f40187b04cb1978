import { fieldsOf, matches, type ResoRecord } from './odata-eval.ts';
import type { Filter } from './odata-filter.ts';
import { type After, scan, shape, type Walk } from './page.ts';
import { QueryError, type ResoQuery } from './query.ts';
import type { Resource } from './resources.ts';
import type { ResoState } from './state.ts';

export interface PageRequest {
  resource: Resource;
  query: ResoQuery;
  walk: Walk;
  take: number;
  /** `$skip` paging: matching records to pass over. */
  skip?: number;
  /** Keyset paging: start after this record. */
  after?: After;
  expandMedia: boolean;
  /** Fields sent as null when a record lacks them (Trestle, Bridge, Spark); MLS Grid leaves them out. */
  nullFields?: readonly string[];
}

export interface PageAnswer {
  records: ResoRecord[];
  more: boolean;
  /** The last record served, for the next keyset page. */
  last?: After;
}

/** One page of a resource, shaped as the provider serves it. */
export function runPage(state: ResoState, request: PageRequest): PageAnswer {
  const { resource, query } = request;
  const now = state.clock.now();
  const skip = request.skip ?? 0;
  const cacheKey = request.after
    ? undefined
    : `${resource.name}\u0000${request.walk}\u0000${query.filterText ?? ''}`;
  const from = cacheKey === undefined ? undefined : state.skipCache.get(cacheKey, skip, resource.version());
  const result = scan(resource, {
    walk: request.walk,
    filter: query.filter,
    now,
    skip: from === undefined ? skip : 0,
    take: request.take,
    after: request.after,
    from,
  });
  if (cacheKey !== undefined && result.more)
    state.skipCache.set(cacheKey, skip + result.items.length, resource.version(), result.end);
  const lastItem = result.items.at(-1);
  const records = result.items.map(({ index, record }) => {
    const media = request.expandMedia && resource.media ? resource.media(index, record) : undefined;
    return shape(record, { select: query.select, media, nullFields: request.nullFields });
  });
  return {
    records,
    more: result.more,
    last: lastItem && { index: lastItem.index, time: resource.timestampOf(lastItem.index) },
  };
}

/** `$count=true`: the number of visible records matching the filter. */
export function countMatching(state: ResoState, resource: Resource, filter: Filter | undefined): number {
  const now = state.clock.now();
  let count = 0;
  for (let index = 0; index < resource.size(); index++) {
    if (!resource.visible(index, now)) continue;
    if (!filter || matches(filter, resource.record(index))) count++;
  }
  return count;
}

/**
 * Refuse fields the resource does not have, in `$filter`, `$select` and `$orderby`, as OData
 * servers do ("Could not find a property named …"). `extraSelect` are names `$select` may also
 * take (Bridge's inline Media).
 */
export function checkFields(resource: Resource, query: ResoQuery, extraSelect: string[] = []): void {
  const unknown = (field: string) =>
    new QueryError(`Could not find a property named '${field}' on type '${resource.name}'`);
  if (query.filter)
    for (const field of fieldsOf(query.filter)) if (!resource.fields.has(field)) throw unknown(field);
  for (const field of query.select ?? [])
    if (!resource.fields.has(field) && !extraSelect.includes(field)) throw unknown(field);
  for (const { field } of query.orderby ?? []) if (!resource.fields.has(field)) throw unknown(field);
}

/** Is `$select` only the key field (Trestle lets such queries take 300 000 rows)? */
export function keyOnly(resource: Resource, query: ResoQuery): boolean {
  return query.select?.length === 1 && query.select[0] === resource.keyField;
}

/** A nextLink: this request's URL with some parameters replaced (others kept as sent). */
export function linkWith(
  origin: string,
  path: string,
  params: URLSearchParams,
  set: Record<string, string>,
): string {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(set)) next.set(name, value);
  // As the providers print them: `$top=1000&$skip=4000`, spaces as %20.
  const query = next.toString().replace(/\+/g, '%20').replace(/%24/g, '$').replace(/%2C/gi, ',');
  return `${origin}${path}?${query}`;
}
