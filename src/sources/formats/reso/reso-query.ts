import type { ReplicationPosition, ResoCheckpoint } from './checkpoint.ts';
import { odataString } from './profiles.ts';
import type { ResolvedReso } from './resolve-options.ts';

/** OData query parameters, encoded the way OData servers expect (`%20`, never `+`; `$` kept). */
export function encodeQuery(params: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');
}

/**
 * The URL of a resource under the endpoint, with the query: the endpoint's own query (Bridge takes
 * its token as `?access_token=`) kept as a query, before this one's parameters, where it used to be
 * joined into the path (`/v2?access_token=…/Property?…`: a 404, found by a tester).
 */
export function resourceUrl(endpoint: string, resource: string, query: string): string {
  const withoutHash = endpoint.replace(/#.*$/, '');
  const mark = withoutHash.indexOf('?');
  const base = (mark < 0 ? withoutHash : withoutHash.slice(0, mark)).replace(/\/+$/, '');
  const own = mark < 0 ? '' : withoutHash.slice(mark + 1).replace(/^&+|&+$/g, '');
  const joined = [own, query].filter((part) => part !== '').join('&');
  return `${base}/${resource}${joined === '' ? '' : `?${joined}`}`;
}

/**
 * The filters of a query: the provider's required ones (MLS Grid's `OriginatingSystemName`), those
 * of a read of the whole feed (`MlgCanView eq true`), the feed's own, and what the replication reads.
 */
function filtersOf(options: ResolvedReso, kind: 'full' | 'incremental'): string[] {
  const { profile } = options;
  const filters = [...profile.requiredFilters({ originatingSystem: options.originatingSystem })];
  if (kind === 'full') filters.push(...profile.fullReadFilters);
  if (options.filter) filters.push(`(${options.filter})`);
  return filters;
}

/**
 * The first page of a replication, or of what is left of it: records modified since its `since`
 * (incremental), from its position when it goes on (`ge` the last timestamp: the keys read there are
 * skipped by the reader; or after the last ListingKey), in the provider's order.
 */
export function replicationUrl(endpoint: string, options: ResolvedReso, checkpoint: ResoCheckpoint): string {
  const filters = filtersOf(options, checkpoint.kind);
  if (checkpoint.since) filters.push(`ModificationTimestamp gt ${checkpoint.since}`);
  filters.push(...positionFilters(checkpoint.position));
  const select = options.select
    ? [...new Set([...options.select, 'ModificationTimestamp', 'ListingKey', ...deletionFields(options)])]
    : undefined;
  const query = encodeQuery({
    $filter: filters.join(' and ') || undefined,
    $select: select?.join(','),
    $top: options.profile.pageSizeBy === 'top' ? String(options.top) : undefined,
    $orderby: options.profile.orderBy,
    $expand: options.expand,
    ...(checkpoint.kind === 'full' ? options.profile.fullReadParams : {}),
  });
  return resourceUrl(endpoint, options.resource, query);
}

/** Fields a `$select` must keep for the provider's deletion marker to be read. */
function deletionFields(options: ResolvedReso): string[] {
  return options.profile.provider === 'mlsgrid' ? ['MlgCanView'] : [];
}

/**
 * A key sweep: the keys of every listing the feed has now (what a full read would list), and
 * nothing else but the order's fields, in pages as large as the provider allows for them; from a
 * position when a sweep goes on after a link that failed.
 */
export function sweepUrl(
  endpoint: string,
  options: ResolvedReso,
  select: readonly string[],
  position?: ReplicationPosition,
  top: number = options.profile.sweepTop,
): string {
  const filters = [...filtersOf(options, 'full'), ...positionFilters(position)];
  const query = encodeQuery({
    $filter: filters.join(' and ') || undefined,
    $select: [...new Set(['ListingKey', 'ModificationTimestamp', ...select])].join(','),
    $top: options.profile.pageSizeBy === 'top' ? String(top) : undefined,
    $orderby: options.profile.orderBy,
    ...options.profile.fullReadParams,
  });
  return resourceUrl(endpoint, options.resource, query);
}

/**
 * The records of some keys, by the source field the feed's key is read from (`ListingId eq 'A' or
 * …`), under the filters of a read of the whole feed: whether the provider still lists them.
 */
export function keysUrl(
  endpoint: string,
  options: ResolvedReso,
  fields: readonly string[],
  keys: readonly string[],
): string {
  const anyKey = keys.flatMap((key) => fields.map((field) => `${field} eq ${odataString(key)}`)).join(' or ');
  const query = encodeQuery({
    $filter: [...filtersOf(options, 'full'), `(${anyKey})`].join(' and '),
    $top: options.profile.pageSizeBy === 'top' ? String(Math.max(keys.length * fields.length, 1)) : undefined,
  });
  return resourceUrl(endpoint, options.resource, query);
}

/** The filters that go on from a position: after the last ListingKey, or from the last instant. */
function positionFilters(position: ReplicationPosition | undefined): string[] {
  if (position && 'timestamp' in position) return [`ModificationTimestamp ge ${position.timestamp}`];
  if (position && 'key' in position) return [`ListingKey gt ${odataString(position.key)}`];
  return [];
}

/** The request headers a provider wants on every query: Bridge's page size. */
export function queryHeaders(options: ResolvedReso, sweep = false): Record<string, string> {
  if (options.profile.pageSizeBy !== 'prefer') return {};
  return { prefer: `odata.maxpagesize=${sweep ? options.profile.sweepTop : options.top}` };
}

/** One Media query for a page of records: `ResourceRecordKey eq 'A' or …`. */
export function mediaUrl(endpoint: string, keys: readonly string[]): string {
  const anyKey = keys.map((key) => `ResourceRecordKey eq ${odataString(key)}`).join(' or ');
  const query = encodeQuery({
    $filter: `ResourceName eq 'Property' and (${anyKey})`,
    $orderby: 'ResourceRecordKey asc,Order asc',
    $top: '1000',
  });
  return resourceUrl(endpoint, 'Media', query);
}

/** Whether a nextLink stays on the endpoint's origin: the token is never sent anywhere else. */
export function sameOrigin(link: string, endpoint: string): boolean {
  try {
    return new URL(link).origin === new URL(endpoint).origin;
  } catch {
    return false;
  }
}
