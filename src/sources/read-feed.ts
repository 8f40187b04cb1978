import type { FeedConfig } from '../config/schema.ts';
import { type CompiledMapping, compileMapping } from '../normalize/compile-mapping.ts';
import { inferCsvMapping } from '../normalize/infer-csv-mapping.ts';
import { withPresetHooks } from '../normalize/presets/preset-hooks.ts';
import { mergeMappings } from '../normalize/resolve-mapping.ts';
import { acceptListing, validateListing } from '../normalize/validate-listing.ts';
import { FeedError, isFeedError } from './feed-error.ts';
import { openFeed } from './open-feed.ts';
import type { FeedItem, FeedSession, IngestDeps, RawRecord, RecordRef } from './types.ts';

/** Opened feed plus the mapping in use, known once the first record (the CSV header) is read. */
export interface FeedRun {
  session: FeedSession;
  mapping?: CompiledMapping;
}

/**
 * Every record of a feed as a listing, a removal or a rejection, in feed order. Yields nothing when
 * the feed has not changed (304). Throws FeedError when the feed cannot be fetched or parsed.
 */
export async function* readFeed(feed: FeedConfig, deps: IngestDeps): AsyncGenerator<FeedItem> {
  const session = await openFeed(feed, deps);
  yield* itemsOf(feed, { session }, deps);
}

export async function* itemsOf(feed: FeedConfig, run: FeedRun, deps: IngestDeps): AsyncGenerator<FeedItem> {
  const itemOf = itemMaker(feed, run, deps);
  try {
    for await (const record of run.session.records) {
      deps.signal?.throwIfAborted();
      yield itemOf(record);
    }
  } catch (error) {
    throw readFailure(feed, error);
  }
}

/** Record → item, synchronously; the mapping is decided by the first record (a CSV header). */
export function itemMaker(feed: FeedConfig, run: FeedRun, deps: IngestDeps): (record: RawRecord) => FeedItem {
  return (record) => {
    run.mapping ??= mappingFor(feed, record, deps);
    if (record.problem) return problemItem(feed, run.session.name, run.mapping, record, record.problem);
    return toItem(feed, run.session.name, run.mapping, record);
  };
}

/** A failure while reading records, as the FeedError the run fails with. */
export function readFailure(feed: FeedConfig, error: unknown): Error {
  if (isFeedError(error) || (error as Error).name === 'AbortError') return error as Error;
  return new FeedError('E_FEED_PARSE', feed.id, `reading the feed failed: ${(error as Error).message}`, {
    cause: error,
  });
}

/**
 * The configured mapping. A CSV feed with neither preset nor fields, or with `preset: mls-csv`, gets
 * one inferred from its header, with the feed's own fields merged over it.
 */
export function mappingFor(
  feed: FeedConfig,
  first: RawRecord | undefined,
  deps: IngestDeps,
): CompiledMapping {
  const { mapping } = feed;
  // The run's clock, read once here at the edge, for `daysSince` rules.
  const options = { now: deps.now?.() ?? new Date() };
  const hasRules = mapping.preset !== undefined || Object.keys(mapping.fields ?? {}).length > 0;
  const infer = mapping.preset === 'mls-csv' || !hasRules;
  if (feed.source.format === 'csv' && infer && first) {
    return compileMapping(mergeMappings(inferCsvMapping(Object.keys(first.fields)), mapping), options);
  }
  return withPresetHooks(compileMapping(mapping, options), mapping, {
    mediaBaseUrl: feed.source.mediaBaseUrl,
  });
}

/**
 * A record its format already says is broken (a BLM row with the wrong field count): rejected by
 * row, with its key when the fields it still has give one, so that its listing is held.
 */
function problemItem(
  feed: FeedConfig,
  name: string,
  mapping: CompiledMapping,
  record: RawRecord,
  problem: NonNullable<RawRecord['problem']>,
): FeedItem {
  const ref: RecordRef = { feedId: feed.id, index: record.index };
  if (record.row !== undefined) ref.row = record.row;
  const key = mapping.map(record.fields).listing[feed.key];
  if (typeof key === 'string' && key !== '') ref.key = key;
  const where =
    record.row !== undefined ? `Row ${record.row} of ${name}` : `Record ${record.index + 1} of ${name}`;
  return {
    kind: 'rejected',
    rejection: { ...ref, reason: problem.reason, message: `${where}: ${problem.message}` },
  };
}

function toItem(feed: FeedConfig, name: string, mapping: CompiledMapping, record: RawRecord): FeedItem {
  const mapped = mapping.map(record.fields);
  const keyValue = mapped.listing[feed.key];
  const key = typeof keyValue === 'string' && keyValue !== '' ? keyValue : undefined;
  const ref: RecordRef = { feedId: feed.id, index: record.index };
  if (record.row !== undefined) ref.row = record.row;
  if (key !== undefined) ref.key = key;
  const where =
    record.row !== undefined ? `Row ${record.row} of ${name}` : `Record ${record.index + 1} of ${name}`;
  if (mapped.remove) {
    if (key !== undefined) return { kind: 'remove', key, ref };
    const message = `${where}: the status says "remove" but ${feed.key} is missing`;
    return { kind: 'rejected', rejection: { ...ref, field: feed.key, reason: 'missing', message } };
  }
  const listing = acceptListing(mapped);
  if (listing !== undefined) return { kind: 'listing', listing, ref };
  // Rejected (or left to zod): map again keeping the raw values, to say which value and why.
  const result = validateListing(mapping.map(record.fields, true));
  if (result.ok) return { kind: 'listing', listing: result.listing, ref };
  const first = result.problems[0]!;
  const label = key !== undefined && record.row === undefined ? `${where} (${feed.key} ${key})` : where;
  const rejection = {
    ...ref,
    field: first.field,
    reason: first.reason,
    message: `${label}: ${first.message}`,
  };
  return {
    kind: 'rejected',
    rejection: first.value === undefined ? rejection : { ...rejection, value: first.value },
  };
}
