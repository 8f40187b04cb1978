import { missingPresetFields, PRESET_RECORD_PATHS } from '../normalize/index.ts';
import type { FeedState } from '../state/index.ts';
import { FeedError } from './feed-error.ts';
import { peekOpenImmoScope } from './formats/openimmo-scope.ts';
import { readBlm } from './formats/read-blm.ts';
import { readCsv } from './formats/read-csv.ts';
import { readXml } from './formats/read-xml.ts';
import { openResoApi } from './formats/reso/read-reso-api.ts';
import { readResoFile } from './formats/reso/read-reso-file.ts';
import type { FeedSpec, IngestDeps, OpenedFeed, RawRecord } from './source-types.ts';
import { startDeadline } from './transports/bounds.ts';
import { openSource, sourceName } from './transports/open-source.ts';

/**
 * Open a feed by its transport and format. Fails early (before any record) when it cannot be
 * fetched. A `url:` feed runs under its whole-download deadline (`source.deadlineMs`), to the last record.
 */
export async function openFeed(feed: FeedSpec, deps: IngestDeps): Promise<OpenedFeed> {
  const { source } = feed;
  if (!source.url) return openFeedWith(feed, deps);
  const deadline = startDeadline(feed.id, source.url, source.deadlineMs, deps.signal);
  let opened: OpenedFeed;
  try {
    opened = await openFeedWith(feed, { ...deps, signal: deadline.signal });
  } catch (error) {
    throw deadline.failure(error);
  }
  return { ...opened, records: deadline.guard(opened.records) };
}

const UNFRAMED_NOTE =
  'read to the connection’s close: the server sent neither a Content-Length nor chunks, so a body cut at a row’s end cannot be told from the whole feed (deletes of more than 5% of the listings, and more than 2, wait for --allow-mass-delete)';

async function openFeedWith(feed: FeedSpec, deps: IngestDeps): Promise<OpenedFeed> {
  const { source } = feed;
  const name = sourceName(source, feed.id);
  const missing = missingPresetFields(feed.mapping);
  if (missing) throw new FeedError('E_FEED_CONFIG', feed.id, missing);
  if (source.format === 'reso' && source.url) return openResoApi(feed, deps, name);
  const opened = await openSource({
    feedId: feed.id,
    source,
    state: deps.state,
    ...(deps.forceFull ? { forceFull: true } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  const state: Partial<FeedState> = {
    etag: opened.validators.etag,
    lastModified: opened.validators.lastModified,
  };
  if (opened.notModified)
    return {
      notModified: true,
      mode: 'full',
      name,
      records: empty(),
      state: {},
      notModifiedBy: opened.validators,
    };
  // An OpenImmo file may carry only the objects that changed: then absent listings must stay.
  const { mode, text } =
    source.format === 'xml' && feed.mapping.preset === 'openimmo'
      ? await peekOpenImmoScope(opened.text)
      : { mode: 'full' as const, text: opened.text };
  let header: readonly string[] | undefined;
  const records = recordsOf(feed, text, (names) => {
    header = names;
  });
  return {
    notModified: false,
    mode,
    name,
    records,
    state,
    linesAs1252: opened.linesAs1252,
    ...(opened.digest ? { digest: opened.digest } : {}),
    ...(source.format === 'csv' ? { columns: () => header } : {}),
    // A CSV has no end of its own (XML its root's close tag, BLM its #END#): read to a connection's
    // close, nothing tells a cut at a row's end from the whole file.
    ...(opened.unframed && source.format === 'csv'
      ? { end: () => ({ unframed: true, note: UNFRAMED_NOTE }) }
      : {}),
  };
}

function recordsOf(
  feed: FeedSpec,
  text: AsyncIterable<string>,
  onHeader: (names: readonly string[]) => void,
): AsyncIterable<RawRecord[]> {
  const { source } = feed;
  switch (source.format) {
    case 'csv':
      return readCsv(feed.id, text, { ...(source.csv ?? { skipRows: 0, quote: '"' }), onHeader });
    case 'xml': {
      const preset = feed.mapping.preset;
      const recordPath = source.xml?.recordPath ?? (preset ? PRESET_RECORD_PATHS[preset] : undefined);
      if (!recordPath)
        throw new FeedError(
          'E_FEED_CONFIG',
          feed.id,
          'an XML source needs xml.recordPath (e.g. Listings.Listing)',
        );
      return readXml(feed.id, text, { maxRecordBytes: 8 * 1024 * 1024, ...source.xml, recordPath });
    }
    case 'reso':
      return readResoFile(feed.id, text);
    case 'blm':
      return readBlm(feed.id, text, source.blm);
  }
}

async function* empty(): AsyncGenerator<RawRecord[]> {}
