import type { FeedConfig } from '../config/index.ts';
import { type FeedItem, itemsOf } from '../ingest/index.ts';
import type { CompiledMapping } from '../normalize/index.ts';
import { type IngestDeps, openFeed, type RawRecord, type SourcePause } from '../sources/index.ts';

/** What reading a whole feed for one question gives besides what the visitor kept. */
export interface ScannedFeed {
  name: string;
  mode: 'full' | 'incremental';
  records: number;
  /** The mapping the run uses (a CSV header decides an inferred one); undefined for a feed without records. */
  mapping: CompiledMapping | undefined;
  /** The provider's budget stopped the read (RESO): the records are some of the feed's, or none. */
  pause?: SourcePause;
}

/**
 * Read a whole feed through the run's own loop (`itemsOf`: the same mapping, keys, rejections), and
 * show each item beside the raw record it came from. Reads only; keeps nothing but what `visit`
 * keeps, so memory stays flat with the feed. Always a full read: no validators, no watermark.
 */
export async function scanFeed(
  feed: FeedConfig,
  deps: Pick<IngestDeps, 'signal' | 'logger' | 'now' | 'budget'>,
  visit: (item: FeedItem, record: RawRecord, name: string) => void,
): Promise<ScannedFeed> {
  const ingestDeps: IngestDeps = { ...deps, state: {}, forceFull: true };
  const opened = await openFeed(feed, ingestDeps);
  // `itemsOf` maps a whole batch, then yields its items: the batch last read is theirs.
  const current: { batch: readonly RawRecord[] } = { batch: [] };
  const records = remembering(opened.records, current);
  const items = itemsOf(feed, { ...opened, records }, ingestDeps);
  let count = 0;
  let next = await items.next();
  for (; !next.done; next = await items.next()) {
    const batch = current.batch;
    next.value.forEach((item, i) => {
      const record = batch[i];
      if (record) visit(item, record, opened.name);
    });
    count += next.value.length;
  }
  const pause = opened.end?.().pause;
  return {
    name: opened.name,
    mode: opened.mode,
    records: count,
    mapping: next.value.mapping,
    ...(pause ? { pause } : {}),
  };
}

async function* remembering(
  batches: AsyncIterable<readonly RawRecord[]>,
  current: { batch: readonly RawRecord[] },
): AsyncGenerator<readonly RawRecord[]> {
  for await (const batch of batches) {
    current.batch = batch;
    yield batch;
  }
}

/** The key an item carries (trimmed), whatever it became; undefined when it has none. */
export function keyOfItem(item: FeedItem): string | undefined {
  const key = item.kind === 'listing' ? item.ref.key : item.kind === 'remove' ? item.key : item.rejection.key;
  const trimmed = key?.trim();
  return trimmed ? trimmed : undefined;
}
