import { readlinkSync } from 'node:fs';
import {
  type KnownItem,
  listingOfFields,
  MEMO_MAX_AGE_MS,
  type MemoHeader,
  type MemoReading,
  MemoWriter,
  memoHeaderOf,
  memoizableKey,
  RecordMemo,
} from '../ingest/index.ts';
import { feedField, type Logger } from '../logger.ts';
import type { CompiledMapping, Listing, RawFields } from '../normalize/index.ts';
import type { DesiredIndex } from './desired-index.ts';
import { ownFields } from './digest.ts';
import { type TagKeys, withTags } from './ownership.ts';
import { keyOf } from './plan.ts';
import { SnapshotError } from './snapshot.ts';

/**
 * Where record memos are kept between runs, one per feed (`memoFiles`). `stamp` names the code
 * that made them: a memo of other code is never used.
 */
export interface MemoStore {
  /**
   * The feed's memo, in bytes the caller owns (a record memo frees them once the feed is read).
   * Undefined when there is none, or it is larger than `maxBytes` (not read then).
   */
  read(feedId: string, maxBytes?: number): Uint8Array | undefined;
  /**
   * Start replacing the feed's memo: its rows are written as the run notes them, and the memo
   * replaces the last one whole when `commit` gives its header (first in the file); `abort`, or a
   * process that dies, leaves the last one. Undefined when no memo can be written (a read-only
   * store, a folder that is not private). Never throws: a memo not kept only costs the next run time.
   */
  begin(feedId: string): MemoSink | undefined;
  /** Delete the feed's memo (it was found wrong). Never throws. */
  remove(feedId: string): void;
  readonly stamp: string;
}

/** A memo being written (`MemoStore.begin`). */
export interface MemoSink {
  write(chunk: Uint8Array): void;
  /** Whether the memo replaced the last one (false: it could not be written whole, none is kept). */
  commit(header: Uint8Array): boolean;
  abort(): void;
}

/** Bumped when what a memo entry means changes (the digest, the tags, the key rules). */
const MEMO_VERSION = 'record-memo 2';

/** A known record in the run's record store: its raw fields, mapped again if it is written. */
const FIELDS = '\u0000fields';
/**
 * A known record of a flat feed (a CSV row of the header's width: `RawRecord.values`) kept as its
 * values alone, in the order of the feed's names (`RawRecord.names`, held by `RunMemo`): spilling
 * each row's column names again cost a 10k no-op's main thread 15–30 ms (JSON of the names, and the
 * bytes: the spill is 38% smaller), for records a no-op never reads back.
 */
const VALUES = '\u0000values';

/** Whether a record's JSON text in the run's store is one `stored` made (raw fields), not a listing. */
export function isMemoRecord(json: string): boolean {
  // `{"\u0000fields":…}` or `{"\u0000values":…}`: no listing field begins with NUL.
  return json.startsWith('{"\\u0000');
}

/**
 * What else a listing can depend on: the runtime (ICU's dates and numbers) and the time zone. The
 * zone is named by what sets it (`TZ`, else /etc/localtime's link) and by what it does: its offset
 * from UTC in winter and summer of every year from 1970 to 2037 (a number, whatever the process's
 * locale: a cron job and a shell share their memo). Not `Intl.DateTimeFormat().resolvedOptions()`,
 * which loads ICU's locale data: ~14 ms of every run's start, on its critical path.
 */
export function runtimeSalt(): string {
  const tz = process.env.TZ ?? '';
  if (runtime?.tz !== tz) {
    const offsets = ZONE_INSTANTS.map((at) => new Date(at).getTimezoneOffset()).join(',');
    const zone = tz === '' ? localtime() : tz;
    runtime = { tz, salt: `${process.version} icu ${process.versions.icu ?? ''} tz ${zone} ${offsets}` };
  }
  return runtime.salt;
}

/** Mid-January and mid-July of 1970 to 2037: a zone's rules in each year, winter and summer. */
const ZONE_INSTANTS = Array.from({ length: 2037 - 1970 + 1 }, (_, i) => 1970 + i).flatMap((year) => [
  Date.UTC(year, 0, 15),
  Date.UTC(year, 6, 15),
]);

/** The zone /etc/localtime links to, where it is a link (Debian, Alpine with tzdata). */
function localtime(): string {
  try {
    return readlinkSync('/etc/localtime');
  } catch {
    return '';
  }
}

let runtime: { tz: string; salt: string } | undefined;

/**
 * One run's side of the record memo (`src/ingest/record-memo.ts`): the memo read for the feed, the
 * fingerprint of each record the run keeps, the mapping to make a known record's listing again (and
 * check it against what the memo said), and the memo this run leaves for the next.
 */
export class RunMemo {
  readonly reading: MemoReading;
  readonly #store: MemoStore;
  readonly #feedId: string;
  readonly #tags: TagKeys;
  readonly #keyField: 'MLSNumber' | 'Url';
  readonly #logger: Logger | undefined;
  /** Whether this run leaves a memo (not a dry run). */
  readonly #writes: boolean;
  /** The memo this run leaves, written as records are noted (no column of them is held). */
  #sink: MemoSink | undefined;
  #writer: MemoWriter | undefined;
  /** The store could not start a memo (read-only, a folder not private): none is written. */
  #unwritable = false;
  #mapping: CompiledMapping | undefined;
  #seed = Number.NaN;
  #now = 0;
  /** When the memo read was first built, if this run used it: the memo it leaves is as old. */
  #builtAt: number | undefined;
  #used = false;
  /** The memo was found wrong about a record (once the feed is read: at the join or a write): deleted. */
  #wrong = false;
  #desired: DesiredIndex | undefined;
  /** The feed's field names, of the flat records kept by `VALUES`; in memory for the run's store only. */
  #names: readonly string[] | undefined;

  constructor(
    store: MemoStore,
    feed: { id: string; key: 'MLSNumber' | 'Url' },
    tags: TagKeys,
    options: { logger?: Logger | undefined; writes: boolean },
  ) {
    this.#store = store;
    this.#writes = options.writes;
    this.#feedId = feed.id;
    this.#tags = tags;
    this.#keyField = feed.key;
    this.#logger = options.logger;
    // The whole feed entry: any change to it (source options, mapping, key) starts a new memo.
    const salt = [
      MEMO_VERSION,
      store.stamp,
      runtimeSalt(),
      feed.id,
      JSON.stringify(feed),
      tags.ownerKey,
      tags.hashKey,
    ];
    this.reading = {
      salt,
      open: (mapping, seed, now) => {
        this.#mapping = mapping;
        this.#seed = seed;
        this.#now = now.getTime();
        const bytes = store.read(feed.id);
        const memo = bytes === undefined ? undefined : RecordMemo.fromBytes(bytes);
        // Another seed, or too old (or from the future: a clock set back), is no memo.
        const age = memo === undefined ? Number.NaN : this.#now - memo.builtAt;
        if (memo === undefined || memo.seed !== seed || !(age >= 0 && age < MEMO_MAX_AGE_MS))
          return undefined;
        this.#builtAt = memo.builtAt;
        return memo;
      },
    };
  }

  /** The run's desired listings: a known record's listing made again is checked against them. */
  checkAgainst(desired: DesiredIndex): void {
    this.#desired = desired;
  }

  /**
   * Note a record the run keeps: its fingerprint, the fields it lacked and its listing's key, mask
   * and digest (a record without a fingerprint is not memoized). Written to the memo at once.
   */
  note(
    { fp, check, unknownMask }: { fp?: number; check?: number; unknownMask?: number },
    listing: { key: string; mask: number; digest: number },
  ): void {
    if (fp === undefined || check === undefined || unknownMask === undefined || Number.isNaN(fp)) return;
    if (!this.#writes || this.#unwritable || !memoizableKey(listing.key)) return;
    if (this.#writer === undefined) {
      const sink = this.#store.begin(this.#feedId);
      if (sink === undefined) {
        this.#unwritable = true;
        return;
      }
      this.#sink = sink;
      this.#writer = new MemoWriter((chunk) => sink.write(chunk));
    }
    this.#writer.add(fp, check, listing, unknownMask);
  }

  /** What the run's record store keeps of a known record: its fields. */
  stored(item: KnownItem): Listing {
    this.#used = true;
    const { values, names } = item;
    if (values !== undefined && names !== undefined) {
      this.#names ??= names;
      if (names === this.#names) return { [VALUES]: values } as unknown as Listing;
    }
    return { [FIELDS]: item.fields } as unknown as Listing;
  }

  /** A known record's fields as `stored` kept them. */
  #fieldsOf(record: Listing): RawFields | undefined {
    const kept = record as unknown as Record<string, unknown>;
    const values = kept[VALUES] as string[] | undefined;
    const names = this.#names;
    if (values === undefined || names === undefined) return kept[FIELDS] as RawFields | undefined;
    // Own properties whatever the names (a column named `__proto__` too), as JSON.parse makes them.
    return Object.fromEntries(names.map((name, i) => [name, values[i]]));
  }

  /**
   * A record read back from the run's store: a known record's listing is made again, tags and all,
   * and checked against the key, mask and digest the memo gave it. A memo found wrong is deleted
   * (the listing made now is the one written; the next run maps every record).
   */
  loaded(record: Listing, ref: number): Listing {
    const fields = this.#fieldsOf(record);
    if (fields === undefined) return record;
    const listing = this.#mapping ? listingOfFields(this.#mapping, fields) : undefined;
    if (listing === undefined) {
      this.#forget('a record it knew is not a valid listing');
      throw new SnapshotError(
        `the record memo of feed ${this.#feedId} was wrong about a record (no longer a valid listing); it is deleted: run again`,
      );
    }
    const tagged = withTags(listing, this.#feedId, this.#tags);
    const desired = this.#desired;
    if (desired !== undefined) {
      const { mask, digest } = ownFields(tagged);
      const key = keyOf(tagged, this.#keyField) ?? '';
      if (mask !== desired.maskAt(ref) || digest !== desired.digestAt(ref) || key !== desired.keyAt(ref))
        this.#forget(`its entry for key ${key} does not match the record`);
    }
    return tagged;
  }

  #forget(why: string): void {
    if (this.#wrong) return;
    this.#wrong = true;
    // A dry run (and `plan`) changes nothing, not even the memo: the next run that writes finds it wrong too.
    if (this.#writes) this.#store.remove(this.#feedId);
    this.#logger?.warn(
      feedField(this.#logger, this.#feedId),
      `the record memo was wrong (${why}): deleted; the next run maps every record`,
    );
  }

  /**
   * The feed is read: the memo this run wrote replaces the last one. As old as the memo it used, if
   * it used one. Returns the header of the memo now kept (undefined when none was written whole).
   */
  commit(): MemoHeader | undefined {
    const sink = this.#sink;
    const writer = this.#writer;
    this.#sink = undefined;
    this.#writer = undefined;
    if (sink === undefined || writer === undefined) return undefined;
    const builtAt = this.#used && this.#builtAt !== undefined ? this.#builtAt : this.#now;
    const header = writer.finish(this.#seed, builtAt);
    return sink.commit(header) ? memoHeaderOf(header) : undefined;
  }

  /** The store the memo is kept in, and the feed's id in it. */
  get where(): { store: MemoStore; feedId: string } {
    return { store: this.#store, feedId: this.#feedId };
  }

  /** The run ended before its feed was read whole (failed, skipped, unchanged): the last memo stays. */
  abort(): void {
    this.#sink?.abort();
    this.#sink = undefined;
    this.#writer = undefined;
  }
}
