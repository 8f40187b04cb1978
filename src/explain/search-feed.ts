import type { FeedConfig } from '../config/index.ts';
import type { IngestDeps } from '../sources/index.ts';
import { placeOf } from './find-record.ts';
import { keyOfItem, scanFeed } from './scan-feed.ts';

/** One listing of the feed that matches a search. */
export interface SearchHit {
  key: string;
  /** `12 Oak St, Port Harbor` when the record has an address. */
  address?: string;
  where: string;
  kind: 'listing' | 'remove' | 'rejected';
}

export interface SearchResult {
  hits: SearchHit[];
  /** More records matched than `limit`. */
  more: boolean;
  records: number;
}

/**
 * The feed's records whose key or address holds `query` (case and spacing ignored), the last record
 * of each key, at most `limit`. Reads the whole feed as a run does; keeps only the hits.
 */
export async function searchFeed(
  feed: FeedConfig,
  query: string,
  deps: Pick<IngestDeps, 'signal' | 'logger' | 'now' | 'budget'>,
  limit = 50,
): Promise<SearchResult> {
  const needle = fold(query);
  const hits = new Map<string, SearchHit>();
  let more = false;
  const scanned = await scanFeed(feed, deps, (item, record, name) => {
    const key = keyOfItem(item);
    if (key === undefined || needle === '') return;
    const values = item.kind === 'listing' ? item.listing : undefined;
    const address = [values?.Address ?? record.fields.Address, values?.City]
      .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
      .join(', ');
    if (!fold(key).includes(needle) && !fold(address).includes(needle)) return;
    if (!hits.has(key) && hits.size >= limit) {
      more = true;
      return;
    }
    hits.delete(key);
    hits.set(key, {
      key,
      ...(address ? { address } : {}),
      where: placeOf(record, name).where,
      kind: item.kind,
    });
  });
  return { hits: [...hits.values()], more, records: scanned.records };
}

function fold(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
