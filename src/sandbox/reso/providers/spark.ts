import { PROPERTY_FIELDS } from '../fields.ts';
import { parseQuery, QueryError } from '../query.ts';
import { checkFields, countMatching, linkWith, runPage } from '../serve.ts';
import {
  bearerOf,
  collection,
  describeUsage,
  type ProviderReply,
  type ProviderRequest,
  type ResoState,
} from '../state.ts';

/**
 * FBS Spark, RESO Web API replication (sparkplatform.com/docs/reso/replication): the endpoint
 * `/Reso/OData` of replication.sparkapi.com, a bearer token, `$top` up to 1000 for replication keys,
 * results in ListingKey order with `$skiptoken` paging through `@odata.nextLink`, incremental
 * updates by `ModificationTimestamp gt` (the docs say: the last success minus 20 minutes), stale
 * records found by a `$select=ListingKey` sweep. Errors in Spark's standard failure format
 * (`{"D":{"Success":false,"Code":…,"Message":…}}`); over the rate limit, code 1550.
 */
const BASE = '/Reso/OData';
const MAX_TOP = 1000;
const DEFAULT_TOP = 10;

/** Spark's failure body (sparkplatform.com/docs/supporting_documentation/standard_response_format). */
export function sparkError(status: number, code: number, message: string): ProviderReply {
  return { status, body: { D: { Success: false, Code: code, Message: message } } };
}

export function handleSpark(request: ProviderRequest, state: ResoState): ProviderReply {
  const token = bearerOf(request.headers);
  if (token !== state.settings.token)
    return sparkError(401, 1000, 'Invalid API key and/or request signed improperly');
  const now = state.clock.now();
  const over = state.budget.exceeded(token, now);
  // Spark's error table lists 1550 "Over rate limit" with HTTP 503; newer guides say 429: we send 429.
  if (over) return sparkError(429, 1550, `Over rate limit: ${describeUsage(over)}`);
  state.budget.admit(token, now);
  try {
    return { ...route(request, state), budgetKey: token };
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    // 1040: bad _filter/$filter; 1053: a parameter outside its constraints.
    const code = error.message.startsWith('$filter') ? 1040 : 1053;
    return { ...sparkError(400, code, error.message), budgetKey: token };
  }
}

function route(request: ProviderRequest, state: ResoState): ProviderReply {
  const path = request.url.pathname;
  const name = path.startsWith(`${BASE}/`) ? path.slice(BASE.length + 1) : '';
  const resource = state.resources.get(name);
  if (!resource) return sparkError(404, 404, 'Not found');
  const query = parseQuery(request.url.searchParams);
  checkFields(resource, query);
  if (query.top !== undefined && query.top > MAX_TOP) throw new QueryError(`$top may not exceed ${MAX_TOP}`);
  if (query.skip !== undefined)
    throw new QueryError('$skip is not supported for replication; page with $skiptoken');
  for (const order of query.orderby ?? [])
    if (order.field !== resource.keyField || order.desc)
      throw new QueryError(`$orderby: replication results are ordered by ${resource.keyField}`);
  for (const item of query.expand ?? [])
    if (resource.name !== 'Property' || item !== 'Media')
      throw new QueryError(`$expand: ${item} cannot be expanded`);
  let after: { index: number; time: number } | undefined;
  if (query.skiptoken !== undefined) {
    const index = resource.indexOfKey(query.skiptoken);
    if (index === undefined)
      throw new QueryError(`$skiptoken ${JSON.stringify(query.skiptoken)} is not a valid position`);
    after = { index, time: 0 };
  }
  const take = query.top ?? DEFAULT_TOP;
  const page = runPage(state, {
    resource,
    query,
    walk: 'key',
    take,
    after,
    expandMedia: (query.expand ?? []).includes('Media'),
    nullFields: resource.name === 'Property' ? PROPERTY_FIELDS : undefined,
  });
  const lastKey = page.records.at(-1)?.[resource.keyField];
  const lastIndex = page.last?.index;
  const token =
    typeof lastKey === 'string'
      ? lastKey
      : lastIndex === undefined
        ? undefined
        : String(resource.record(lastIndex)[resource.keyField]);
  const nextLink =
    page.more && token !== undefined
      ? linkWith(request.origin, path, request.url.searchParams, { $skiptoken: token })
      : undefined;
  const count = query.count ? countMatching(state, resource, query.filter) : undefined;
  return {
    status: 200,
    body: collection(request.origin, `${BASE}/$metadata#${name}`, page.records, { nextLink, count }),
  };
}
