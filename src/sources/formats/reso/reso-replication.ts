import { HttpStatusError } from '../../../http/index.ts';
import type { Logger } from '../../../logger.ts';
import { parseTimestamp } from '../../../normalize/index.ts';
import type { FeedState } from '../../../state/index.ts';
import { FeedError, safeUrl } from '../../feed-error.ts';
import type { FeedSpec, RawRecord, SourceEnd, StillListed } from '../../source-types.ts';
import { batchOf } from '../batch.ts';
import { BudgetPause } from './budget-gate.ts';
import {
  advanced,
  type PositionedRecord,
  type ReplicationPosition,
  type ResoCheckpoint,
  type ResoState,
  readAlready,
  sweepDue,
  watermarkAfter,
} from './checkpoint.ts';
import { FirstSeen, KeyHashSet } from './key-set.ts';
import { replicationNote } from './replication-note.ts';
import type { ODataPage, ResoClient } from './reso-client.ts';
import { keysUrl, mediaUrl, replicationUrl, sameOrigin, sweepUrl } from './reso-query.ts';
import type { ResolvedReso } from './resolve-options.ts';
import { sweepKeyReader } from './sweep-keys.ts';

/** Keys per Media query: an `or` chain longer than this makes URLs some vendors refuse. */
const MEDIA_BATCH = 20;
/** Keys per query asking whether the provider still lists them (`stillListed`). */
const KEYS_BATCH = 20;

/**
 * A nextLink that fails this many times in a row (expired, unknown, or past the provider's `$skip`
 * ceiling) with no page read between fails the run.
 */
const MAX_LINK_RESTARTS = 3;

/** Answers that mean a nextLink is no longer valid (Trestle's replication links expire). */
const EXPIRED = new Set([400, 404, 410]);

export interface ReplicationDeps {
  feed: FeedSpec;
  endpoint: string;
  options: ResolvedReso;
  client: ResoClient;
  checkpoint: ResoCheckpoint;
  resumed: boolean;
  state: ResoState;
  now: () => Date;
  logger?: Logger;
}

type Stop = 'complete' | 'paused' | 'continues';

/**
 * One run's part of a RESO replication: pages read from where the replication stands, each
 * followed by its checkpoint; a stop at the end of the feed (then a key sweep when due), at the
 * per-run limit, or where the provider's budget runs out (before the request that would exceed it).
 * The pure parts are checkpoint.ts and reso-query.ts; this is the I/O around them.
 */
export class ResoReplication {
  private checkpoint: ResoCheckpoint;
  /** The position the current query started from: records read there already are skipped. */
  private queryFrom: ReplicationPosition | undefined;
  private first: ODataPage | undefined;
  private stop: Stop | undefined;
  private pause: BudgetPause | undefined;
  private present: KeyHashSet | undefined;
  private sweepWanted = false;
  private sweepProblem: string | undefined;
  /** A page size the provider refused above, found by this run's sweep: its key queries ask no more. */
  private pageCap: number | undefined;
  private readThisRun = 0;
  /** When each key was first read in this run, for a timestamp order (`movedFloor`). */
  private firstSeen: FirstSeen | undefined;
  /**
   * Deletion markers read without the field the feed's key comes from first (MLS Grid's marker of
   * ListingKey alone, where the key is the ListingId): their removal names no listing of the chatbot.
   * The run ends with a key sweep, which finds each such listing gone.
   */
  private unmatchedMarkers = 0;
  private keyFirstField: string | null | undefined;
  private readonly deps: ReplicationDeps;

  constructor(deps: ReplicationDeps) {
    this.deps = deps;
    this.checkpoint = deps.checkpoint;
  }

  /** Mode as known on opening: only a replication read whole in this run can delete absent listings. */
  openingMode(): 'full' | 'incremental' {
    return this.checkpoint.kind === 'full' && !this.deps.resumed ? 'full' : 'incremental';
  }

  /** Read the first page (a spent budget is a pause, not a failure). */
  async open(): Promise<void> {
    const { options } = this.deps;
    const link = options.profile.resume === 'link' ? this.checkpoint.nextLink : undefined;
    try {
      if (link) {
        try {
          this.first = await this.deps.client.getPage(link);
          return;
        } catch (error) {
          if (!isExpiredLink(error)) throw error;
          this.deps.logger?.warn(
            { feedId: this.deps.feed.id },
            'RESO: the saved nextLink is no longer valid; going on from the last position',
          );
        }
      }
      this.first = await this.deps.client.getPage(this.positionUrl());
    } catch (error) {
      if (!(error instanceof BudgetPause)) throw error;
      this.pause = error;
      this.stop = 'paused';
    }
  }

  /** The replication's query from its current position (and that position, for skipping). */
  private positionUrl(): string {
    this.queryFrom = this.checkpoint.position;
    return replicationUrl(this.deps.endpoint, this.deps.options, this.checkpoint);
  }

  async *records(): AsyncGenerator<RawRecord[]> {
    const { options, feed } = this.deps;
    const { profile } = options;
    let page = this.first;
    this.first = undefined;
    let index = 0;
    let pages = 0;
    let restarts = 0;
    /** The place the last restart went on from: a restart counts as progress only once it has moved. */
    let restartedFrom: string | undefined;
    while (page) {
      pages++;
      if (page.value.length === 0) {
        // Trestle's replication answers an empty page at the end, with a nextLink still.
        this.stop = 'complete';
        break;
      }
      const positioned = page.value.map(positionOf);
      const fresh = page.value.filter((_, i) => !readAlready(this.queryFrom, positioned[i]!));
      if (options.media === 'fetch') {
        try {
          await this.attachMedia(fresh);
        } catch (error) {
          if (!(error instanceof BudgetPause)) throw error;
          // The page is not yielded: the checkpoint stays before it, the next run reads it again.
          this.pause = error;
          this.stop = 'paused';
          return;
        }
      }
      // A marker without the key's field names no listing: its removal, by the key's fallback (its
      // ListingKey), could be another listing's ListingId (a reviewer). Left out: the sweep decides.
      const unmatched = fresh.filter((fields) => profile.isDeletion(fields) && this.lacksKeyField(fields));
      this.unmatchedMarkers += unmatched.length;
      const yielded = unmatched.length === 0 ? fresh : fresh.filter((fields) => !unmatched.includes(fields));
      if (yielded.length > 0)
        yield* batchOf(yielded, (fields) => ({
          index: index++,
          fields,
          ...(profile.isDeletion(fields) ? { removed: true as const } : {}),
        }));
      const read = positioned.filter((_, i) => !readAlready(this.queryFrom, positioned[i]!));
      const moved = profile.order === 'timestamp' ? this.movedFloor(read) : undefined;
      this.checkpoint = advanced(this.checkpoint, read, profile.order, page.nextLink, this.deps.now());
      if (moved !== undefined) this.checkpoint.movedFloor = new Date(moved).toISOString();
      this.readThisRun += fresh.length;
      if (JSON.stringify(this.checkpoint.position) !== restartedFrom) restarts = 0;
      if (!page.nextLink) {
        this.stop = 'complete';
        break;
      }
      if (!sameOrigin(page.nextLink, this.deps.endpoint))
        throw new FeedError(
          'E_FEED_UNSAFE',
          feed.id,
          `nextLink leaves the endpoint's host (${safeUrl(page.nextLink)}); refusing to send the token there`,
        );
      if (options.recordsPerRun !== undefined && this.readThisRun >= options.recordsPerRun) {
        this.stop = 'continues';
        break;
      }
      if (pages >= options.maxPages)
        throw new FeedError('E_FEED_FETCH', feed.id, `more than ${options.maxPages} pages (reso.maxPages)`);
      try {
        page = await this.deps.client.getPage(page.nextLink);
      } catch (error) {
        if (error instanceof BudgetPause) {
          this.pause = error;
          this.stop = 'paused';
          return;
        }
        if (!isExpiredLink(error) || ++restarts > MAX_LINK_RESTARTS) throw error;
        // An expired replication link (Trestle: 5 minutes idle), or one past the provider's `$skip`
        // ceiling (Bridge: 10,000), goes on from the last page read with a new query.
        this.deps.logger?.info(
          { feedId: feed.id, restart: restarts },
          'RESO: the nextLink is refused; going on from the last page read',
        );
        restartedFrom = JSON.stringify(this.checkpoint.position);
        page = await this.getOrPause(this.positionUrl());
      }
    }
    if (this.stop === 'complete') await this.sweepIfDue();
  }

  /**
   * The earliest first timestamp of the records of a page read before in this run, with the
   * replication's floor so far: undefined when none came twice. Said once a run.
   */
  private movedFloor(records: readonly PositionedRecord[]): number | undefined {
    this.firstSeen ??= new FirstSeen();
    const stored = this.checkpoint.movedFloor ? Date.parse(this.checkpoint.movedFloor) : undefined;
    let floor = stored;
    for (const r of records) {
      if (r.key === undefined || r.modified === undefined) continue;
      const first = this.firstSeen.firstOf(r.key, r.modified);
      if (first !== undefined && first !== r.modified && (floor === undefined || first < floor))
        floor = first;
    }
    if (floor !== undefined && stored === undefined)
      this.deps.logger?.info(
        { feedId: this.deps.feed.id, from: new Date(floor).toISOString() },
        'RESO: a record came again while the pages were read (it changed meanwhile, and paging by position may have skipped the one after its old place): the next run reads again from its first timestamp',
      );
    return floor === stored ? undefined : floor;
  }

  /**
   * Whether a record lacks the field the feed's key is read from first, where the key rule falls
   * back to others (`from: [ListingId, ListingKey]`): its key is then not its listing's.
   */
  private lacksKeyField(fields: Readonly<Record<string, unknown>>): boolean {
    if (this.keyFirstField === undefined) {
      const from = sweepKeyReader(this.deps.feed, this.deps.now()).fields;
      this.keyFirstField = from.length > 1 ? (from[0] ?? null) : null;
    }
    if (this.keyFirstField === null) return false;
    const value = fields[this.keyFirstField];
    return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  }

  private async getOrPause(url: string): Promise<ODataPage | undefined> {
    try {
      return await this.deps.client.getPage(url);
    } catch (error) {
      if (!(error instanceof BudgetPause)) throw error;
      this.pause = error;
      this.stop = 'paused';
      return undefined;
    }
  }

  /**
   * The key sweep: every key the feed lists now, read with `$select` of the key fields only, so the
   * plan deletes the listings that left without a marker (markers expire: MLS Grid keeps them 7
   * days). An empty or unfinished sweep deletes nothing and is owed to the next run.
   */
  private async sweepIfDue(): Promise<void> {
    const { options, feed } = this.deps;
    const now = this.deps.now();
    const unmatched = this.unmatchedMarkers > 0;
    if (!unmatched && !sweepDue(options, this.deps.state, this.checkpoint, now, parseTimestamp)) return;
    if (unmatched)
      this.deps.logger?.warn(
        { feedId: feed.id, markers: this.unmatchedMarkers, field: this.keyFirstField },
        `RESO: ${this.unmatchedMarkers} deletion marker(s) without ${this.keyFirstField}, which the feed's key comes from: a key sweep finds their listings gone`,
      );
    this.sweepWanted = true;
    try {
      const keys = await this.sweep(sweepKeyReader(feed, now));
      if (keys.size === 0) this.sweepProblem = 'the sweep found no key';
      else this.present = keys;
    } catch (error) {
      if (error instanceof BudgetPause) this.pause = error;
      else this.sweepProblem = (error as Error).message;
      this.deps.logger?.warn(
        { feedId: feed.id, reason: (error as Error).message },
        'RESO key sweep not finished: nothing is deleted for it; the next run sweeps again',
      );
    }
  }

  /** Every key of the feed, page by page, going on from its position when a link is refused. */
  private async sweep(reader: ReturnType<typeof sweepKeyReader>): Promise<KeyHashSet> {
    const { options, endpoint, client } = this.deps;
    const keys = new KeyHashSet();
    let place: ResoCheckpoint = { kind: 'full', startedAt: '', pages: 0, records: 0, runs: 1 };
    let from: ReplicationPosition | undefined;
    let top = options.profile.sweepTop;
    let url: string | undefined = sweepUrl(endpoint, options, reader.select);
    for (let pages = 1, restarts = 0; url; pages++) {
      let page: ODataPage;
      try {
        page = await client.getPage(url);
      } catch (error) {
        // A server that allows smaller pages than the provider documents for key reads (a proxy, a
        // vendor's own cap) refuses the sweep's `$top`: the feed's own page size, which it reads.
        if (pages === 1 && isRefused(error) && top > options.top) {
          top = options.top;
          this.pageCap = top;
          url = sweepUrl(endpoint, options, reader.select, undefined, top);
          pages = 0;
          continue;
        }
        if (!isExpiredLink(error) || pages === 1 || ++restarts > MAX_LINK_RESTARTS) throw error;
        from = place.position;
        url = sweepUrl(endpoint, options, reader.select, from, top);
        continue;
      }
      restarts = 0;
      if (page.value.length === 0) break;
      const positioned = page.value.map(positionOf);
      for (let i = 0; i < page.value.length; i++) {
        if (readAlready(from, positioned[i]!)) continue;
        const key = reader.keyOf(page.value[i]!);
        if (key !== undefined) keys.add(key);
      }
      place = advanced(place, positioned, options.profile.order, undefined, this.deps.now());
      if (page.nextLink && !sameOrigin(page.nextLink, endpoint)) throw new Error('nextLink leaves the host');
      if (pages >= options.maxPages) throw new Error(`more than ${options.maxPages} pages`);
      url = page.nextLink;
    }
    return keys;
  }

  /**
   * Which of `keys` (the feed's listing keys, gone from this run's read) the provider still lists as
   * listings: a read paged by `$skip` over a feed that changes while it is read skips a record for
   * each one edited or removed ahead of it, and that listing must not be deleted for it. Asked by
   * the source field the key is read from, `KEYS_BATCH` keys a query, under the budget. A key rule
   * that is a template cannot be asked (`unasked`); a query the provider refuses (400: the field is
   * not searchable) stops the asking, named in `problem`; the budget's stop, a network failure too.
   */
  async stillListed(keys: readonly string[]): Promise<StillListed> {
    const { options, feed, endpoint, client } = this.deps;
    const reader = sweepKeyReader(feed, this.deps.now());
    const listed = new Set<string>();
    // MLS Grid searches ListingId, not ListingKey: the first field only there.
    const fields = options.profile.provider === 'mlsgrid' ? reader.fields.slice(0, 1) : reader.fields;
    if (fields.length === 0)
      return {
        listed,
        asked: 0,
        problem: `the key of feed ${feed.id} is made by its mapping, so it cannot be asked for`,
      };
    const wanted = new Set(keys);
    // A query answers a record per key and field at most: within the page size the feed asks (and
    // the one this run's sweep found the server allows), so no record is left on a next page.
    const top = Math.min(options.top, this.pageCap ?? options.top);
    const perQuery = Math.max(1, Math.min(KEYS_BATCH, Math.floor(top / fields.length)));
    let asked = 0;
    for (let i = 0; i < keys.length; i += perQuery) {
      const batch = keys.slice(i, i + perQuery);
      try {
        // A server that caps pages below what was asked says so with a nextLink: followed.
        let url: string | undefined = keysUrl(endpoint, options, fields, batch);
        for (let pages = 0; url && pages < 10; pages++) {
          const page: ODataPage = await client.getPage(url);
          for (const record of page.value) {
            const key = reader.keyOf(record);
            if (key === undefined || !wanted.has(key)) continue;
            if (options.profile.isDeletion(record) || reader.isRemoval(record)) continue;
            listed.add(key);
          }
          url = page.nextLink && sameOrigin(page.nextLink, endpoint) ? page.nextLink : undefined;
        }
      } catch (error) {
        if (error instanceof BudgetPause) return { listed, asked, problem: error.message, paused: true };
        return { listed, asked, problem: (error as Error).message };
      }
      asked += batch.length;
    }
    return { listed, asked };
  }

  /** `media: fetch`: one Media query per batch of keys, attached as each record's `Media`. */
  private async attachMedia(records: Record<string, unknown>[]): Promise<void> {
    const { endpoint, client } = this.deps;
    const byKey = new Map<string, Record<string, unknown>>();
    for (const record of records)
      if (typeof record.ListingKey === 'string') byKey.set(record.ListingKey, record);
    const keys = [...byKey.keys()];
    for (let i = 0; i < keys.length; i += MEDIA_BATCH) {
      let url: string | undefined = mediaUrl(endpoint, keys.slice(i, i + MEDIA_BATCH));
      while (url) {
        const page: ODataPage = await client.getPage(url);
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

  /**
   * What the run leaves: a replication that reached the end of the feed removes its checkpoint and
   * moves the watermark; one that stopped keeps its checkpoint for the next run and reads as
   * incremental (nothing is deleted for being absent).
   */
  end(): SourceEnd {
    const now = this.deps.now();
    const checkpoint = this.checkpoint;
    const state: Partial<FeedState> = {};
    const pause = this.pause
      ? { resumesAt: new Date(this.pause.resumesAt).toISOString(), reason: this.pause.message }
      : undefined;
    const note = replicationNote({
      checkpoint,
      resumed: this.deps.resumed,
      stop: this.stop ?? 'paused',
      readThisRun: this.readThisRun,
      swept: this.present?.size,
      sweepProblem: this.sweepWanted && !this.present ? (this.sweepProblem ?? pause?.reason) : undefined,
    });
    if (this.stop !== 'complete') {
      state.resoCheckpoint = checkpoint;
      return {
        mode: 'incremental',
        state,
        note,
        ...(pause ? { pause } : {}),
        ...(this.stop === 'continues' ? { continues: true } : {}),
      };
    }
    state.resoCheckpoint = undefined;
    const watermark = watermarkAfter(checkpoint, parseTimestamp(this.deps.state.resoWatermark));
    if (watermark) state.resoWatermark = watermark;
    const wholeInOneRun = checkpoint.kind === 'full' && checkpoint.runs === 1;
    if (checkpoint.kind === 'full') {
      state.lastFullRunAt = checkpoint.startedAt;
      if (this.deps.state.resoFullDue) state.resoFullDue = undefined;
    }
    // A full read in one run compares every key, as a sweep would (its time is `lastFullRunAt`).
    if (this.present) state.resoSweepAt = now.toISOString();
    if (wholeInOneRun || this.present) {
      if (this.deps.state.resoSweepDue) state.resoSweepDue = undefined;
    } else if (this.sweepWanted) state.resoSweepDue = true;
    const mode = wholeInOneRun || this.present ? 'full' : 'incremental';
    return {
      mode,
      state,
      note,
      ...(this.present ? { present: this.present } : {}),
      ...(pause ? { pause } : {}),
    };
  }
}

function positionOf(fields: Record<string, unknown>): PositionedRecord {
  const key = fields.ListingKey;
  return {
    key: typeof key === 'string' ? key : typeof key === 'number' ? String(key) : undefined,
    modified: parseTimestamp(fields.ModificationTimestamp),
  };
}

/** The HTTP status a failed request was answered with, if it was answered. */
function statusOf(error: unknown): number | undefined {
  const cause = (error as { cause?: unknown }).cause;
  return error instanceof HttpStatusError
    ? error.status
    : cause instanceof HttpStatusError
      ? cause.status
      : undefined;
}

/** A nextLink the server no longer knows (expired, unknown), as opposed to a server or network failure. */
function isExpiredLink(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && EXPIRED.has(status);
}

/** A query the server refused as asked (400). */
const isRefused = (error: unknown) => statusOf(error) === 400;
