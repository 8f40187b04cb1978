import { PROPERTY_FIELDS } from '../fields.ts';
import { parseQuery, QueryError } from '../query.ts';
import { checkFields, countMatching, linkWith, runPage } from '../serve.ts';
import {
  bearerOf,
  collection,
  describeUsage,
  odataError,
  type ProviderReply,
  type ProviderRequest,
  type ResoState,
} from '../state.ts';
import { walkOf } from './common.ts';

/**
 * Bridge Interactive (bridgedataoutput.com; bridgeinteractive.com posts on the RESO Web API changes
 * and on burst limits): `/api/v2/OData/{dataset}/Property`, the token as `access_token` or a bearer
 * header, the page size from `Prefer: odata.maxpagesize` (default 10, at most 200) with `$top` the
 * size of the whole result, `$skip` up to 10 000, `/Property/replication` beyond (pages up to 2000,
 * no `$orderby`), hourly and burst (1/15 of the hourly, per minute) limits reported in
 * `Application-RateLimit-*` and `Burst-RateLimit-*`. Media comes inline on Property records.
 */
const MAX_PAGE = 200;
const DEFAULT_PAGE = 10;
const MAX_REPLICATION_PAGE = 2000;

export function handleBridge(request: ProviderRequest, state: ResoState): ProviderReply {
  const base = `/api/v2/OData/${state.settings.dataset}`;
  const token = request.url.searchParams.get('access_token') ?? bearerOf(request.headers);
  if (token !== state.settings.token)
    return odataError(401, token === undefined ? 'An access token is required' : 'Invalid access token');
  const now = state.clock.now();
  const over = state.budget.exceeded(token, now);
  if (over)
    return {
      ...odataError(429, `Rate limit exceeded: ${describeUsage(over)}`),
      headers: rateHeaders(state, token),
    };
  state.budget.admit(token, now);
  let reply: ProviderReply;
  try {
    reply = route(request, state, base);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    reply = odataError(400, error.message);
  }
  return { ...reply, headers: { ...reply.headers, ...rateHeaders(state, token) }, budgetKey: token };
}

/** Application-RateLimit-* (hourly) and Burst-RateLimit-* (per minute); resets as ISO instants. */
function rateHeaders(state: ResoState, token: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const usage of state.budget.usage(token, state.clock.now())) {
    const prefix =
      usage.limit.name === 'burst' ? 'Burst' : usage.limit.name === 'hour' ? 'Application' : undefined;
    if (!prefix) continue;
    headers[`${prefix}-RateLimit-Limit`] = String(usage.limit.limit);
    headers[`${prefix}-RateLimit-Remaining`] = String(usage.remaining);
    headers[`${prefix}-RateLimit-Reset`] = new Date(usage.resetAt).toISOString();
  }
  return headers;
}

function route(request: ProviderRequest, state: ResoState, base: string): ProviderReply {
  const path = request.url.pathname;
  if (!path.startsWith(`${base}/`)) return odataError(404, `Dataset or resource not found at ${path}`);
  const segments = path.slice(base.length + 1).split('/');
  const resource = state.resources.get(segments[0]!);
  if (!resource || segments.length > 2 || (segments.length === 2 && segments[1] !== 'replication'))
    return odataError(404, `Resource not found at ${path}`);
  const query = parseQuery(request.url.searchParams, segments[1] === 'replication' ? ['$next'] : []);
  checkFields(resource, query, resource.name === 'Property' ? ['Media'] : []);
  for (const item of query.expand ?? [])
    if (resource.name !== 'Property' || item !== 'Media')
      throw new QueryError(`$expand: ${item} cannot be expanded`);
  const property = resource.name === 'Property';
  const inlineMedia = property && (!query.select || query.select.includes('Media'));
  const context = `${base}/$metadata#${resource.name}`;
  const nullFields = property ? PROPERTY_FIELDS : undefined;
  if (segments[1] === 'replication') {
    if (query.orderby) throw new QueryError('$orderby is not supported on this endpoint');
    if (query.skip !== undefined)
      throw new QueryError('$skip is not supported on this endpoint; follow @odata.nextLink');
    const take = query.top ?? DEFAULT_PAGE;
    if (take > MAX_REPLICATION_PAGE)
      throw new QueryError(`$top may not exceed ${MAX_REPLICATION_PAGE} on the replication endpoint`);
    const after = decodeNext(request.url.searchParams.get('$next'));
    const page = runPage(state, {
      resource,
      query,
      walk: 'key',
      take,
      after,
      expandMedia: inlineMedia,
      nullFields,
    });
    const nextLink =
      page.more && page.last
        ? linkWith(request.origin, path, request.url.searchParams, { $next: encodeNext(page.last.index) })
        : undefined;
    return { status: 200, body: collection(request.origin, context, page.records, { nextLink }) };
  }
  const pageSize = maxPageSize([request.headers.prefer ?? ''].flat().join(','));
  if (query.top !== undefined && query.top > MAX_PAGE)
    throw new QueryError(`$top may not exceed ${MAX_PAGE}`);
  const skip = query.skip ?? 0;
  if (skip > state.settings.maxSkip)
    throw new QueryError(
      `$skip may not exceed ${state.settings.maxSkip}; use the Property replication endpoint for larger result sets`,
    );
  // $top is the size of the whole result (OData): each nextLink carries what is left of it.
  const take = query.top === undefined ? pageSize : Math.min(pageSize, query.top);
  const page = runPage(state, {
    resource,
    query,
    walk: walkOf(resource, query, 'key'),
    take,
    skip,
    expandMedia: inlineMedia,
    nullFields,
  });
  const left = query.top === undefined ? undefined : query.top - take;
  const set: Record<string, string> = { $skip: String(skip + take) };
  if (left !== undefined) set.$top = String(left);
  const nextLink =
    page.more && (left === undefined || left > 0)
      ? linkWith(request.origin, path, request.url.searchParams, set)
      : undefined;
  const count = query.count ? countMatching(state, resource, query.filter) : undefined;
  return {
    status: 200,
    body: collection(request.origin, context, page.records, { nextLink, count }),
    headers: { 'Preference-Applied': `odata.maxpagesize=${pageSize}` },
  };
}

/** The page size a `Prefer: odata.maxpagesize=N` asks for; above 200 is refused. */
function maxPageSize(prefer: string | undefined): number {
  const match = prefer ? /odata\.maxpagesize\s*=\s*(\d+)/i.exec(prefer) : null;
  if (!match) return DEFAULT_PAGE;
  const size = Number(match[1]);
  if (size < 1 || size > MAX_PAGE)
    throw new QueryError(`odata.maxpagesize must be between 1 and ${MAX_PAGE}, got ${size}`);
  return size;
}

function encodeNext(index: number): string {
  return Buffer.from(JSON.stringify({ i: index })).toString('base64url');
}

function decodeNext(token: string | null): { index: number; time: number } | undefined {
  if (token === null) return undefined;
  try {
    const { i } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { i: unknown };
    if (typeof i === 'number' && Number.isInteger(i) && i >= 0) return { index: i, time: 0 };
  } catch {
    // fall through
  }
  throw new QueryError('$next is not a valid replication position');
}
