import type { PlatformClient } from '../api/index.ts';
import { isFeedSyncError } from '../errors.ts';
import { collectFeed, type IngestResult, type KnownItem } from '../ingest/index.ts';
import { feedField } from '../logger.ts';
import type { Listing } from '../normalize/index.ts';
import { int32s } from '../number-column.ts';
import type { IngestDeps } from '../sources/index.ts';
import type { FeedState } from '../state/index.ts';
import { CHANGES_KEPT } from './changes-of.ts';
import { decodePool } from './decode-pool.ts';
import {
  type DecodedSnapshot,
  type DecodedSnapshotOptions,
  startDecodedSnapshot,
} from './decoded-snapshot.ts';
import { BRIEFS_KEPT, type DesiredLoader, desiredOf, withBriefs } from './desired.ts';
import { DesiredIndex } from './desired-index.ts';
import { fieldsOfMask, MARKER_MASK, mappedPricesMask, maskOfFields, ownFields } from './digest.ts';
import { keepReading, ReadingNeedsRecords, reuseReading, urlReading } from './feed-reading.ts';
import { SOURCE_FAILED } from './guards.ts';
import { heldDeletesDigest } from './held-digest.ts';
import { DEFAULT_HASH_KEY, type TagKeys, withTags } from './ownership.ts';
import { PAGE_MEMO_BYTES_PER_LISTING, PAGE_MEMO_MAX_BYTES, PAGE_MEMO_REUSED_MAX_BYTES } from './page-memo.ts';
import { keyOf, makePlan } from './plan.ts';
import type { GuardDecision, Plan, PlanPolicy } from './plan-types.ts';
import { changesIn, type RecordStore, spillRecords } from './record-store.ts';
import { soldRecordsOf } from './remote-entries.ts';
import { changesAgainst, isUnread } from './remote-entry.ts';
import { REJECTIONS_KEPT } from './report-types.ts';
import type { RunConfig, RunFeedSpec } from './run-config.ts';
import { isMemoRecord, RunMemo } from './run-memo.ts';
import type {
  CaseTwins,
  IngestSummary,
  PreparedRun,
  SyncDeps,
  SyncOptions,
  UnknownOwner,
} from './run-types.ts';
import { goneUnasked, keysStillListed, withKeys } from './still-listed.ts';

const HOUR_MS = 3_600_000;

/** The policy of the pure plan for one feed. */
export function policyOf(
  config: RunConfig,
  feed: RunFeedSpec,
  ingest: Pick<
    IngestResult<unknown>,
    | 'mode'
    | 'removals'
    | 'held'
    | 'rejectedWithoutKey'
    | 'stats'
    | 'brokenRows'
    | 'brokenRowsOmitted'
    | 'present'
    | 'unframed'
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
    ...(feed.adoptFrom && feed.adoptFrom.length > 0 ? { adoptFrom: feed.adoptFrom } : {}),
    maxDeleteShare: feed.maxDeleteShare,
    allowMassDelete: options.allowMassDelete ?? false,
    ...(options.allowMassReplace ? { allowMassReplace: true } : {}),
    mode: ingest.mode,
    removals: ingest.removals,
    ...(ingest.present ? { present: ingest.present } : {}),
    held: ingest.held,
    unkeyedRejections: ingest.rejectedWithoutKey,
    recordsRead: ingest.stats.records,
    ...(ingest.brokenRows ? { brokenRows: ingest.brokenRows } : {}),
    ...(ingest.brokenRowsOmitted ? { brokenRowsOmitted: ingest.brokenRowsOmitted } : {}),
    ...(ingest.unframed ? { unframed: true } : {}),
    gone: feed.gone,
    ...(feed.unsetFields === 'keep' ? { unsetFields: 'keep' as const } : {}),
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
 * The feed's records are spilled to a temporary file (the run's `RecordStore`, `spillRecords`) as
 * they are read and read back one at a time for the writes; a planned run hands the caller their
 * `loader` and `close`, which it calls once it has applied the plan.
 */
export async function prepareRun(
  config: RunConfig,
  feed: RunFeedSpec,
  client: PlatformClient,
  deps: SyncDeps,
  options: SyncOptions = {},
): Promise<PreparedRun> {
  // A run with a record memo may reuse the last run's reading of an unchanged file (`feed-reading.ts`);
  // one whose plan then needs a record reads the feed after all.
  if (deps.memo && !deps.open) {
    try {
      return await prepareOnce(config, feed, client, deps, options, true);
    } catch (error) {
      if (!(error instanceof ReadingNeedsRecords)) throw error;
      const note = error.changed ? `the feed ${error.why}` : `the feed is unchanged, but ${error.why}`;
      deps.logger?.info(feedField(deps.logger, feed.id), note);
      // The terminal's progress says why it reads the feed again (a second `fetching … planning`).
      deps.onProgress?.({ phase: 'fetching', done: 0, total: 0, note });
    }
  }
  return prepareOnce(config, feed, client, deps, options, false);
}

/** An override given for other held deletes or replaces than this run's: they stay held. */
function mismatch(what: 'deletes' | 'replaces', given: number, now: number): GuardDecision {
  return {
    guard: 'override-mismatch',
    tripped: true,
    message: `the override was given for ${given} held ${what}, and this run holds ${now}, not the same listings (the feed changed since): none of them ${what === 'deletes' ? 'deleted' : 'replaced'}; review them and allow again`,
  };
}

async function prepareOnce(
  config: RunConfig,
  feed: RunFeedSpec,
  client: PlatformClient,
  deps: SyncDeps,
  options: SyncOptions,
  reuse: boolean,
): Promise<PreparedRun> {
  const store = offsetRecords(spillRecords());
  const tags: TagKeys = { ownerKey: config.ownerKey, hashKey: DEFAULT_HASH_KEY };
  // A dry run (and `plan`) reads the memo and leaves it as it was.
  const memo = deps.memo
    ? new RunMemo(deps.memo, feed, tags, { logger: deps.logger, writes: !options.dryRun })
    : undefined;
  // Made here, not in `prepare`: the closures a planned run hands on keep alive only the records,
  // not what `prepare`'s closures hold (the feed's index, while 300k creates are applied).
  const load = memo ? (ref: number) => memo.loaded(store.get(ref), ref) : (ref: number) => store.get(ref);
  const kept: RunRecords = {
    loader: {
      load: (d) => load(d.ref),
      // A record the memo knew is kept as its raw fields, mapped again when loaded: not sent as kept.
      json: (d) => {
        const json = store.text(d.ref);
        return isMemoRecord(json) ? undefined : json;
      },
      unread: (d) => store.unread(d.ref),
    },
    close: () => store.close(),
  };
  try {
    const prepared = await prepare(config, feed, client, deps, options, { store, kept, tags, memo, reuse });
    if (prepared.kind !== 'planned') store.close();
    return prepared;
  } catch (error) {
    store.close();
    throw error;
  } finally {
    // Committed once the feed was read whole; anything else leaves the last memo.
    memo?.abort();
  }
}

/**
 * The run's record store, its numbers shifted past a reused reading's listings (`reserve`): those
 * have no record, and asking for one is `ReadingNeedsRecords`.
 */
function offsetRecords(store: RecordStore & { text(ref: number): string }): RecordStore & {
  reserve(count: number): void;
  unread(ref: number): boolean;
  text(ref: number): string;
  fill(ref: number, record: Listing): void;
} {
  let offset = 0;
  /** A reserved number's record, kept later (`fill`): where it is in `store`, plus one. */
  const filled = int32s();
  let fills = 0;
  const at = (ref: number): number => {
    const place = filled.get(ref) - 1;
    if (place < 0) throw new ReadingNeedsRecords();
    return place;
  };
  return {
    reserve(count) {
      if (store.size > 0) throw new Error('records are reserved before any is kept');
      offset = count;
    },
    unread: (ref) => ref >= 0 && ref < offset && filled.get(ref) === 0,
    fill(ref, record) {
      if (!(ref >= 0 && ref < offset)) throw new RangeError(`record ${ref} is not reserved`);
      if (filled.get(ref) === 0) fills++;
      filled.set(ref, store.put(record) + 1);
    },
    put: (record) => store.put(record) + offset,
    get(ref) {
      return ref < offset ? store.get(at(ref)) : store.get(ref - offset);
    },
    text(ref) {
      return ref < offset ? store.text(at(ref)) : store.text(ref - offset);
    },
    get size() {
      // A filled number's record is in `store` too: counted once.
      return store.size + offset - fills;
    },
    close: () => store.close(),
  };
}

async function prepare(
  config: RunConfig,
  feed: RunFeedSpec,
  client: PlatformClient,
  deps: SyncDeps,
  options: SyncOptions,
  {
    store,
    kept,
    tags,
    memo,
    reuse,
  }: {
    store: ReturnType<typeof offsetRecords>;
    kept: RunRecords;
    tags: TagKeys;
    memo?: RunMemo | undefined;
    reuse: boolean;
  },
): Promise<PreparedRun> {
  const now = deps.now ?? (() => new Date());
  // The run's instant, for the grace of listings gone from the feed: one clock reading per run.
  const runAt = now();
  // How long each phase took, for the report (`RunPhases`).
  const elapsed = deps.elapsed ?? (() => performance.now());
  const feedFrom = elapsed();
  const progress = (phase: 'fetching' | 'normalizing' | 'snapshot' | 'planning', done = 0, total = 0) =>
    deps.onProgress?.({ phase, done, total });
  const keyFor = (listing: Listing) => keyOf(listing, feed.key) ?? '';

  progress('fetching');
  decodePool.warm();
  // How the pages are read: stopped with the run, decoded with the feed's page memo, left for the
  // next run unless this one is a dry run.
  const reads: SnapshotReads = {
    signal: deps.signal,
    ...(deps.memo ? { pageMemo: { store: deps.memo, feedId: feed.id, writes: !options.dryRun } } : {}),
  };
  // Each listing is digested and spilled as it is read; the feed's mask and digest per record,
  // indexed by key once the feed is read.
  const desired = new DesiredIndex({ clearUnset: feed.unsetFields !== 'keep' });
  memo?.checkAgainst(desired);
  let ingest: IngestResult<number>;
  let goneSince: FeedState['goneSince'];
  let clearedBefore: FeedState['cleared'];
  let createdUnset: FeedState['createdUnset'];
  let fieldsSetBefore: FeedState['fieldsSet'];
  let early: DecodedSnapshot | undefined;
  /** How many listings the chatbot held after the last run: its pages are asked for at once. */
  let expectedCount: number | undefined;
  /**
   * The feed's listings on the platform after the last run that could tell (`FeedState.owned`), for
   * a plain incremental run only: not one going on with a read in parts, nor one after a full read
   * was owed already (a listing the full read could not restore must not owe another, and another).
   */
  let ownedLast: number | undefined;
  /** How the feed is read (validators, budget, signal): again, where a reused reading needs records. */
  let ingestDeps: IngestDeps | undefined;
  try {
    const state = await deps.state.getFeed(feed.id);
    goneSince = state.goneSince;
    clearedBefore = state.cleared;
    createdUnset = createdUnsetKeys(state.createdUnset);
    fieldsSetBefore = state.fieldsSet;
    ownedLast = state.resoCheckpoint === undefined && !state.resoFullDue ? state.owned : undefined;
    expectedCount = expectedCountOf(state.lastReport);
    const { etag: _e, lastModified: _l, ...withoutValidators } = state;
    const maySkip = maySkipUnchanged(feed, state, now(), options);
    // A `url:` feed whose last reading the run may compare from asks its server whether the feed
    // changed (the state's validators, which are the reading's), even where an unchanged feed is
    // not skipped (a full compare is due, a manual run): a 304 then compares from the reading.
    // `--force-full` downloads the feed whole, as without a reading.
    const fromServer =
      reuse && memo && !maySkip && !options.forceFull
        ? urlReading({
            store: memo.where.store,
            feed,
            salt: memo.reading.salt,
            now: runAt,
            state,
            logger: deps.logger,
          })
        : undefined;
    ingestDeps = {
      state: maySkip || fromServer ? state : withoutValidators,
      ...(deps.logger ? { logger: deps.logger } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(options.forceFull === undefined ? {} : { forceFull: options.forceFull }),
      ...(deps.open ? { open: deps.open } : {}),
      // Provider request budgets live with the state: the state file, Redis or Postgres.
      ...(deps.state.budgets ? { budget: deps.state.budgets } : {}),
      ...(deps.budgetClock ? { budgetClock: deps.budgetClock } : {}),
      now,
    };
    // The pages asked for while the file is digested go on as the feed's own read if its reading is
    // not used after all (a file changed within its size: a tester saw every page read twice), unless
    // the chatbot needs the larger page memo only a run that reads no record may hold.
    const likelyReads = fitsPageMemo(feed.key, expectedCount) ? reads : reusedReads(reads);
    const reused =
      reuse && memo
        ? await reuseReading({
            store: memo.where.store,
            feed,
            salt: memo.reading.salt,
            now: runAt,
            desired,
            // The pages are asked for while the file is digested, with the larger page memo a run
            // that reads no record may hold; dropped if the reading is not used after all.
            onLikely: () => {
              early ??= startSnapshot(client, config, feed, tags, likelyReads, expectedCount);
            },
            signal: deps.signal,
            logger: deps.logger,
            // A file the run would skip as unchanged is skipped, not compared from its reading.
            skipsAt: maySkip && feed.source.conditional && !options.forceFull ? state.etag : undefined,
          })
        : undefined;
    if (reused) store.reserve(reused.listings.length);
    else if (early !== undefined && likelyReads !== reads) {
      early.abandon();
      early = undefined;
    }
    let fromReading = reused !== undefined;
    ingest =
      reused ??
      (await collectFeed(
        feed,
        ingestDeps,
        (listing, key, fingerprint) => {
          const trimmed = keyFor(listing);
          const kept = desiredOf(listing, trimmed, feed.id, tags, store);
          // Memoized under the key as the run keeps it: a key with spaces around it is not.
          if (memo && fingerprint && key === trimmed) memo.note(fingerprint, kept);
          return desired.add(kept);
        },
        {
          // The feed gives records: the pages are read from now on, while the rest of it is.
          onFirstRecords: () => {
            early ??= startSnapshot(client, config, feed, tags, reads, expectedCount);
          },
          // The report shows the first rejections; the rest are counted. It lists no duplicate keys.
          rejectionsPerLabel: REJECTIONS_KEPT,
          duplicateKeysKept: 0,
          // A record the memo knows: its key, mask and digest as the last run computed them, and its
          // fields in the store, mapped again only if the listing is written.
          ...(memo && {
            memo: memo.reading,
            keepKnown: (item: KnownItem) => {
              const { key, mask, digest } = item.entry;
              memo.note({ fp: item.fp, check: item.check, unknownMask: item.entry.unknown }, item.entry);
              return desired.add({ key, mask, digest, ref: store.put(memo.stored(item)) });
            },
          }),
        },
      ));
    // The server says the `url:` feed is the one the reading read (304): the run compares from it.
    // A memo gone since it was checked leaves nothing to compare from: the feed is read after all.
    if (fromServer && ingest.notModified) {
      if (!fromServer.answers(ingest.notModifiedBy))
        throw new ReadingNeedsRecords(
          'its server answered 304 with validators other than the ones asked about: downloading the feed',
        );
      const read = fromServer.use(desired);
      if (read === undefined)
        throw new ReadingNeedsRecords('its last reading can no longer be used: reading the feed');
      store.reserve(read.listings.length);
      ingest = read;
      fromReading = true;
    }
    // What this run learned of its records, for the next one (a dry run wrote none). Only a feed
    // read whole: an incremental or paused read would leave a memo of what it read.
    if (!fromReading && !ingest.notModified && ingest.mode === 'full' && !ingest.pause && !ingest.continues) {
      const written = memo?.commit();
      // And the reading of it, for a next run that finds the same bytes (a dry run keeps none).
      if (memo && !options.dryRun) keepReading(memo.where.store, feed, ingest, written);
    }
  } catch (error) {
    early?.abandon();
    if (deps.signal?.aborted) return { kind: 'cancelled', reason: 'cancelled while reading the feed' };
    if (!isFeedSyncError(error)) throw error;
    // A feed error names its feed already (`feed acme: …`): said once, not `feed: feed acme: …`.
    const reason = error.message.startsWith(`feed ${feed.id}: `) ? error.message : `feed: ${error.message}`;
    return { kind: 'failed', reason, error, guards: [{ ...SOURCE_FAILED }] };
  }
  let summary = summaryOf(ingest);
  const feedDone = elapsed();
  progress('normalizing', ingest.listings.length, ingest.stats.records);
  const skipped = ingest.notModified
    ? 'the feed has not changed since the last run'
    : // The provider's budget was spent before a record could be read: nothing to compare or write.
      ingest.pause && ingest.stats.records === 0 && !ingest.present
      ? 'nothing read: the provider budget is spent'
      : undefined;
  if (skipped) {
    early?.abandon();
    return { kind: 'skipped', ingest: summary, reason: skipped };
  }

  progress('snapshot');
  /** A reused reading's records are being read (`fillReading`): what a stop then interrupts. */
  let filling = false;
  try {
    // The feed's listings by key, last record winning.
    desired.keep(ingest.listings);
    desired.clearAlso(mappedPricesMask(ingest.mapping));
    // An incremental read holds only the changed records: the fields the feed sets are also those
    // its earlier reads found (a dropped description is cleared though no record of the run has one).
    // Not its marker fields: a state saved before a 0 counted as unset names every one of them.
    if (ingest.mode === 'incremental') desired.clearAlso(maskOfFields(fieldsSetBefore ?? []) & ~MARKER_MASK);
    const fieldsSet = fieldsOfMask(desired.fieldsSet());
    const { loader } = kept;
    const policy = {
      ...policyOf(config, feed, ingest, options, {
        now: runAt,
        ...(goneSince ? { goneSince } : {}),
      }),
      ...(clearedBefore ? { clearedBefore } : {}),
      ...(createdUnset ? { createdUnset } : {}),
    };
    const sold = soldRecordsOf(policy, (listing) => store.put(listing));
    const keeper = changesIn(store);
    const readEarly = early !== undefined;
    // A run that compares from a reading (a `url:` feed's, after its 304) reads no record: it may
    // hold the larger page memo, as a `path:` feed's reused reading does.
    early ??= startSnapshot(
      client,
      config,
      feed,
      tags,
      ingest.reused ? reusedReads(reads) : reads,
      expectedCount,
    );
    let snapshot = await early.read(desired, loader, sold, keeper);
    // A server's habit alone (a page it repeats past the end) is no movement: read once.
    if (readEarly && snapshot.moved) {
      // The pages were read while the feed was, perhaps minutes before the plan: a listing deleted
      // meanwhile (another feed of the chatbot) shifts the later pages, and one never seen would be
      // created twice. Pages that do not add up are read again, all at once.
      deps.logger?.info(
        { drift: snapshot.drift },
        'the listing pages changed while the feed was read: reading them again',
      );
      snapshot = await startSnapshot(client, config, feed, tags, reads, snapshot.listings.length).read(
        desired,
        loader,
        sold,
        keeper,
      );
    }
    const pagesDone = elapsed();
    progress('planning');
    // The report, made once the records are closed, shows the first CHANGES_KEPT writes' changes:
    // at least those are read now.
    const described = Math.max(options.briefs ?? BRIEFS_KEPT, CHANGES_KEPT);
    let made = makePlan(desired, snapshot.listings, policy);
    // An override for the deletes a run held (the dashboard's button): given only when this plan
    // holds those very listings, never whatever the feed dropped since (a tester's feed broke
    // between the page and the click, and 54 listings went where 15 were named). Decided on the
    // first plan, so what it lets go is asked about at the provider below as any delete is (a
    // reviewer: a RESO feed's 6 listings still listed went unasked). The replaces apart: the
    // deletes' override lets no replace through, and theirs only the replaces it was given for.
    const allowed: Partial<PlanPolicy> = {};
    const mismatches: GuardDecision[] = [];
    if (options.allowDeletes && made.heldDeletes.length > 0) {
      if (heldDeletesDigest(made.heldDeletes) === options.allowDeletes.digest)
        Object.assign(allowed, { allowMassDelete: true, allowDeletesOnly: true });
      else mismatches.push(mismatch('deletes', options.allowDeletes.count, made.heldDeletes.length));
    }
    const heldReplaces = made.guards.find((g) => g.guard === 'mass-replace' && g.tripped)?.held;
    if (options.allowReplaces && heldReplaces) {
      if (heldReplaces.digest === options.allowReplaces.digest) allowed.allowMassReplace = true;
      else mismatches.push(mismatch('replaces', options.allowReplaces.count, heldReplaces.count));
    }
    const base: PlanPolicy = { ...policy, ...allowed };
    if (Object.keys(allowed).length > 0) made = makePlan(desired, snapshot.listings, base);
    /** The policy the plan was last made under (the overrides, a provider's still-listed keys kept). */
    let planned: PlanPolicy = base;
    // A RESO provider is asked about the listings gone from its read before they are deleted: those
    // it still lists were skipped by a read that moved, and are planned again as listed.
    const still =
      ingest.stillListed &&
      (await keysStillListed(made, ingest.stillListed, deps.logger, feed.gone?.action === 'markSold'));
    if (still) {
      const decisions = [still.decision];
      // The plan again, with what the provider still lists (and what is not asked yet) kept.
      const replan = () => {
        planned = { ...base, present: withKeys(base.present, still.listed) };
        return makePlan(desired, snapshot.listings, planned);
      };
      if (still.listed.size > 0) {
        made = replan();
        const unasked = goneUnasked(made, still.considered);
        if (unasked) {
          for (const key of unasked) still.listed.add(key);
          made = replan();
          decisions.push({
            guard: 'still-listed',
            tripped: false,
            message: `${unasked.size} more listing(s) gone from the read, held by a guard until the provider's answer: not asked about, kept until the next run asks`,
          });
        }
      }
      made.guards.push(...decisions);
    }
    summary = withVanished(summary, feed, made.ownedCount, ownedLast);
    if (isResoApi(feed)) summary = { ...summary, fromProvider: true };
    // A reused reading has no record to write: a plan that writes one reads the records now (a
    // `path:` feed's file, the same bytes), each checked against the reading, so the pages read and
    // the plan stand; else (a `url:` feed's 304) the run reads the feed after all.
    if (ingest.reused && writesUnread(made, store)) {
      // A listing that differs where the feed sets fields was compared without its record (its
      // changes unknown: a clear in them would be missed, and the guards count the replaces): it is
      // compared again once the records are read, from the platform's listing its changes keep, and
      // the plan made again. Entries that cannot (and a provider asked about its listings, whose
      // plan is more than `makePlan`'s) make the run start over.
      const unknown = changesUnknown(made, store);
      const { listings } = snapshot;
      if (
        feed.source.path === undefined ||
        ingestDeps === undefined ||
        (unknown && (listings.compareUnread === undefined || still))
      )
        throw new ReadingNeedsRecords();
      // Entries past `UNREAD_KEPT` kept no platform listing to compare again (a missing answer: the same).
      if (unknown && listings.unreadComparable?.() !== true)
        throw new ReadingNeedsRecords(
          'more listings on the platform differ from it than a reused reading compares again: reading the feed to write them',
        );
      const note =
        'the feed is unchanged, but listings on the platform differ from it: reading its records to write them';
      deps.logger?.info(feedField(deps.logger, feed.id), note);
      deps.onProgress?.({ phase: 'fetching', done: 0, total: 0, note });
      filling = true;
      await fillReading(feed, ingestDeps, {
        store,
        desired,
        tags,
        memo,
        count: ingest.listings.length,
        sha256: ingest.reused.sha256,
      });
      filling = false;
      if (unknown) {
        const clearable = desired.clearable();
        listings.compareUnread?.((remote, ref) =>
          changesAgainst(remote, desired.listingAt(desired.keyAt(ref), ref), loader, true, clearable),
        );
        made = makePlan(desired, listings, planned);
      }
      summary = { ...summary, reused: { sha256: ingest.reused.sha256, recordsRead: true } };
    }
    made.guards.push(...mismatches);
    const plan = withBriefs(made, loader, described);
    const { drift, pages, pageSize, requestedPageSize, pagesKnown, pagesWritten } = snapshot;
    const remoteCount = snapshot.listings.length;
    const unknownOwners = unknownOwnersOf(plan, config);
    const caseTwins = caseTwinsOf(plan);
    const planDone = elapsed();
    return {
      kind: 'planned',
      fieldsSet,
      ingest: summary,
      snapshot: {
        remoteCount,
        pages,
        pageSize,
        requestedPageSize,
        ...(pagesKnown === undefined ? {} : { pagesKnown }),
        ...(pagesWritten === undefined ? {} : { pagesWritten }),
        drift,
      },
      plan,
      ...(unknownOwners.length > 0 ? { unknownOwners } : {}),
      ...(caseTwins ? { caseTwins } : {}),
      loader,
      close: kept.close,
      phases: { feedMs: feedDone - feedFrom, pagesMs: pagesDone - feedDone, planMs: planDone - pagesDone },
    };
  } catch (error) {
    // Its reads stopped and its pages freed, whatever stopped the snapshot (idempotent once read).
    early?.abandon();
    if (deps.signal?.aborted)
      return {
        kind: 'cancelled',
        ingest: summary,
        reason: filling
          ? "cancelled while reading the feed's records"
          : 'cancelled while reading the listings',
      };
    if (!isFeedSyncError(error)) throw error;
    return { kind: 'failed', ingest: summary, reason: `snapshot: ${error.message}`, error, guards: [] };
  }
}

/**
 * The feed ids that tag listings of the chatbot and that no feed of the config has, with how many
 * of this feed's keys they hold and how many listings in all: a renamed feed leaves its listings
 * tagged with its old id, and the new one would skip them forever, silently; a feed removed from the
 * config leaves its listings on the chatbot. Unknown (none said) when the run was not given the
 * config's feeds.
 */
function unknownOwnersOf(plan: Plan, config: RunConfig): UnknownOwner[] {
  if (config.feeds === undefined || plan.foreign.length === 0) return [];
  const known = new Set(config.feeds.map((f) => f.id));
  const owners = new Map<string, UnknownOwner>();
  const of = (owner: string) => {
    const seen = owners.get(owner);
    if (seen !== undefined) return seen;
    const added = { owner, skipped: 0, foreign: 0 };
    owners.set(owner, added);
    return added;
  };
  for (const f of plan.foreign) if (f.owner !== undefined && !known.has(f.owner)) of(f.owner).foreign++;
  for (const s of plan.skipped)
    if (s.reason === 'owned-by-other-feed' && s.owner !== undefined && !known.has(s.owner))
      of(s.owner).skipped++;
  return [...owners.values()].sort((a, b) => b.skipped - a.skipped || b.foreign - a.foreign);
}

/** Case twins named in a report: the rest are counted. */
const CASE_TWINS_KEPT = 10;

/**
 * The plan's creates whose key an untagged (hand-made) listing on the chatbot has in other letter
 * case (`CaseTwins`), or undefined. Keys stay exact (an MLS may tell `a1` from `A1`, a URL's path
 * does): this only says so. Untagged listings are few; the creates are walked once, not indexed.
 */
export function caseTwinsOf(plan: Pick<Plan, 'creates' | 'foreign'>): CaseTwins | undefined {
  if (plan.creates.length === 0 || plan.foreign.length === 0) return undefined;
  const byFolded = new Map<string, { key: string; id: number }>();
  for (const f of plan.foreign) if (f.owner === undefined) byFolded.set(f.key.toLowerCase(), f);
  if (byFolded.size === 0) return undefined;
  const twins: CaseTwins = { count: 0, first: [] };
  for (const create of plan.creates) {
    const remote = byFolded.get(create.key.toLowerCase());
    if (remote === undefined || remote.key === create.key) continue;
    twins.count++;
    if (twins.first.length < CASE_TWINS_KEPT)
      twins.first.push({ key: create.key, remoteKey: remote.key, id: remote.id });
  }
  return twins.count > 0 ? twins : undefined;
}

/**
 * The records of a reused reading, read from the feed's file (its bytes the reading's: checked by
 * size and SHA-256 before it was reused), each listing put at its number in the reading (its row
 * in the reading's memo: the feed's listings in order, each key once) after its key, mask and digest
 * are found equal to the reading's. One that is not, a count that differs, other bytes, or a file
 * that cannot be read now (changed while it was read) is `ReadingNeedsRecords`: the run reads the
 * feed and the pages anew. Records the memo knows are kept as their fields, as a run reading the
 * feed keeps them.
 */
async function fillReading(
  feed: RunFeedSpec,
  deps: IngestDeps,
  {
    store,
    desired,
    tags,
    memo,
    count,
    sha256,
  }: {
    store: ReturnType<typeof offsetRecords>;
    desired: DesiredIndex;
    tags: TagKeys;
    memo: RunMemo | undefined;
    count: number;
    /** The bytes the reading read. */
    sha256: string;
  },
): Promise<void> {
  let ref = 0;
  const changed = (what: string) =>
    new ReadingNeedsRecords(`changed while its records were read (${what}): reading it again`, true);
  const fill = (key: string, mask: number, digest: number, record: Listing) => {
    const same =
      ref < count &&
      key === desired.keyAt(ref) &&
      mask === desired.maskAt(ref) &&
      digest === desired.digestAt(ref);
    if (!same) throw changed(`listing ${ref + 1} is not the reading's`);
    store.fill(ref++, record);
  };
  let read: IngestResult<number>;
  try {
    read = await collectFeed(
      feed,
      { ...deps, forceFull: true },
      (listing, key) => {
        const tagged = withTags(listing, feed.id, tags);
        const { mask, digest } = ownFields(tagged);
        fill(key.trim(), mask, digest, tagged);
        return 0;
      },
      {
        rejectionsPerLabel: 0,
        duplicateKeysKept: 0,
        ...(memo && {
          memo: memo.reading,
          keepKnown: (item: KnownItem) => {
            const { key, mask, digest } = item.entry;
            fill(key, mask, digest, memo.stored(item));
            return 0;
          },
        }),
      },
    );
  } catch (error) {
    // A file gone or cut since it was digested: the run reads the feed anew, and says why it fails.
    if (error instanceof ReadingNeedsRecords || !isFeedSyncError(error)) throw error;
    throw changed(error.message);
  }
  if (ref !== count) throw changed(`the reading holds ${count} listings, the file ${ref}`);
  // Its other records too (a removal, a rejection): the same bytes.
  if (read.sourceDigest !== undefined && read.sourceDigest.sha256 !== sha256)
    throw changed("its SHA-256 is not the reading's");
}

/**
 * The platform's pages, requested as soon as the feed gives its first listing and read whole while
 * the rest of it is, each decoded in the process's decode thread (`startDecodedSnapshot`): a no-op
 * run then costs about the longer of the two reads, on two threads, not their sum. What is kept of
 * a page is a few numbers a listing; the listings are compared once the feed is indexed (`read`).
 * A run that ends before its snapshot (the feed failed, was unchanged) abandons it: its reads are
 * aborted and their failure ignored.
 */
function startSnapshot(
  client: PlatformClient,
  config: RunConfig,
  feed: RunFeedSpec,
  tags: TagKeys,
  { signal, pageMemo }: SnapshotReads,
  expectedCount: number | undefined,
): DecodedSnapshot {
  return startDecodedSnapshot(client, {
    chatbot: feed.chatbot,
    keyField: feed.key,
    tags,
    pageSize: config.api.pageSize,
    concurrency: config.api.concurrency,
    ...(signal ? { signal } : {}),
    ...(expectedCount === undefined ? {} : { expectedCount }),
    ...(pageMemo ? { pageMemo } : {}),
  });
}

/** Whether a plan updates a listing whose record the run did not read and whose changes it does not know. */
function changesUnknown(plan: Plan, store: { unread(ref: number): boolean }): boolean {
  for (const update of plan.updates)
    if (store.unread(update.desired.ref) && isUnread(update.changes)) return true;
  return false;
}

/** Whether a plan creates or updates a listing whose record the run did not read (its feed reading reused). */
function writesUnread(plan: Plan, store: { unread(ref: number): boolean }): boolean {
  for (const create of plan.creates) if (store.unread(create.desired.ref)) return true;
  for (const update of plan.updates) if (store.unread(update.desired.ref)) return true;
  return false;
}

/**
 * The keys of `FeedState.createdUnset` as a list, whatever a state holds there: an object by key (as
 * an unreleased build saved it, a reviewer) gives its keys, anything else none. A state the run cannot
 * read must not fail every run of the feed.
 */
export function createdUnsetKeys(notes: unknown): string[] | undefined {
  if (Array.isArray(notes)) return notes.filter((key): key is string => typeof key === 'string');
  if (typeof notes === 'object' && notes !== null) return Object.keys(notes);
  return undefined;
}

/** Whether the chatbot's pages, as many as the last run found, fit the page memo a run reading its feed holds. */
function fitsPageMemo(key: RunFeedSpec['key'], expectedCount: number | undefined): boolean {
  // With room to spare: the bytes a listing are a guess (long keys, many tags), and a memo that grows
  // past the bound is not kept.
  return (expectedCount ?? 0) * PAGE_MEMO_BYTES_PER_LISTING[key] <= PAGE_MEMO_MAX_BYTES * 0.75;
}

/** A run's reads when it reuses its feed's reading: a larger page memo (`PAGE_MEMO_REUSED_MAX_BYTES`). */
function reusedReads(reads: SnapshotReads): SnapshotReads {
  return reads.pageMemo
    ? { ...reads, pageMemo: { ...reads.pageMemo, maxBytes: PAGE_MEMO_REUSED_MAX_BYTES } }
    : reads;
}

/** What every snapshot of a run shares: its stop signal and its page memo. */
interface SnapshotReads {
  signal: AbortSignal | undefined;
  pageMemo?: DecodedSnapshotOptions['pageMemo'];
}

/**
 * The chatbot's listings after the last run, by its report: those it found, plus what it created,
 * less what it deleted. A guess (other feeds of the chatbot write too) that only decides which
 * pages are asked for with the first; undefined when the last report does not tell.
 */
export function expectedCountOf(lastReport: unknown): number | undefined {
  if (typeof lastReport !== 'object' || lastReport === null) return undefined;
  const { snapshot, created, deleted } = lastReport as {
    snapshot?: { remoteCount?: unknown };
    created?: unknown;
    deleted?: unknown;
  };
  const found = snapshot?.remoteCount;
  if (typeof found !== 'number' || !Number.isSafeInteger(found) || found < 0) return undefined;
  const count = (n: unknown) => (typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0);
  return Math.max(0, found + count(created) - count(deleted));
}

/** What a planned run hands on of its records: their loader, and how to free them. */
interface RunRecords {
  loader: DesiredLoader;
  close: () => void;
}

/** A feed read from a provider's RESO Web API (not a saved RESO file). */
const isResoApi = (feed: RunFeedSpec) => feed.source.format === 'reso' && feed.source.url !== undefined;

/**
 * An incremental RESO run reads only what changed: a listing deleted on the platform behind
 * feed-sync's back is in nothing it reads, and a sweep lists its key as still in the feed. Fewer
 * of the feed's listings on the platform than the last run left (`FeedState.owned`) says some
 * went: the next part reads the feed in full (`resoFullDue`), which restores them; the CLI runs it
 * straight after, the worker queues it at once. A wrong count costs one full read, never a write.
 */
function withVanished(
  summary: IngestSummary,
  feed: RunFeedSpec,
  ownedNow: number,
  ownedLast: number | undefined,
): IngestSummary {
  if (!isResoApi(feed) || summary.mode !== 'incremental') return summary;
  if (ownedLast === undefined || ownedNow >= ownedLast || summary.continues || summary.pause) return summary;
  // The last part of a full read (its sweep owed) compared what it could: no second full read.
  if (summary.sourceState.lastFullRunAt !== undefined || summary.sourceState.resoCheckpoint !== undefined)
    return summary;
  const gone = ownedLast - ownedNow;
  const note = `${gone} of the feed's ${ownedLast} listing(s) are no longer on the platform (deleted there?): the feed is read in full next, to restore them`;
  return {
    ...summary,
    sourceState: { ...summary.sourceState, resoFullDue: true },
    continues: true,
    fullReadDue: true,
    sourceNote: summary.sourceNote ? `${summary.sourceNote}; ${note}` : note,
  };
}

function summaryOf(ingest: IngestResult<unknown>): IngestSummary {
  return {
    mode: ingest.mode,
    read: ingest.stats.records,
    ...(ingest.stats.known !== undefined ? { known: ingest.stats.known } : {}),
    ...(ingest.reused ? { reused: { sha256: ingest.reused.sha256 } } : {}),
    duplicates: ingest.stats.duplicates,
    ...(ingest.removals.length > 0 ? { removals: ingest.removals.length } : {}),
    rejected: ingest.stats.rejected,
    rejections: ingest.rejections.slice(0, REJECTIONS_KEPT),
    rejectedWithoutKey: ingest.rejectedWithoutKey,
    decodedAs1252: ingest.decodedAs1252 ?? [],
    unknownMarkers: ingest.unknownMarkers ?? {},
    droppedImages: ingest.droppedImages?.count ?? 0,
    ...(ingest.hints ? { hints: ingest.hints } : {}),
    sourceState: ingest.sourceState,
    ...(ingest.pause ? { pause: ingest.pause } : {}),
    ...(ingest.continues ? { continues: true } : {}),
    ...(ingest.sourceNote ? { sourceNote: ingest.sourceNote } : {}),
  };
}
