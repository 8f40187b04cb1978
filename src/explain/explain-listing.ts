import type { PlatformClient, RemoteListing } from '../api/index.ts';
import type { Config, FeedConfig } from '../config/index.ts';
import { isFeedSyncError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { CompiledMapping } from '../normalize/index.ts';
import {
  createdUnsetKeys,
  DEFAULT_HASH_KEY,
  type FeedSide,
  GEOCODED_FIELDS,
  type KeyPolicy,
  mappedPricesMask,
  maskOfFields,
  planKey,
  policyOf,
  type RunReport,
  type TagKeys,
  withTags,
} from '../reconcile/index.ts';
import type { StateStore } from '../state/index.ts';
import { classifyKey } from './classify.ts';
import { type FoundRecord, type FoundRecords, findRecords } from './find-record.ts';
import { historyOf } from './history.ts';
import { keptAsFeeds, keptOnPlatform } from './listing-fields.ts';
import { lookupRemote } from './lookup-remote.ts';
import { traceFields } from './trace-fields.ts';
import type { Classification, Explanation, ListingPart, PlatformPart, SourcePart } from './types.ts';
import { verdictOf } from './verdict.ts';

/** The I/O `explainListing` reads through: the platform, the feed's state and run history, the clock. */
export interface ExplainDeps {
  client: PlatformClient;
  /**
   * The feed's state (its grace clock) and run history, newest first. Only read; a RESO provider's
   * requests count against its key's budget there (`budgets`), as a run's do.
   */
  state: Pick<StateStore, 'getFeed' | 'listRuns' | 'budgets'>;
  /** Where the state is kept, in words: `the state file .feed-sync-state.json`. */
  historyFrom: string;
  now?: () => Date;
  signal?: AbortSignal;
  logger?: Logger;
}

/**
 * One listing of a feed, end to end (issue 22): the feed read in full (as a run reads it), the
 * platform's listings with the key read live (one or two list calls), the plan of the key, and the
 * runs that touched it. Never writes. A feed or platform that cannot be read is said in its part;
 * only programming errors throw.
 */
export async function explainListing(
  config: Config,
  feed: FeedConfig,
  rawKey: string,
  deps: ExplainDeps,
): Promise<Explanation> {
  const key = rawKey.trim();
  const now = deps.now?.() ?? new Date();
  const tags: TagKeys = { ownerKey: config.ownerKey, hashKey: DEFAULT_HASH_KEY };
  const read = await readFeedFor(feed, key, deps, now);
  const last = 'matches' in read ? read.matches.at(-1) : undefined;
  const source = sourcePart(read, last);
  const listing =
    last && 'mapping' in read && read.mapping ? listingPart(feed, read.mapping, last, tags, now) : undefined;
  const { part: platform, remote } = await readPlatform(config, feed, key, listing, tags, deps);
  const mode = 'mode' in read ? read.mode : 'full';
  const side = feedSide(last, listing, key);
  const state = await deps.state.getFeed(feed.id);
  const since = state.goneSince?.[key];
  const policy = {
    ...planPolicy(config, feed, mode, now),
    goneSince: since === undefined ? {} : { [key]: since },
    // A listing the platform fills again after a replace is not replaced again, as a run decides.
    ...(state.cleared?.[key] ? { clearedBefore: { [key]: state.cleared[key] } } : {}),
    ...(createdUnsetKeys(state.createdUnset)?.includes(key) ? { createdUnset: [key] } : {}),
    ...('brokenRows' in read && read.brokenRows.length > 0 ? { brokenRows: read.brokenRows } : {}),
    // The plan sees one key: the fields a value is cleared in are the whole feed's.
    ...('fieldsSet' in read ? { fieldsSet: read.fieldsSet | mappedPricesMask(read.mapping?.mapping) } : {}),
  };
  const classification =
    platform.lookedUp && !('error' in read)
      ? classifyKey(planKey(key, side, remote, policy), key, remote)
      : [];
  const runs = (await deps.state.listRuns(feed.id)) as RunReport[];
  const verdict = verdictOf(classification, {
    feedId: feed.id,
    mode,
    graceDays: feed.gone.afterDays,
    feedIds: config.feeds.map((f) => f.id),
    feedHasIt: last !== undefined,
    kept: keptByListing(classification, platform, listing),
    keptWhy: (fields) =>
      keptReasons(fields, {
        keep: feed.unsetFields === 'keep',
        filled: [...(policy.clearedBefore?.[key] ?? []), ...(policy.createdUnset ? GEOCODED_FIELDS : [])],
        ...(policy.fieldsSet === undefined ? {} : { fieldsSet: policy.fieldsSet }),
      }),
    // The last run that compared (a skipped or failed run has no guards of its own).
    replacesHeld: runs
      .find((r) => r.snapshot !== undefined)
      ?.guards?.some((g) => g.guard === 'mass-replace' && g.tripped),
    ...feedUnknownOf(read),
    ...(!platform.lookedUp ? { platformUnknown: `the platform was not read: ${platform.reason}` } : {}),
  });
  return {
    feedId: feed.id,
    chatbot: feed.chatbot,
    key,
    keyField: feed.key,
    source,
    ...(listing ? { listing } : {}),
    platform,
    verdict,
    history: { from: deps.historyFrom, runs: runs.length, entries: historyOf(runs, key) },
  };
}

/**
 * Why a sync keeps each of `fields` the feed leaves unset, grouped (a tester read three reasons
 * joined by "or" where one applied): the feed's `unsetFields: keep`, the platform's own value
 * (`platform-fills`: a replace's or a create's note), or a field no listing of the feed sets.
 * Undefined where a field has none of these (the sentence then names each that may apply).
 */
export function keptReasons(
  fields: readonly string[],
  why: { keep: boolean; filled: readonly string[]; fieldsSet?: number },
): string | undefined {
  if (why.keep) return "the feed's unsetFields is keep";
  const filled: string[] = [];
  const setOnNone: string[] = [];
  for (const field of fields) {
    if (why.filled.includes(field)) filled.push(field);
    else if (why.fieldsSet !== undefined && (why.fieldsSet & maskOfFields([field])) === 0)
      setOnNone.push(field);
    else return undefined;
  }
  // One reason: said of "it" or "them"; two: each of its fields.
  const name = (group: string[]) =>
    filled.length > 0 && setOnNone.length > 0 ? group.join(', ') : group.length === 1 ? 'it' : 'them';
  return [
    ...(setOnNone.length > 0 ? [`the feed sets ${name(setOnNone)} on none of its listings`] : []),
    ...(filled.length > 0
      ? [`the platform filled ${name(filled)} after a replace or a create (platform-fills)`]
      : []),
  ].join('; ');
}

/**
 * For each listing a sync updates or finds in sync (the feed's own), the fields it keeps that the
 * feed leaves unset (`keptOnPlatform`); none for a duplicate to delete or another owner's listing.
 */
function keptByListing(
  classification: readonly Classification[],
  platform: PlatformPart,
  listing: ListingPart | undefined,
): Map<number, string[]> {
  const kept = new Map<number, string[]>();
  if (!platform.lookedUp) return kept;
  for (const record of platform.records) {
    if (!keptAsFeeds(classification, record.id)) continue;
    const fields = keptOnPlatform(listing, record, classification);
    if (fields.length > 0) kept.set(record.id, fields);
  }
  return kept;
}

/**
 * Said where the key's own filter and a first unfiltered read found nothing on a chatbot larger than
 * that read: the verdict stands (a sync would create it), with the one case it cannot rule out.
 */
export const INCOMPLETE =
  'a listing whose key differs only by spaces (which the list’s filter, by the exact text, does not find) would not be seen here; `feed-sync plan` reads every page';

/**
 * The feed has no record with the key (it was read) and the platform none either, or, for a feed
 * keyed by Url, the platform cannot be asked without its feed record (the list has no Url filter).
 * A key a broken record's text holds is not unknown: that record holds its listing.
 */
export function isUnknownKey(explanation: Explanation): boolean {
  const { source, platform } = explanation;
  if (source.found || source.error !== undefined || source.mentions.length > 0) return false;
  return platform.lookedUp ? platform.records.length === 0 : platform.error !== true;
}

/**
 * Why the feed's side is not known: it could not be read, its provider's budget stopped the read
 * (some records or none: a key missing from them is not gone), or it has no records (a sync of it
 * fails and deletes nothing). A tester read "gone from the feed: a sync would delete" for both.
 */
function feedUnknownOf(read: FoundRecords | { error: string }): { feedUnknown?: string } {
  if ('error' in read) return { feedUnknown: `the feed could not be read (${read.error})` };
  if (read.pause)
    return {
      feedUnknown: `the feed was not read whole: ${read.pause.reason} (the provider's request budget; a sync goes on once it resumes)`,
    };
  if (read.records === 0)
    return { feedUnknown: 'the feed has no records (a sync of it fails and deletes nothing)' };
  return {};
}

async function readFeedFor(
  feed: FeedConfig,
  key: string,
  deps: ExplainDeps,
  now: Date,
): Promise<FoundRecords | { error: string }> {
  try {
    return await findRecords(feed, key, {
      now: () => now,
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(deps.logger ? { logger: deps.logger } : {}),
      ...(deps.state.budgets ? { budget: deps.state.budgets } : {}),
    });
  } catch (error) {
    if (!isFeedSyncError(error)) throw error;
    return { error: error.message };
  }
}

function sourcePart(read: FoundRecords | { error: string }, last: FoundRecord | undefined): SourcePart {
  if ('error' in read) return { found: false, records: 0, error: read.error, mentions: [] };
  if (!last) {
    const { name, records, mode, mentions, byMlsNumber } = read;
    return {
      found: false,
      name,
      records,
      mode,
      mentions,
      ...(byMlsNumber.length > 0 ? { byMlsNumber } : {}),
    };
  }
  return {
    found: true,
    name: read.name,
    place: last.place,
    kind: last.item.kind,
    fields: { ...last.record.fields },
    earlier: read.matches.slice(0, -1).map((m) => m.place),
    ...(read.earlierOmitted > 0 ? { earlierOmitted: read.earlierOmitted } : {}),
    records: read.records,
    mode: read.mode,
  };
}

function listingPart(
  feed: FeedConfig,
  compiled: CompiledMapping,
  found: FoundRecord,
  tags: TagKeys,
  now: Date,
): ListingPart {
  const { item, record } = found;
  if (item.kind === 'listing') {
    const sent = withTags(item.listing, feed.id, tags);
    const own = sent.ExtensionColumn?.filter((e) => e.Key !== tags.ownerKey && e.Key !== tags.hashKey);
    const values: Record<string, unknown> = { ...item.listing, ExtensionColumn: own };
    const unknown = [...(item.unknown ?? [])];
    return {
      status: 'valid',
      fields: traceFields({ feed, mapping: compiled.mapping, record: record.fields, values, unknown, now }),
      problems: [],
      unknown,
      tags: (sent.ExtensionColumn ?? []).filter((e) => e.Key === tags.ownerKey || e.Key === tags.hashKey),
    };
  }
  // A removal or a rejection: what the mapping made of the record, the values that could be read.
  const mapped = compiled.map(record.fields, true);
  const values = Object.fromEntries(Object.entries(mapped.listing).filter(([, v]) => v !== undefined));
  const unknown = [...(mapped.unknown ?? [])];
  const fields = traceFields({
    feed,
    mapping: compiled.mapping,
    record: record.fields,
    values,
    unknown,
    now,
  });
  if (item.kind === 'remove') return { status: 'remove', fields, problems: [], unknown, tags: [] };
  const { rejection } = item;
  const problems = rejection.problems ?? [
    { field: rejection.field ?? '(record)', reason: rejection.reason, message: rejection.message },
  ];
  return {
    status: 'rejected',
    fields,
    problems,
    ...(rejection.key !== undefined
      ? { hold: { reason: rejection.reason, message: rejection.message } }
      : {}),
    unknown,
    tags: [],
  };
}

function feedSide(last: FoundRecord | undefined, listing: ListingPart | undefined, key: string): FeedSide {
  if (!last) return { kind: 'absent' };
  const { item } = last;
  if (item.kind === 'listing') return { kind: 'listing', listing: item.listing };
  if (item.kind === 'remove') return { kind: 'remove' };
  const { rejection } = item;
  const hold = listing?.hold ?? { reason: rejection.reason, message: rejection.message };
  const row = rejection.row === undefined ? {} : { row: rejection.row };
  return { kind: 'held', held: { key, index: rejection.index, ...row, ...hold } };
}

async function readPlatform(
  config: Config,
  feed: FeedConfig,
  key: string,
  listing: ListingPart | undefined,
  tags: TagKeys,
  deps: ExplainDeps,
): Promise<{ part: PlatformPart; remote: RemoteListing[] }> {
  const value = (field: string) => {
    const v = listing?.fields.find((f) => f.field === field)?.value;
    return typeof v === 'string' ? v : undefined;
  };
  try {
    return await lookupRemote(deps.client, {
      chatbot: feed.chatbot,
      key,
      keyField: feed.key,
      pageSize: config.api.pageSize,
      tags,
      hints: { mlsNumber: value('MLSNumber'), city: value('City') },
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
  } catch (error) {
    if (!isFeedSyncError(error)) throw error;
    return { part: { lookedUp: false, reason: error.message, error: true }, remote: [] };
  }
}

/** The feed's plan policy, as a run makes it at `now`; the key's own holds and removals are `planKey`'s. */
function planPolicy(config: Config, feed: FeedConfig, mode: 'full' | 'incremental', now: Date): KeyPolicy {
  const ingest = {
    mode,
    removals: [],
    held: [],
    rejectedWithoutKey: 0,
    stats: { records: 1, valid: 1, rejected: 0, removed: 0, duplicates: 0 },
  };
  const {
    removals: _r,
    held: _h,
    allowMassDelete: _a,
    unkeyedRejections: _u,
    recordsRead: _n,
    ...policy
  } = policyOf(config, feed, ingest, {}, { now });
  return policy;
}
