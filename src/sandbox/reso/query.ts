import { type Filter, FilterSyntaxError, parseFilter } from './odata-filter.ts';

/** The OData system query options of one request, parsed. */
export interface ResoQuery {
  filter?: Filter;
  filterText?: string;
  top?: number;
  skip?: number;
  select?: string[];
  expand?: string[];
  orderby?: { field: string; desc: boolean }[];
  count: boolean;
  skiptoken?: string;
}

/** A query option the server refuses (HTTP 400); the message names the option. */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}

const KNOWN = new Set(['$filter', '$top', '$skip', '$select', '$expand', '$orderby', '$count', '$skiptoken']);

/**
 * Read `$filter`, `$top`, `$skip`, `$select`, `$expand`, `$orderby`, `$count`, `$skiptoken` from a
 * query string. Other `$` options are refused; parameters without `$` (`replication`,
 * `access_token`…) and the `$` names in `also` (Bridge's `$next`) are left to the provider.
 */
export function parseQuery(params: URLSearchParams, also: string[] = []): ResoQuery {
  for (const name of params.keys())
    if (name.startsWith('$') && !KNOWN.has(name) && !also.includes(name))
      throw new QueryError(`${name} is not supported`);
  const query: ResoQuery = { count: false };
  const filterText = single(params, '$filter');
  if (filterText !== undefined) {
    try {
      query.filter = parseFilter(filterText);
      query.filterText = filterText;
    } catch (error) {
      if (error instanceof FilterSyntaxError) throw new QueryError(`$filter: ${error.message}`);
      throw error;
    }
  }
  query.top = integer(params, '$top');
  query.skip = integer(params, '$skip');
  query.select = list(params, '$select');
  query.expand = list(params, '$expand');
  const orderby = list(params, '$orderby');
  if (orderby) query.orderby = orderby.map(orderItem);
  const count = single(params, '$count');
  if (count !== undefined && count !== 'true' && count !== 'false')
    throw new QueryError(`$count must be true or false, got ${JSON.stringify(count)}`);
  query.count = count === 'true';
  query.skiptoken = single(params, '$skiptoken');
  return query;
}

function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new QueryError(`${name} is given ${values.length} times`);
  return values[0];
}

function integer(params: URLSearchParams, name: string): number | undefined {
  const value = single(params, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()))
    throw new QueryError(`${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return Number(value.trim());
}

function list(params: URLSearchParams, name: string): string[] | undefined {
  const value = single(params, name);
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new QueryError(`${name} is empty`);
  return items;
}

function orderItem(item: string): { field: string; desc: boolean } {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+(asc|desc))?$/.exec(item);
  if (!match) throw new QueryError(`$orderby: cannot read ${JSON.stringify(item)}`);
  return { field: match[1]!, desc: match[2] === 'desc' };
}
