import { randomUUID } from 'node:crypto';
import { PROPERTY_FIELDS } from '../fields.ts';
import type { ResoRecord } from '../odata-eval.ts';
import { shape } from '../page.ts';
import { parseQuery, QueryError, type ResoQuery } from '../query.ts';
import type { Resource } from '../resources.ts';
import { checkFields, countMatching, keyOnly, linkWith, runPage } from '../serve.ts';
import {
  bearerOf,
  collection,
  describeUsage,
  odataError,
  type ProviderReply,
  type ProviderRequest,
  type ReplicationCursor,
  type ResoState,
} from '../state.ts';
import { mediaKeysOf, sortMedia, walkOf } from './common.ts';

/**
 * CoreLogic (Cotality) Trestle (trestle-documentation.corelogic.com, docs-trestle.corelogic.com):
 * OAuth2 client credentials at `/trestle/oidc/connect/token` (8-hour tokens), OData at
 * `/trestle/odata`, `$top` ≤ 1000 (default 10; 300 000 for key-only `$select`), at most 1 000 000
 * rows per standard query ("Error getting data!"), `replication=true` for more with a
 * `Property/replication?id=` link that expires after 5 idle minutes, quota headers on every answer,
 * 429 over 180/minute or 7200/hour. Deletions are not signalled: records leave the feed.
 */
const BASE = '/trestle/odata';
const MAX_TOP = 1000;
const MAX_TOP_KEYS = 300_000;
const DEFAULT_TOP = 10;
const EXPANDABLE = ['Media', 'Rooms', 'Units', 'OpenHouse', 'CustomProperty'];

export function handleTrestle(request: ProviderRequest, state: ResoState): ProviderReply {
  const path = request.url.pathname;
  if (path === '/trestle/oidc/connect/token') return issueToken(request, state);
  const key = state.settings.clientId;
  const withQuota = (reply: ProviderReply): ProviderReply => ({
    ...reply,
    headers: { ...reply.headers, ...quotaHeaders(state, key) },
  });
  const token = bearerOf(request.headers);
  const expiresAt = token === undefined ? undefined : state.issuedTokens.get(token);
  if (expiresAt === undefined || expiresAt <= state.clock.now())
    return withQuota({
      ...odataError(401, 'Unauthorized: a valid access token is required'),
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
  const now = state.clock.now();
  const over = state.budget.exceeded(key, now);
  if (over) return withQuota(odataError(429, `Quota exceeded: ${describeUsage(over)}`));
  state.budget.admit(key, now);
  try {
    return { ...withQuota(route(request, state)), budgetKey: key };
  } catch (error) {
    if (error instanceof QueryError) return { ...withQuota(odataError(400, error.message)), budgetKey: key };
    throw error;
  }
}

function issueToken(request: ProviderRequest, state: ResoState): ProviderReply {
  if (request.method !== 'POST')
    return { status: 405, body: { error: 'invalid_request' }, headers: { Allow: 'POST' } };
  const form = new URLSearchParams(request.body);
  if (form.get('grant_type') !== 'client_credentials')
    return { status: 400, body: { error: 'unsupported_grant_type' } };
  const { clientId, clientSecret, tokenLifetimeSeconds } = state.settings;
  if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret)
    return { status: 400, body: { error: 'invalid_client' } };
  if ((form.get('scope') ?? 'api') !== 'api') return { status: 400, body: { error: 'invalid_scope' } };
  const token = randomUUID().replace(/-/g, '');
  state.issuedTokens.set(token, state.clock.now() + tokenLifetimeSeconds * 1000);
  return {
    status: 200,
    body: { access_token: token, expires_in: tokenLifetimeSeconds, token_type: 'Bearer', scope: 'api' },
  };
}

/** Minute-Quota-*, Hour-Quota-* and QuotaType, on every answer (401s included), as floats like Trestle's. */
function quotaHeaders(state: ResoState, key: string): Record<string, string> {
  const headers: Record<string, string> = { QuotaType: 'Api' };
  for (const usage of state.budget.usage(key, state.clock.now())) {
    const prefix =
      usage.limit.name === 'minute' ? 'Minute' : usage.limit.name === 'hour' ? 'Hour' : undefined;
    if (!prefix) continue;
    headers[`${prefix}-Quota-Limit`] = `${usage.limit.limit}.0`;
    headers[`${prefix}-Quota-Available`] = `${usage.remaining}.0`;
    if (prefix === 'Hour') headers['Hour-Quota-ResetTime'] = String(usage.resetAt);
  }
  return headers;
}

function route(request: ProviderRequest, state: ResoState): ProviderReply {
  const path = request.url.pathname;
  if (!path.startsWith(`${BASE}/`)) return odataError(404, `no resource at ${path}`);
  const segments = path.slice(BASE.length + 1).split('/');
  const name = segments[0]!;
  if (segments.length === 2 && segments[1] === 'replication' && name === 'Property')
    return replicate(request, state);
  if (segments.length !== 1) return odataError(404, `no resource at ${path}`);
  if (name === 'Media') return media(request, state);
  const resource = state.resources.get(name);
  if (!resource) return odataError(404, `The resource ${name} does not exist or is not available`);
  const query = parseQuery(request.url.searchParams);
  checkQuery(resource, query);
  const replication = request.url.searchParams.get('replication')?.toLowerCase() === 'true';
  if (replication) return startReplication(request, state, resource, query);
  const take = query.top ?? DEFAULT_TOP;
  const max = keyOnly(resource, query) ? MAX_TOP_KEYS : MAX_TOP;
  if (take > max)
    throw new QueryError(
      `The maximum value of $top is ${max}${max === MAX_TOP ? ' (300000 when $select is the key only)' : ''}`,
    );
  const skip = query.skip ?? 0;
  if (skip + take > state.settings.maxQueryRows)
    throw new QueryError(
      `Error getting data! A query reaches at most ${state.settings.maxQueryRows} rows; use replication=true`,
    );
  const page = runPage(state, pageRequest(resource, query, walkOf(resource, query, 'key'), take, skip));
  const nextLink = page.more
    ? linkWith(request.origin, path, request.url.searchParams, {
        $top: String(take),
        $skip: String(skip + take),
      })
    : undefined;
  const count = query.count ? countMatching(state, resource, query.filter) : undefined;
  return {
    status: 200,
    body: collection(request.origin, `${BASE}/$metadata#${name}`, page.records, { nextLink, count }),
  };
}

function checkQuery(resource: Resource, query: ResoQuery): void {
  checkFields(resource, query);
  for (const item of query.expand ?? [])
    if (resource.name !== 'Property' || !EXPANDABLE.includes(item))
      throw new QueryError(`$expand: ${item} is not a navigation property of ${resource.name}`);
}

function pageRequest(resource: Resource, query: ResoQuery, walk: 'time' | 'key', take: number, skip = 0) {
  return {
    resource,
    query,
    walk,
    take,
    skip,
    expandMedia: (query.expand ?? []).includes('Media'),
    nullFields: resource.name === 'Property' ? PROPERTY_FIELDS : undefined,
  };
}

function startReplication(
  request: ProviderRequest,
  state: ResoState,
  resource: Resource,
  query: ResoQuery,
): ProviderReply {
  if (query.skip !== undefined)
    throw new QueryError('$skip cannot be used with replication=true; follow @odata.nextLink');
  const take = query.top ?? DEFAULT_TOP;
  if (take > MAX_TOP) throw new QueryError(`The maximum value of $top is ${MAX_TOP}`);
  const cursor: ReplicationCursor = {
    resource: resource.name,
    query,
    walk: walkOf(resource, query, 'key'),
    take,
    lastUsed: state.clock.now(),
  };
  return replicationPage(request, state, cursor, randomUUID());
}

/** `Property/replication?id=`: the next page of a replication, until a page comes back empty. */
function replicate(request: ProviderRequest, state: ResoState): ProviderReply {
  const id = request.url.searchParams.get('id') ?? '';
  const cursor = state.cursors.get(id);
  const now = state.clock.now();
  if (!cursor || now - cursor.lastUsed > state.settings.replicationIdleMs) {
    state.cursors.delete(id);
    return odataError(
      404,
      `The replication link ${id || '(no id)'} has expired or does not exist; start the replication again`,
    );
  }
  return replicationPage(request, state, cursor, id);
}

function replicationPage(
  request: ProviderRequest,
  state: ResoState,
  cursor: ReplicationCursor,
  id: string,
): ProviderReply {
  const resource = state.resources.get(cursor.resource)!;
  const page = runPage(state, {
    ...pageRequest(resource, cursor.query, cursor.walk, cursor.take),
    after: cursor.after,
  });
  let nextLink: string | undefined;
  if (page.records.length > 0) {
    cursor.after = page.last;
    cursor.lastUsed = state.clock.now();
    state.cursors.set(id, cursor);
    nextLink = `${request.origin}${BASE}/${cursor.resource}/replication?id=${id}`;
  } else state.cursors.delete(id);
  return {
    status: 200,
    body: collection(request.origin, `${BASE}/$metadata#${cursor.resource}`, page.records, { nextLink }),
  };
}

/** The Media resource: the photos of the listings a `ResourceRecordKey` filter names. */
function media(request: ProviderRequest, state: ResoState): ProviderReply {
  const query = parseQuery(request.url.searchParams);
  const property = state.resources.get('Property')!;
  const now = state.clock.now();
  const all: ResoRecord[] = [];
  for (const key of mediaKeysOf(query)) {
    const index = property.indexOfKey(key);
    if (index === undefined || !property.visible(index, now)) continue;
    all.push(...property.media!(index, property.record(index)));
  }
  const sorted = sortMedia(all, query);
  const take = query.top ?? DEFAULT_TOP;
  if (take > MAX_TOP) throw new QueryError(`The maximum value of $top is ${MAX_TOP}`);
  const skip = query.skip ?? 0;
  const records = sorted.slice(skip, skip + take).map((record) => shape(record, { select: query.select }));
  const nextLink =
    skip + take < sorted.length
      ? linkWith(request.origin, request.url.pathname, request.url.searchParams, {
          $top: String(take),
          $skip: String(skip + take),
        })
      : undefined;
  return { status: 200, body: collection(request.origin, `${BASE}/$metadata#Media`, records, { nextLink }) };
}
