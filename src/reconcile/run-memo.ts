import { type KnownItem, listingOfFields, type MemoReading, memoBytes, RecordMemo } from '../ingest/index.ts';
import type { CompiledMapping, Listing, RawFields } from '../normalize/index.ts';
import { float64s } from '../number-column.ts';
import type { DesiredIndex } from './desired-index.ts';
import { type TagKeys, withTags } from './ownership.ts';

/**
 * Where record memos are kept between runs, one per feed (`memoFiles`). `stamp` names the code
 * that made them: a memo of other code is never used.
 */
export interface MemoStore {
  read(feedId: string): Uint8Array | undefined;
  /** Replace the feed's memo (its bytes in parts). Never throws: a memo that cannot be kept only costs the next run time. */
  write(feedId: string, parts: readonly Uint8Array[]): void;
  readonly stamp: string;
}

/** Bumped when what a memo entry means changes (the digest, the tags, the key rules). */
const MEMO_VERSION = 'record-memo 1';

/** A known record in the run's record store: its raw fields, mapped again if it is written. */
const FIELDS = '\u0000fields';

/**
 * One run's side of the record memo (`src/ingest/record-memo.ts`): the memo read for the feed, the
 * fingerprint of each record the run keeps, the mapping to make a known record's listing again,
 * and the memo this run leaves for the next.
 */
export class RunMemo {
  readonly reading: { -readonly [K in keyof MemoReading]: MemoReading[K] };
  readonly #store: MemoStore;
  readonly #feedId: string;
  readonly #tags: TagKeys;
  /** Each record's fingerprint, by its number in the run's record store; NaN: not memoized. */
  readonly #fps = float64s();
  #mapping: CompiledMapping | undefined;
  #seed = Number.NaN;

  constructor(store: MemoStore, feed: { id: string }, tags: TagKeys) {
    this.#store = store;
    this.#feedId = feed.id;
    this.#tags = tags;
    const bytes = store.read(feed.id);
    this.reading = {
      memo: bytes === undefined ? undefined : RecordMemo.fromBytes(bytes),
      // The whole feed entry: any change to it (source options, mapping, key) starts a new memo.
      salt: [MEMO_VERSION, store.stamp, feed.id, JSON.stringify(feed), tags.ownerKey, tags.hashKey],
      onMapping: (mapping, seed) => {
        this.#mapping = mapping;
        this.#seed = seed;
      },
    };
  }

  /** Note record `ref`'s fingerprint (NaN or undefined: not memoized). */
  note(ref: number, fp: number | undefined): void {
    this.#fps.set(ref, fp ?? Number.NaN);
  }

  /** What the run's record store keeps of a known record: its fields. */
  stored(item: KnownItem): Listing {
    return { [FIELDS]: item.fields } as unknown as Listing;
  }

  /** A record read back from the run's store: a known record's listing is made again, tags and all. */
  loaded(record: Listing): Listing {
    const fields = (record as unknown as Record<string, RawFields | undefined>)[FIELDS];
    if (fields === undefined) return record;
    const listing = this.#mapping ? listingOfFields(this.#mapping, fields) : undefined;
    // The memo knew it as a valid listing of the same mapping: the same fields cannot fail now.
    if (listing === undefined) throw new Error('a record the memo knew is no longer a valid listing');
    return withTags(listing, this.#feedId, this.#tags);
  }

  /** Leave this run's memo for the next: every record noted with a fingerprint, `count` records in all. */
  save(desired: DesiredIndex, count: number): void {
    // The memo read is done with (the feed is read): its ~40 MB at 1M are not held while this one is made.
    this.reading.memo = undefined;
    if (Number.isNaN(this.#seed)) return;
    const refs: number[] = [];
    for (let ref = 0; ref < count; ref++) {
      const fp = this.#fps.get(ref);
      if (!Number.isNaN(fp) && fp !== 0) refs.push(ref);
    }
    const bytes = memoBytes(this.#seed, refs.length, (i) => {
      const ref = refs[i] as number;
      return {
        fp: this.#fps.get(ref),
        key: desired.keyAt(ref),
        mask: desired.maskAt(ref),
        digest: desired.digestAt(ref),
      };
    });
    this.#store.write(this.#feedId, bytes);
  }
}
