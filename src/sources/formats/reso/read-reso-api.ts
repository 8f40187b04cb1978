import { createLocalLimiter } from '../../../http/index.ts';
import { parseTimestamp } from '../../../normalize/index.ts';
import type { FeedState } from '../../../state/index.ts';
import { FeedError, safeUrl } from '../../feed-error.ts';
import { type ResoOptions, resoOptionsSchema } from '../../source-schema.ts';
import type { FeedSpec, IngestDeps, OpenedFeed, RawRecord } from '../../source-types.ts';
import { createResoClient, type ResoClient } from './reso-client.ts';
import { firstPageUrl, mediaUrl, planResoRun, sameOrigin } from './reso-query.ts';

/** Keys per Media query: an `or` chain longer than this makes URLs some vendors refuse. */
const MEDIA_BATCH = 20;

/**
 * A RESO Web API feed: pages of `{endpoint}/Property` followed by `@odata.nextLink`, full or
 * incremental. The watermark (the newest ModificationTimestamp read, compared as instants) is the
 * state's `nextState`, a reducer over the records read.
 */
export async function openResoApi(feed: FeedSpec, deps: IngestDeps, name: string): Promise<OpenedFeed> {
  const { source } = feed;
  const endpoint = source.url!;
  const options: ResoOptions = source.reso ?? resoOptionsSchema.parse({});
  const now = deps.now?.() ?? new Date();
  const plan = planResoRun(options, deps.state, now, deps.forceFull ?? false, parseTimestamp);
  const limiter = createLocalLimiter({ concurrency: 1, requestsPerSecond: options.requestsPerSecond });
  const client = createResoClient(feed.id, source, limiter, {
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  const state: Partial<FeedState> = plan.mode === 'full' ? { lastFullRunAt: now.toISOString() } : {};
  // Fetch the first page now, so an unreachable endpoint fails before any record is read.
  const first = await client.getPage(firstPageUrl(endpoint, options, plan.since));
  const records = readPages(feed.id, endpoint, options, client, first);
  const nextState = (current: Partial<FeedState>, record: RawRecord) =>
    advanceWatermark(current, record, deps.state.resoWatermark);
  return { notModified: false, mode: plan.mode, name, records, state, nextState };
}

/** The state after one more record: the watermark moves to the record's ModificationTimestamp if newer. */
export function advanceWatermark(
  state: Partial<FeedState>,
  record: RawRecord,
  previous: string | undefined,
): Partial<FeedState> {
  const ms = parseTimestamp(record.fields.ModificationTimestamp);
  if (ms === undefined) return state;
  const current = parseTimestamp(state.resoWatermark ?? previous);
  return current === undefined || ms > current
    ? { ...state, resoWatermark: new Date(ms).toISOString() }
    : state;
}

async function* readPages(
  feedId: string,
  endpoint: string,
  options: ResoOptions,
  client: ResoClient,
  first: { value: Record<string, unknown>[]; nextLink?: string },
): AsyncGenerator<RawRecord[]> {
  let page = first;
  let index = 0;
  for (let pages = 1; ; pages++) {
    if (options.media === 'fetch') await attachMedia(endpoint, client, page.value);
    if (page.value.length > 0) yield page.value.map((fields) => ({ index: index++, fields }));
    if (!page.nextLink) return;
    if (!sameOrigin(page.nextLink, endpoint)) {
      throw new FeedError(
        'E_FEED_UNSAFE',
        feedId,
        `nextLink leaves the endpoint's host (${safeUrl(page.nextLink)}); refusing to send the token there`,
      );
    }
    if (pages >= options.maxPages)
      throw new FeedError('E_FEED_FETCH', feedId, `more than ${options.maxPages} pages (reso.maxPages)`);
    page = await client.getPage(page.nextLink);
  }
}

/** `media: fetch`: one Media query per batch of keys, attached as each record's `Media`, ordered by `Order`. */
async function attachMedia(
  endpoint: string,
  client: ResoClient,
  records: Record<string, unknown>[],
): Promise<void> {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const record of records)
    if (typeof record.ListingKey === 'string') byKey.set(record.ListingKey, record);
  const keys = [...byKey.keys()];
  for (let i = 0; i < keys.length; i += MEDIA_BATCH) {
    let url: string | undefined = mediaUrl(endpoint, keys.slice(i, i + MEDIA_BATCH));
    while (url) {
      const page = await client.getPage(url);
      for (const media of page.value) {
        const owner = byKey.get(String(media.ResourceRecordKey));
        if (!owner) continue;
        const list = Array.isArray(owner.Media) ? (owner.Media as unknown[]) : [];
        list.push(media);
        owner.Media = list;
      }
      url = page.nextLink && sameOrigin(page.nextLink, endpoint) ? page.nextLink : undefined;
    }
  }
}
