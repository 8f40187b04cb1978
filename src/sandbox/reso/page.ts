import { lowerBoundOf, matches, type ResoRecord } from './odata-eval.ts';
import type { Filter } from './odata-filter.ts';
import type { Resource } from './resources.ts';

/** The order a server walks: by (ModificationTimestamp, key), or by key alone. */
export type Walk = 'time' | 'key';

/** Where a keyset page starts: after this record. */
export interface After {
  index: number;
  /** Its ModificationTimestamp (ms) when it was served; for the time walk. */
  time: number;
}

export interface ScanRequest {
  walk: Walk;
  filter?: Filter;
  now: number;
  /** Matching records to pass over before the page (OData `$skip`). */
  skip: number;
  take: number;
  /** Keyset paging: start after this record. */
  after?: After;
  /** Start at this position of the walk (a cached continuation), instead of computing it. */
  from?: number;
}

export interface ScanResult {
  items: { index: number; record: ResoRecord }[];
  /** Whether another matching record follows the page. */
  more: boolean;
  /** Position just after the last item, where the next page's scan can start. */
  end: number;
}

/**
 * Walk a resource in order, keep the visible records matching the filter, pass over `skip` of them,
 * take `take`, and look one further to know whether more follow. The walk starts at the filter's
 * lower bound on ModificationTimestamp (time walk), so an incremental query does not touch older
 * records.
 */
export function scan(resource: Resource, request: ScanRequest): ScanResult {
  const total = resource.size();
  let position = request.from ?? startOf(resource, request);
  let skipped = 0;
  const items: ScanResult['items'] = [];
  let end = position;
  for (; position < total; position++) {
    const index = request.walk === 'time' ? resource.atTime(position) : position;
    if (!resource.visible(index, request.now)) continue;
    const record = resource.record(index);
    if (request.filter && !matches(request.filter, record)) continue;
    if (skipped < request.skip) {
      skipped++;
      continue;
    }
    if (items.length === request.take) return { items, more: true, end };
    items.push({ index, record });
    end = position + 1;
  }
  return { items, more: false, end: total };
}

function startOf(resource: Resource, request: ScanRequest): number {
  if (request.walk === 'key') return request.after ? request.after.index + 1 : 0;
  const bound = lowerBoundOf(request.filter, 'ModificationTimestamp');
  const after = request.after;
  if (!after) return bound === undefined ? 0 : resource.lowerBound(bound);
  let position = resource.lowerBound(Math.max(after.time, bound ?? after.time));
  while (position < resource.size()) {
    const index = resource.atTime(position);
    if (resource.timestampOf(index) !== after.time || index > after.index) break;
    position++;
  }
  return position;
}

/**
 * Remembers where a `$skip` page ended, so the next page (`$skip` + `$top`) starts there instead of
 * re-counting from the first record: 80 pages of 1000 over 80 000 listings cost one walk, not 80.
 * Entries carry the resource version: any change to the data drops them, and the next page counts
 * `$skip` again from the start, exactly as a server re-running the query would (and so shifts
 * records across pages as a real `$skip` does).
 */
export class SkipCache {
  private readonly entries = new Map<string, { version: number; position: number }>();

  get(query: string, skip: number, version: number): number | undefined {
    const entry = this.entries.get(`${query}\u0000${skip}`);
    return entry && entry.version === version ? entry.position : undefined;
  }

  set(query: string, skip: number, version: number, position: number): void {
    if (this.entries.size > 2000) this.entries.clear();
    this.entries.set(`${query}\u0000${skip}`, { version, position });
  }
}

/**
 * The record as served: `$select`ed fields in the order asked, Media added when expanded, and
 * (for providers that send them) nulls for the fields a record does not have.
 */
export function shape(
  record: ResoRecord,
  options: { select?: string[]; media?: ResoRecord[]; nullFields?: readonly string[] },
): ResoRecord {
  const fields = options.select ?? options.nullFields;
  let out: ResoRecord;
  if (options.select) {
    out = {};
    for (const field of options.select) out[field] = record[field] ?? null;
  } else if (fields) {
    out = {};
    for (const field of fields) out[field] = record[field] ?? null;
    for (const [field, value] of Object.entries(record)) if (!(field in out)) out[field] = value;
  } else out = record;
  if (options.media) out.Media = options.media;
  return out;
}
