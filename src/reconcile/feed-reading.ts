import { crc32 } from 'node:zlib';
import {
  forEachMemoRow,
  type HeldKey,
  type IngestResult,
  MEMO_HEADER_BYTES,
  MEMO_MAX_AGE_MS,
  type MemoHeader,
  memoSeedOf,
} from '../ingest/index.ts';
import { feedField, type Logger } from '../logger.ts';
import { digestFile, type SourceConfig, type SourceDigest, statFile } from '../sources/index.ts';
import type { DesiredIndex } from './desired-index.ts';
import { scopedMemo } from './memo-files.ts';
import type { MemoStore } from './run-memo.ts';

/**
 * A feed reading: what a run read of a feed, kept for the next run beside the record memo
 * (`record-memo.ts`), so a run that finds the feed's bytes unchanged reads and maps no record. A
 * `path:` feed's bytes are known unchanged by their size and SHA-256 (a feed republished as it
 * was, a forced full compare of an untouched file); a `url:` feed's by its server, when the reading
 * kept the answer's strong ETag and the server answers the next run's conditional request with a
 * 304 about it (`urlReading`): a full compare of an unchanged download then downloads and maps
 * nothing.
 *
 * What is kept is everything the run took from the feed but its listings: the counts, rejections,
 * holds, removals and broken rows, the unknown markers. The listings are the rows of the memo the
 * same run wrote, in feed order: a reading is kept only when that memo holds every listing of the
 * feed once (no key repeated, every record memoized), and it names that memo (seed, age, row count,
 * CRC). So a reading is used only with its own memo, under the same seed (the feed's config, the
 * mapping's rules, feed-sync's code and runtime, the day for `daysSince`), while the memo may be
 * used (a day), and for the same bytes: a pure function of the bytes, computed once.
 *
 * A reused reading has no record to write: a plan that needs one (a listing changed or deleted on
 * the platform) makes a `path:` feed's run read the file's records, checked against the reading
 * (`fillReading`, prepare-run.ts), and a `url:` feed's read the feed after all (`ReadingNeedsRecords`).
 */

/** Kept in the memo store under the feed's id in this scope (`<feed>@reading.memo`). */
const SCOPE = 'reading';
const MAGIC = Buffer.from('FSREAD01', 'latin1');
/** A reading larger than this is not kept (a feed of 100k rejections): its JSON would cost more than the feed. */
const MAX_READING_BYTES = 8 << 20;
const VERSION = 1;

/** What a reading keeps of the run's `IngestResult`: all but the listings and what a reused run makes anew. */
type KeptIngest = Omit<
  IngestResult<never>,
  | 'feedId'
  | 'notModified'
  | 'listings'
  | 'held'
  | 'duplicates'
  | 'mapping'
  | 'sourceDigest'
  | 'reused'
  | 'present'
  | 'pause'
  | 'continues'
  | 'sourceNote'
> & { held: HeldKey[] };

/** A `url:` feed's validators, as the answer read gave them and the run state keeps them. */
export interface UrlValidators {
  etag?: string | undefined;
  lastModified?: string | undefined;
}

interface Reading {
  version: number;
  /** The feed's bytes, as read (a `url:` feed's body as it arrived). */
  source: SourceDigest;
  /** A `url:` feed's validators: the bytes are the same while its server says so (304). */
  validators?: UrlValidators;
  /** The mapping's rules as JSON (`IngestResult.mapping`): with the memo's salt, its seed. */
  rules: string;
  /** The memo whose rows are the feed's listings. */
  memo: MemoHeader;
  ingest: KeptIngest;
}

/** A plan needs a record of a reused reading (or the reading cannot be used): the run reads the feed after all. */
export class ReadingNeedsRecords extends Error {
  /** Why, as the run's info line says it. */
  readonly why: string;
  /** The feed changed after all (its file, while read): `why` is said of it alone, not after "the feed is unchanged, but". */
  readonly changed: boolean;
  constructor(
    why = 'listings on the platform differ from it: reading the feed to write them',
    changed = false,
  ) {
    super('a reused feed reading has no records to write');
    this.why = why;
    this.changed = changed;
  }
}

/**
 * Keep this run's reading of its feed for the next run, or remove the last one when this run's cannot
 * be kept (a reading is a cache: one not kept costs the next run its read). `memo`: the memo the run
 * just wrote (`RunMemo.commit`), undefined if it wrote none.
 */
export function keepReading(
  store: MemoStore,
  feed: { id: string; source: SourceConfig },
  ingest: IngestResult<unknown>,
  memo: MemoHeader | undefined,
): void {
  const feedId = feed.id;
  const readings = scopedMemo(store, SCOPE);
  const json = readingJson(feed.source, ingest, memo);
  const sink = json === undefined ? undefined : readings.begin(feedId);
  if (json === undefined || sink === undefined) {
    readings.remove(feedId);
    return;
  }
  const body = Buffer.from(json, 'utf8');
  const header = Buffer.alloc(MEMO_HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(body.length, 8);
  header.writeUInt32LE(crc32(body), 12);
  sink.write(body);
  if (!sink.commit(header)) readings.remove(feedId);
}

function readingJson(
  config: SourceConfig,
  ingest: IngestResult<unknown>,
  memo: MemoHeader | undefined,
): string | undefined {
  const source = ingest.sourceDigest;
  if (source === undefined || memo === undefined || ingest.notModified || ingest.mode !== 'full')
    return undefined;
  // A `url:` feed's reading is found again only through its server's strong ETag: none, no reading
  // (a weak one names equivalent bytes, not the same; a Last-Modified date alone cannot tell two
  // versions written within its second).
  const validators = config.url === undefined ? undefined : validatorsOf(ingest.sourceState);
  if (config.url !== undefined && !isStrong(validators?.etag)) return undefined;
  if (ingest.present || ingest.pause || ingest.continues || ingest.sourceNote !== undefined) return undefined;
  // The memo's rows are the listings, in order, only when each listing was memoized once.
  if (ingest.stats.duplicates !== 0 || memo.count !== ingest.listings.length) return undefined;
  if (ingest.held.length > 100_000 || ingest.removals.length > 100_000) return undefined;
  const {
    feedId: _f,
    notModified: _n,
    listings: _l,
    held,
    duplicates: _d,
    mapping,
    sourceDigest: _s,
    reused: _r,
    present: _p,
    pause: _pa,
    continues: _c,
    sourceNote: _sn,
    ...kept
  } = ingest;
  const reading: Reading = {
    version: VERSION,
    source,
    ...(validators ? { validators } : {}),
    rules: JSON.stringify(mapping),
    memo,
    ingest: { ...kept, held: [...held] },
  };
  const json = JSON.stringify(reading);
  return json.length <= MAX_READING_BYTES ? json : undefined;
}

/** What `reuseReading` needs of the run. */
export interface ReuseOptions {
  store: MemoStore;
  feed: { id: string; source: SourceConfig };
  /** The record memo's salt (`MemoReading.salt`). */
  salt: readonly string[];
  now: Date;
  /** The run's listings, filled with the reading's (refs 0 to count - 1). */
  desired: DesiredIndex;
  /** Called once the reading is likely to be used (the file's size matches): the pages can be asked for. */
  onLikely?: () => void;
  /**
   * The file's validator at which this run would skip the feed as unchanged (a scheduled run within
   * `fullCompareEveryHours` of a `conditional` source): no reading is reused then, the run skips.
   */
  skipsAt?: string | undefined;
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
}

/**
 * The last run's reading of the feed, when the feed's file still has the bytes it read and the
 * memo it names is there, whole, under this run's seed and young enough: the listings are added to
 * `desired` (refs 0 to `listings.length - 1`, no record behind them), and the result is the one
 * that run's read gave. Undefined, with nothing added, otherwise.
 */
export async function reuseReading(options: ReuseOptions): Promise<IngestResult<number> | undefined> {
  const { store, feed } = options;
  const path = feed.source.path;
  if (path === undefined || feed.source.url !== undefined) return undefined;
  const reading = readingOf(scopedMemo(store, SCOPE).read(feed.id));
  if (reading === undefined) return undefined;
  const file = await statFile(path);
  if (file === undefined || file.size !== reading.source.size || file.etag === options.skipsAt)
    return undefined;
  if (!usable(reading, options)) return undefined;
  options.onLikely?.();
  const digest = await digestFile(path, file.size, options.signal);
  if (digest === undefined || digest.sha256 !== reading.source.sha256) return undefined;
  return filledFrom(reading, options, { ...reading.ingest.sourceState, etag: file.etag });
}

/** A reading's memo is young enough, and under this run's seed (the config, mapping, code, day). */
function usable(reading: Reading, options: { salt: readonly string[]; now: Date }): boolean {
  const age = options.now.getTime() - reading.memo.builtAt;
  if (!(age >= 0 && age < MEMO_MAX_AGE_MS)) return false;
  return memoSeedOf(options.salt, reading.rules, options.now) === reading.memo.seed;
}

/**
 * The run's listings from the reading's memo (added to `desired`), and the result that reading's run
 * had; undefined, with nothing added, when the memo the reading names is not there whole.
 */
function filledFrom(
  reading: Reading,
  options: Pick<ReuseOptions, 'store' | 'feed' | 'desired' | 'logger'>,
  sourceState: IngestResult<never>['sourceState'],
): IngestResult<number> | undefined {
  const { store, feed, desired } = options;
  const memoBytes = store.read(feed.id);
  if (memoBytes === undefined) return undefined;
  let ref = 0;
  // Only the memo the reading names (a memo written since, or one whose write failed, is not it):
  // its header is compared, and its rows checked whole, before any row is added.
  const header = forEachMemoRow(
    memoBytes,
    (key, mask, digest) => {
      desired.add({ key, mask, digest, ref: ref++ });
    },
    (found) => sameMemo(found, reading.memo),
  );
  if (header === undefined) return undefined;
  const { ingest, source } = reading;
  options.logger?.debug(
    { ...feedField(options.logger, feed.id), sha256: source.sha256 },
    'the feed is unchanged: its last reading reused',
  );
  return {
    ...ingest,
    feedId: feed.id,
    notModified: false,
    listings: Array.from({ length: ref }, (_, i) => i),
    // Every listing is the memo's: all known.
    stats: { ...ingest.stats, known: ref },
    duplicates: [],
    mapping: JSON.parse(reading.rules) as unknown,
    sourceState,
    sourceDigest: source,
    reused: source,
  };
}

/** A `url:` feed's reading the run may compare from, if its server says the feed is unchanged (`urlReading`). */
export interface UrlReading {
  /** The validators to send: the state's, which are the reading's. */
  validators: UrlValidators;
  /**
   * Whether a 304 carrying these validators (`IngestResult.notModifiedBy`) is about the reading's
   * bytes: an ETag of its own (or a Last-Modified) other than the one asked about is not.
   */
  answers(notModifiedBy: UrlValidators | undefined): boolean;
  /**
   * After the server answered 304: the reading's listings added to `desired` and its result, or
   * undefined (nothing added) when its memo is no longer there whole: the run reads the feed then.
   */
  use(desired: DesiredIndex): IngestResult<number> | undefined;
}

/**
 * The last run's reading of a `url:` feed, when the run may ask its server whether the feed changed
 * and compare from the reading if not: the source is `conditional`, the reading kept the answer's
 * validators (a strong ETag among them) and they are the state's (what the request sends), and its
 * memo is young enough and under this run's seed. Undefined otherwise (the run downloads the feed,
 * as without a reading).
 */
export function urlReading(
  options: Pick<ReuseOptions, 'store' | 'feed' | 'salt' | 'now' | 'logger'> & { state: UrlValidators },
): UrlReading | undefined {
  const { store, feed, state } = options;
  // A RESO Web API feed is no download: its replication keeps no reading.
  if (feed.source.url === undefined || !feed.source.conditional || feed.source.format === 'reso')
    return undefined;
  const reading = readingOf(scopedMemo(store, SCOPE).read(feed.id));
  const kept = reading?.validators;
  if (reading === undefined || kept === undefined) return undefined;
  const validators = validatorsOf(state);
  if (
    !isStrong(kept.etag) ||
    validators === undefined ||
    validators.etag !== kept.etag ||
    validators.lastModified !== kept.lastModified
  )
    return undefined;
  if (!usable(reading, options)) return undefined;
  return {
    validators,
    answers: (by) =>
      (by?.etag === undefined || by.etag === validators.etag) &&
      (by?.lastModified === undefined || by.lastModified === validators.lastModified),
    use: (desired) => filledFrom(reading, { ...options, desired }, { ...reading.ingest.sourceState }),
  };
}

/** A strong ETag (`"…"`, not `W/"…"`): the same bytes while it is the same. */
function isStrong(etag: string | undefined): etag is string {
  return etag !== undefined && etag.startsWith('"');
}

/** The validators in a state (or an answer's), undefined when it has none. */
function validatorsOf(state: UrlValidators | undefined): UrlValidators | undefined {
  const etag = state?.etag;
  const lastModified = state?.lastModified;
  if (etag === undefined && lastModified === undefined) return undefined;
  return { ...(etag === undefined ? {} : { etag }), ...(lastModified === undefined ? {} : { lastModified }) };
}

function sameMemo(a: MemoHeader, b: MemoHeader): boolean {
  return a.seed === b.seed && a.builtAt === b.builtAt && a.count === b.count && a.crc === b.crc;
}

/** The reading in `bytes` (`keepReading`), or undefined when they are not one whole reading of this version. */
function readingOf(bytes: Uint8Array | undefined): Reading | undefined {
  if (bytes === undefined || bytes.length < MEMO_HEADER_BYTES) return undefined;
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!MAGIC.equals(b.subarray(0, 8))) return undefined;
  const length = b.readUInt32LE(8);
  const body = b.subarray(MEMO_HEADER_BYTES);
  if (body.length !== length || crc32(body) !== b.readUInt32LE(12)) return undefined;
  try {
    const reading = JSON.parse(body.toString('utf8')) as Reading;
    return reading.version === VERSION ? reading : undefined;
  } catch {
    return undefined;
  }
}
