import type { Usage } from '../budget.ts';
import { conjuncts, fieldsOf, fieldUses, orCount } from '../odata-eval.ts';
import { parseQuery, QueryError } from '../query.ts';
import { checkFields, countMatching, linkWith, runPage } from '../serve.ts';
import {
  acceptsGzip,
  bearerOf,
  collection,
  describeUsage,
  odataError,
  type ProviderReply,
  type ProviderRequest,
  type ResoState,
} from '../state.ts';

/**
 * MLS Grid, Web API v2 (docs.mlsgrid.com, "API Version 2.0"): `/v2/Property|Member|Office`, a
 * bearer token, gzip required, one `OriginatingSystemName` in every `$filter`, only the documented
 * searchable fields, at most five `or`, `$top` ≤ 5000 (≤ 1000 with `$expand`, default 500),
 * `@odata.nextLink` with `$skip`, records in ModificationTimestamp order, deletions as
 * `MlgCanView: false` for 7 days. Over any limit: 429 and the key is suspended.
 */
const BASE = '/v2';
const SEARCHABLE: Record<string, string[]> = {
  Property: [
    'OriginatingSystemName',
    'ModificationTimestamp',
    'StandardStatus',
    'PropertyType',
    'ListingId',
    'MlgCanView',
    'ListOfficeMlsId',
  ],
  Member: ['OriginatingSystemName', 'ModificationTimestamp', 'MemberMlsId', 'MlgCanView'],
  Office: ['OriginatingSystemName', 'ModificationTimestamp', 'OfficeMlsId', 'MlgCanView'],
};
const EXPANDABLE: Record<string, string[]> = {
  Property: ['Media', 'Rooms', 'UnitTypes'],
  Member: ['Media'],
  Office: ['Media'],
};
const MAX_TOP = 5000;
const MAX_TOP_EXPAND = 1000;
const DEFAULT_TOP = 500;

export function handleMlsGrid(request: ProviderRequest, state: ResoState): ProviderReply {
  const { settings } = state;
  // Compression is checked before authentication: an anonymous request without gzip gets 400.
  if (settings.requireGzip && !acceptsGzip(request.headers)) return odataError(400, 'COMPRESSION REQUIRED');
  const token = bearerOf(request.headers);
  if (token === undefined) return odataError(401, 'Unauthorized request: no authentication given');
  if (token !== settings.token) return odataError(401, 'Unauthorized request: invalid access token');
  const suspension = state.suspended.get(token);
  if (suspension) return suspendedReply(suspension.reason);
  const now = state.clock.now();
  const over = state.budget.exceeded(token, now);
  if (over) return suspend(state, token, over);
  state.budget.admit(token, now);
  warnIfNear(state, token);
  const reply = route(request, state);
  return { ...reply, budgetKey: token };
}

function route(request: ProviderRequest, state: ResoState): ProviderReply {
  const path = request.url.pathname;
  if (!path.startsWith(`${BASE}/`)) return odataError(404, `no resource at ${path}`);
  const name = path.slice(BASE.length + 1);
  const resource = state.resources.get(name);
  if (!resource || !(name in SEARCHABLE))
    return odataError(404, `Resource not found for the segment '${name}'`);
  try {
    const query = parseQuery(request.url.searchParams);
    checkFields(resource, query);
    if (!query.filter)
      throw new QueryError('$filter is required: every request must filter one OriginatingSystemName');
    const systems = conjuncts(query.filter).filter(
      (part) => part.type === 'cmp' && part.field === 'OriginatingSystemName' && part.op === 'eq',
    );
    if (systems.length !== 1 || fieldUses(query.filter, 'OriginatingSystemName') !== 1)
      throw new QueryError(
        'Each request must contain a single OriginatingSystemName specified in the filter criteria',
      );
    for (const field of fieldsOf(query.filter))
      if (!SEARCHABLE[name]!.includes(field))
        throw new QueryError(`${field} is not a searchable field of ${name}`);
    if (orCount(query.filter) > 5)
      throw new QueryError("The query must include no more than 5 'or' operators");
    for (const item of query.expand ?? [])
      if (!EXPANDABLE[name]!.includes(item))
        throw new QueryError(`$expand: ${item} cannot be expanded on ${name}`);
    const expanding = (query.expand ?? []).length > 0;
    const max = expanding ? MAX_TOP_EXPAND : MAX_TOP;
    if (query.top !== undefined && query.top > max)
      throw new QueryError(
        `$top ${query.top} is above the maximum of ${max} records per request${expanding ? ' with $expand' : ''}`,
      );
    if (query.top === 0) throw new QueryError('$top must be at least 1');
    for (const order of query.orderby ?? [])
      if (order.field !== 'ModificationTimestamp' || order.desc)
        throw new QueryError(
          '$orderby: records are served in ModificationTimestamp order; only "ModificationTimestamp asc" is accepted',
        );
    if (query.skiptoken !== undefined)
      throw new QueryError('$skiptoken is not supported; follow @odata.nextLink');
    const system = systems[0]!;
    const system0 = system.type === 'cmp' && system.value.kind === 'string' ? system.value.value : undefined;
    const take = query.top ?? DEFAULT_TOP;
    const skip = query.skip ?? 0;
    const context = `${BASE}/$metadata#${name}`;
    // Another MLS's name matches nothing this key may read.
    if (system0 !== state.settings.originatingSystem)
      return { status: 200, body: collection(request.origin, context, [], query.count ? { count: 0 } : {}) };
    const page = runPage(state, {
      resource,
      query,
      walk: 'time',
      take,
      skip,
      expandMedia: (query.expand ?? []).includes('Media'),
    });
    // Rooms and UnitTypes are documented but not generated: an expanded empty collection.
    for (const record of page.records)
      for (const item of query.expand ?? []) if (item !== 'Media') record[item] = [];
    const nextLink = page.more
      ? linkWith(request.origin, path, request.url.searchParams, {
          $top: String(take),
          $skip: String(skip + take),
        })
      : undefined;
    const count = query.count ? countMatching(state, resource, query.filter) : undefined;
    return { status: 200, body: collection(request.origin, context, page.records, { nextLink, count }) };
  } catch (error) {
    if (error instanceof QueryError) return odataError(400, error.message);
    throw error;
  }
}

function suspendedReply(reason: string): ProviderReply {
  return odataError(
    429,
    `Your access token has been suspended for exceeding the MLS Grid usage limits: ${reason}. ` +
      'Permissions are reinstated once usage is back within the limits (sandbox: POST /__reso/reset).',
  );
}

/** Over a limit: refuse, suspend the key, and "e-mail" the account's primary contact. */
function suspend(state: ResoState, token: string, usage: Usage): ProviderReply {
  const reason = `over the limit of ${describeUsage(usage)}`;
  const at = new Date(state.clock.now()).toISOString();
  state.suspended.set(token, { at, reason });
  state.emails.push({
    at,
    kind: 'suspension',
    subject: 'MLS Grid: your access token has been suspended',
    body: `Requests with your access token went ${reason}. The token is suspended.`,
  });
  return suspendedReply(reason);
}

/** MLS Grid e-mails a warning about concerning usage; the sandbox does so at `warnAt` of a window. */
export function warnIfNear(state: ResoState, token: string): void {
  const now = state.clock.now();
  for (const usage of state.budget.usage(token, now)) {
    if (usage.limit.windowMs < 3_600_000) continue;
    const mark = `${token}/${usage.limit.name}`;
    if (usage.used < usage.limit.limit * state.settings.warnAt) {
      state.warned.delete(mark);
      continue;
    }
    if (state.warned.has(mark)) continue;
    state.warned.add(mark);
    state.emails.push({
      at: new Date(now).toISOString(),
      kind: 'warning',
      subject: 'MLS Grid: concerning usage of your access token',
      body: `Usage reached ${usage.used} of ${describeUsage(usage)}. Exceeding it suspends the token.`,
    });
  }
}

/** After an answer's bytes are counted: over the byte limit suspends the key for the next request. */
export function afterBytes(state: ResoState, token: string): void {
  const now = state.clock.now();
  for (const usage of state.budget.usage(token, now))
    if (usage.limit.unit === 'bytes' && usage.used > usage.limit.limit && !state.suspended.has(token))
      suspend(state, token, usage);
  warnIfNear(state, token);
}
