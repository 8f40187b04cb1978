import type { ResoOptions } from '../../source-schema.ts';

/** OData query parameters, encoded the way OData servers expect (`%20`, never `+`; `$` kept). */
export function encodeQuery(params: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');
}

/** The first page's URL. Incremental runs add `ModificationTimestamp gt <since>` to the feed's own filter. */
export function firstPageUrl(endpoint: string, options: ResoOptions, since: Date | undefined): string {
  const filters: string[] = [];
  if (options.filter) filters.push(`(${options.filter})`);
  if (since) filters.push(`ModificationTimestamp gt ${since.toISOString()}`);
  const select = options.select
    ? [...new Set([...options.select, 'ModificationTimestamp', 'ListingKey'])]
    : undefined;
  const query = encodeQuery({
    $filter: filters.join(' and ') || undefined,
    $select: select?.join(','),
    $top: String(options.top),
    // ListingKey breaks ties between records modified in the same instant, so paging is stable.
    $orderby: 'ModificationTimestamp asc,ListingKey asc',
    $expand: options.media === 'expand' ? 'Media' : undefined,
  });
  return `${endpoint.replace(/\/+$/, '')}/${options.resource}?${query}`;
}

/** One Media query for a page of records: `ResourceRecordKey eq 'A' or …`. */
export function mediaUrl(endpoint: string, keys: readonly string[]): string {
  const anyKey = keys.map((key) => `ResourceRecordKey eq '${key.replace(/'/g, "''")}'`).join(' or ');
  const query = encodeQuery({
    $filter: `ResourceName eq 'Property' and (${anyKey})`,
    $orderby: 'ResourceRecordKey asc,Order asc',
    $top: '1000',
  });
  return `${endpoint.replace(/\/+$/, '')}/Media?${query}`;
}

/** Whether a nextLink stays on the endpoint's origin: the token is never sent anywhere else. */
export function sameOrigin(link: string, endpoint: string): boolean {
  try {
    return new URL(link).origin === new URL(endpoint).origin;
  } catch {
    return false;
  }
}

/** Incremental or full for this run, and from when. */
export function planResoRun(
  options: ResoOptions,
  state: { resoWatermark?: string; lastFullRunAt?: string },
  now: Date,
  forceFull: boolean,
  parse: (value: unknown) => number | undefined,
): { mode: 'full' | 'incremental'; since?: Date } {
  if (options.mode !== 'incremental' || forceFull) return { mode: 'full' };
  const watermark = parse(state.resoWatermark);
  const lastFull = parse(state.lastFullRunAt);
  if (watermark === undefined || lastFull === undefined) return { mode: 'full' };
  if (now.getTime() - lastFull >= options.fullEveryHours * 3_600_000) return { mode: 'full' };
  return { mode: 'incremental', since: new Date(watermark - options.overlapMinutes * 60_000) };
}
