import type { PlatformClient } from '../api/client.ts';
import type { Config, FeedConfig } from '../config/schema.ts';
import { isFeedSyncError } from '../errors.ts';
import type { FeedState } from '../state/state-store.ts';
import { defaultIngest } from './default-ingest.ts';
import { SOURCE_FAILED } from './guards.ts';
import type { IngestResult } from './ingest-contract.ts';
import { DEFAULT_HASH_KEY } from './ownership.ts';
import { makePlan } from './plan.ts';
import type { PlanPolicy } from './plan-types.ts';
import { REJECTIONS_KEPT } from './report-types.ts';
import type { IngestSummary, PreparedRun, SyncDeps, SyncOptions } from './run-types.ts';
import { readSnapshot } from './snapshot.ts';
import { tagListings } from './tag-listings.ts';

const HOUR_MS = 3_600_000;

/** The policy of the pure plan for one feed. */
export function policyOf(
  config: Config,
  feed: FeedConfig,
  ingest: Pick<IngestResult, 'mode' | 'removals' | 'held' | 'rejectedWithoutKey'>,
  options: SyncOptions = {},
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
  };
}

/**
 * Whether this run may skip a feed that has not changed (304, same file). Only a scheduled run,
 * and only while the last compare with the platform is younger than `fullCompareEveryHours`: an
 * unchanged feed says nothing about listings edited or deleted on the platform behind our back.
 */
export function maySkipUnchanged(
  feed: FeedConfig,
  state: FeedState,
  now: Date,
  options: SyncOptions,
): boolean {
  if ((options.trigger ?? 'manual') !== 'schedule') return false;
  const last = state.lastCompareAt ? Date.parse(state.lastCompareAt) : Number.NaN;
  return Number.isFinite(last) && now.getTime() - last < feed.fullCompareEveryHours * HOUR_MS;
}

/**
 * Everything a run learns before it writes: the feed (ingest), the chatbot's listings (snapshot) and
 * the plan. Reads only. A failed source or snapshot is a `failed` value naming the stage, a stop
 * signal a `cancelled` one; programming and config errors throw.
 */
export async function prepareRun(
  config: Config,
  feed: FeedConfig,
  client: PlatformClient,
  deps: SyncDeps,
  options: SyncOptions = {},
): Promise<PreparedRun> {
  const now = deps.now ?? (() => new Date());
  const progress = (
    phase: 'fetching' | 'normalizing' | 'snapshot' | 'planning',
    percent: number,
    detail?: string,
  ) => deps.onEvent?.({ type: 'progress', phase, percent, ...(detail ? { detail } : {}) });

  progress('fetching', 0);
  let ingest: IngestResult;
  try {
    const state = await deps.state.getFeed(feed.id);
    const { etag: _e, lastModified: _l, ...withoutValidators } = state;
    ingest = await (deps.ingest ?? defaultIngest)(feed, {
      state: maySkipUnchanged(feed, state, now(), options) ? state : withoutValidators,
      logger: deps.logger,
      signal: deps.signal,
      forceFull: options.forceFull,
      now,
    });
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
    const reading = readSnapshot(client, {
      chatbot: feed.chatbot,
      pageSize: config.api.pageSize,
      concurrency: config.api.concurrency,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    // Awaited just below; a failure meanwhile must not count as unhandled while the tagging runs.
    reading.catch(() => {});
    // The feed's listings are tagged (hashed) while the pages are on the wire; the plan reuses them.
    const policy = policyOf(config, feed, ingest, options);
    const keys = { ownerKey: policy.ownerKey, hashKey: policy.hashKey ?? DEFAULT_HASH_KEY };
    const desired = await tagListings(ingest.listings, feed.id, keys, deps.signal);
    const snapshot = await reading;
    progress('planning', 35);
    const plan = makePlan(desired, snapshot.listings, policy);
    deps.onEvent?.({ type: 'plan', plan });
    const { drift, pages, pageSize, requestedPageSize } = snapshot;
    const remoteCount = snapshot.listings.length;
    return {
      kind: 'planned',
      ingest: summary,
      snapshot: { remoteCount, pages, pageSize, requestedPageSize, drift },
      plan,
    };
  } catch (error) {
    if (deps.signal?.aborted)
      return { kind: 'cancelled', ingest: summary, reason: 'cancelled while reading the listings' };
    if (!isFeedSyncError(error)) throw error;
    return { kind: 'failed', ingest: summary, reason: `snapshot: ${error.message}`, error, guards: [] };
  }
}

function summaryOf(ingest: IngestResult): IngestSummary {
  return {
    mode: ingest.mode,
    read: ingest.stats.records,
    rejected: ingest.rejections.length,
    rejections: ingest.rejections.slice(0, REJECTIONS_KEPT),
    rejectedWithoutKey: ingest.rejectedWithoutKey,
    decodedAs1252: ingest.decodedAs1252 ?? [],
    unknownMarkers: ingest.unknownMarkers ?? {},
    droppedImages: ingest.droppedImages?.count ?? 0,
    sourceState: ingest.sourceState,
  };
}
