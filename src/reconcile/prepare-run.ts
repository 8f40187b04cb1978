import type { PlatformClient } from '../api/index.ts';
import { isFeedSyncError } from '../errors.ts';
import { collectFeed } from '../ingest/index.ts';
import type { Listing } from '../normalize/index.ts';
import type { IngestDeps } from '../sources/index.ts';
import type { FeedState } from '../state/index.ts';
import { type DesiredListing, type DesiredSet, desiredListings, desiredOf, withBriefs } from './desired.ts';
import { DesiredIndex } from './desired-index.ts';
import { SOURCE_FAILED } from './guards.ts';
import type { IngestResult } from './ingest-contract.ts';
import { DEFAULT_HASH_KEY, type TagKeys } from './ownership.ts';
import { keyOf, makePlan } from './plan.ts';
import type { PlanPolicy } from './plan-types.ts';
import { memoryRecords, type RecordStore, spillRecords } from './record-store.ts';
import { remoteEntries, type SoldRecords } from './remote-entries.ts';
import { REJECTIONS_KEPT } from './report-types.ts';
import type { RunConfig, RunFeedSpec } from './run-config.ts';
import type { IngestSummary, PreparedRun, SyncDeps, SyncOptions } from './run-types.ts';
import { readSnapshot } from './snapshot.ts';

const HOUR_MS = 3_600_000;

/** The policy of the pure plan for one feed. */
export function policyOf(
  config: RunConfig,
  feed: RunFeedSpec,
  ingest: Pick<
    IngestResult<unknown>,
    'mode' | 'removals' | 'held' | 'rejectedWithoutKey' | 'stats' | 'brokenRows' | 'brokenRowsOmitted'
  >,
  options: SyncOptions = {},
  clock: { now: Date; goneSince?: Readonly<Record<string, string>> } = { now: new Date(0) },
): PlanPolicy {
  return {
    feedId: feed.id,
    chatbot: feed.chatbot,
    keyField: feed.key,
    ownerKey: config.ownerKey,
    hashKey: DEFAULT_HASH_KEY,
    ownership: feed.ownership,
    adopt: feed.adopt,
    maxDeleteShare: feed.maxDeleteShare,
    allowMassDelete: options.allowMassDelete ?? false,
    mode: ingest.mode,
    removals: ingest.removals,
    held: ingest.held,
    unkeyedRejections: ingest.rejectedWithoutKey,
    records: ingest.stats.records,
    ...(ingest.brokenRows ? { brokenRows: ingest.brokenRows } : {}),
    ...(ingest.brokenRowsOmitted ? { brokenRowsOmitted: ingest.brokenRowsOmitted } : {}),
    gone: feed.gone,
    goneSince: clock.goneSince ?? {},
    now: clock.now.getTime(),
  };
}

/**
 * Whether this run may skip a feed that has not changed (304, same file). Only a scheduled run,
 * and only while the last compare with the platform is younger than `fullCompareEveryHours`: an
 * unchanged feed says nothing about listings edited or deleted on the platform behind our back.
 */
export function maySkipUnchanged(
  feed: RunFeedSpec,
  state: FeedState,
  now: Date,
  options: SyncOptions,
): boolean {
  if ((options.trigger ?? 'manual') !== 'schedule') return false;
  // A listing whose grace is over is deleted by the first run after it, changed feed or not.
  if (graceDue(feed.gone, state.goneSince, now)) return false;
  const last = state.lastCompareAt ? Date.parse(state.lastCompareAt) : Number.NaN;
  return Number.isFinite(last) && now.getTime() - last < feed.fullCompareEveryHours * HOUR_MS;
}

/** Whether a listing on the grace clock is due: its `afterDays` are over (or its delete is waiting). */
function graceDue(gone: RunFeedSpec['gone'], since: FeedState['goneSince'], now: Date): boolean {
  const days = gone?.afterDays ?? 0;
  for (const at of Object.values(since ?? {}))
    if (Date.parse(at) + days * 86_400_000 <= now.getTime()) return true;
  return false;
}

/**
 * Everything a run learns before it writes: the feed (ingest), the chatbot's listings (snapshot) and
 * the plan. Reads only. A failed source or snapshot is a `failed` value naming the stage, a stop
 * signal a `cancelled` one; programming and config errors throw.
 *
 * Memory stays flat with the feed (issue 13): each side keeps a digest per listing, not the listing.
 * The feed's records are spilled to a temporary file as they are read (`spillRecords`) and read
 * back one at a time for the writes; a planned run hands its `records` to the caller, which closes
 * them once it has applied the plan.
 */
export async function prepareRun(
  config: RunConfig,
  feed: RunFeedSpec,
  client: PlatformClient,
  deps: SyncDeps,
  options: SyncOptions = {},
): Promise<PreparedRun> {
  const records = deps.ingest ? memoryRecords() : spillRecords();
  // Made here, not in `prepare`: the closures a planned run hands on keep alive only the records,
  // not what `prepare`'s closures hold (the feed's index, while 300k creates are applied).
  const kept: KeptRecords = { set: { load: (d) => records.get(d.ref) }, close: () => records.close() };
  try {
    const prepared = await prepare(config, feed, client, deps, options, records, kept);
    if (prepared.kind !== 'planned') records.close();
    return prepared;
  } catch (error) {
    records.close();
    throw error;
  }
}

async function prepare(
  config: RunConfig,
  feed: RunFeedSpec,
  client: PlatformClient,
  deps: SyncDeps,
  options: SyncOptions,
  records: RecordStore,
  kept: KeptRecords,
): Promise<PreparedRun> {
  const now = deps.now ?? (() => new Date());
  // The run's instant, for the grace of listings gone from the feed: one clock reading per run.
  const runAt = now();
  const progress = (
    phase: 'fetching' | 'normalizing' | 'snapshot' | 'planning',
    percent: number,
    detail?: string,
  ) => deps.onEvent?.({ type: 'progress', phase, percent, ...(detail ? { detail } : {}) });
  const tags: TagKeys = { ownerKey: config.ownerKey, hashKey: DEFAULT_HASH_KEY };
  const keyFor = (listing: Listing) => keyOf(listing, feed.key) ?? '';

  progress('fetching', 0);
  // The production ingest digests and spills each listing as it is read. Listings a test or the
  // bench hands over are digested below, while the snapshot's pages are on the wire.
  // The feed's mask and digest per record; indexed by key once the feed is read.
  const desired = new DesiredIndex();
  let ingest: IngestResult<number> | IngestResult<Listing>;
  let goneSince: FeedState['goneSince'];
  try {
    const state = await deps.state.getFeed(feed.id);
    goneSince = state.goneSince;
    const { etag: _e, lastModified: _l, ...withoutValidators } = state;
    const ingestDeps: IngestDeps = {
      state: maySkipUnchanged(feed, state, now(), options) ? state : withoutValidators,
      ...(deps.logger ? { logger: deps.logger } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(options.forceFull === undefined ? {} : { forceFull: options.forceFull }),
      now,
    };
    ingest = deps.ingest
      ? await deps.ingest(feed, ingestDeps)
      : await collectFeed(feed, ingestDeps, (listing) =>
          desired.add(desiredOf(listing, keyFor(listing), feed.id, tags, records)),
        );
  } catch (error) {
    if (deps.signal?.aborted) return { kind: 'cancelled', reason: 'cancelled while reading the feed' };
    if (!isFeedSyncError(error)) throw error;
    return { kind: 'failed', reason: `feed: ${error.message}`, error, guards: [{ ...SOURCE_FAILED }] };
  }
  const summary = summaryOf(ingest);
  progress('normalizing', 20, `${ingest.listings.length} listings, ${ingest.rejections.length} rejected`);
  if (ingest.notModified)
    return { kind: 'skipped', ingest: summary, reason: 'the feed has not changed since the last run' };

  progress('snapshot', 25);
  try {
    const given = ingest;
    // The feed's listings by key, last record winning; pages are kept only once it is complete.
    const ready: Promise<unknown> = deps.ingest
      ? desiredListings(given.listings as Listing[], keyFor, feed.id, tags, records, deps.signal).then(
          (listings: DesiredListing[]) => desired.keep(listings.map((d) => desired.add(d))),
        )
      : Promise.resolve(desired.keep(given.listings as number[]));
    // Awaited below; a failure meanwhile must not count as unhandled while the pages are read.
    ready.catch(() => {});
    const { set } = kept;
    const snapshot = await readSnapshot(
      client,
      {
        chatbot: feed.chatbot,
        pageSize: config.api.pageSize,
        concurrency: config.api.concurrency,
        ready,
        ...(deps.signal ? { signal: deps.signal } : {}),
      },
      remoteEntries(feed.key, tags, desired, set, soldRecords(feed, records, given, goneSince)),
    );
    await ready;
    progress('planning', 35);
    const policy = policyOf(config, feed, ingest, options, {
      now: runAt,
      ...(goneSince ? { goneSince } : {}),
    });
    const plan = withBriefs(makePlan(desired, snapshot.listings, policy), set, options.briefs);
    deps.onEvent?.({ type: 'plan', plan, records: set });
    const { drift, pages, pageSize, requestedPageSize } = snapshot;
    const remoteCount = snapshot.listings.length;
    return {
      kind: 'planned',
      ingest: summary,
      snapshot: { remoteCount, pages, pageSize, requestedPageSize, drift },
      plan,
      records: set,
      close: kept.close,
    };
  } catch (error) {
    if (deps.signal?.aborted)
      return { kind: 'cancelled', ingest: summary, reason: 'cancelled while reading the listings' };
    if (!isFeedSyncError(error)) throw error;
    return { kind: 'failed', ingest: summary, reason: `snapshot: ${error.message}`, error, guards: [] };
  }
}

/** Under `gone.action: markSold`, where the records that mark listings Sold go: the run's own store. */
function soldRecords(
  feed: RunFeedSpec,
  records: RecordStore,
  ingest: Pick<IngestResult<unknown>, 'mode' | 'removals'>,
  goneSince: Readonly<Record<string, string>> = {},
): SoldRecords | undefined {
  if (feed.gone.action !== 'markSold') return undefined;
  const named = new Set([...ingest.removals, ...Object.keys(goneSince)]);
  return {
    isMine: (owner) => owner === feed.id || (feed.ownership === 'all' && owner === undefined),
    mayLeave: (key) => ingest.mode === 'full' || (key !== undefined && named.has(key)),
    put: (listing) => records.put({ ...listing, Status: 'Sold' } as Listing),
  };
}

/** What a planned run hands on: its records, and how to free them. */
interface KeptRecords {
  set: DesiredSet;
  close: () => void;
}

function summaryOf(ingest: IngestResult<unknown>): IngestSummary {
  return {
    mode: ingest.mode,
    read: ingest.stats.records,
    rejected: ingest.rejections.length,
    rejections: ingest.rejections.slice(0, REJECTIONS_KEPT),
    rejectedWithoutKey: ingest.rejectedWithoutKey,
    decodedAs1252: ingest.decodedAs1252 ?? [],
    unknownMarkers: ingest.unknownMarkers ?? {},
    droppedImages: ingest.droppedImages?.count ?? 0,
    ...(ingest.hints ? { hints: ingest.hints } : {}),
    sourceState: ingest.sourceState,
  };
}
