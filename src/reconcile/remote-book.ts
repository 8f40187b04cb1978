import { RETURNED_FIELDS } from '../api/index.ts';
import { KeyArena } from '../key-arena.ts';
import type { Listing } from '../normalize/index.ts';
import { float64s, int32s } from '../number-column.ts';
import type { DesiredLoader } from './desired.ts';
import type { DesiredIndex } from './desired-index.ts';
import { OwnerNames } from './owner-names.ts';
import type { ChangeKeeper, SoldRecords } from './remote-entries.ts';
import { Columns } from './remote-entries.ts';
import { changesAgainst } from './remote-entry.ts';
import { PAGE_SPAN, type RemotePage } from './remote-page.ts';

/** Bit 30 of a mask (30 returned fields: bits 0–29): the listing is Sold already. */
const SOLD_BIT = 1 << 30;
if (RETURNED_FIELDS.length > 30)
  throw new Error("a remote listing's mask holds at most 30 fields and its Sold bit");

/**
 * Records asked of the decode thread at once, when some listings need theirs: about a page's worth
 * at the usual page size, so a run where every listing changed parses each page once or twice more.
 * Two batches are held at a time, one compared while the next is parsed (`join`): ~6 MB of records,
 * as many as one batch of 2000 held before.
 */
const RECORDS_AT_ONCE = 1000;

/** Pages joined with the feed: those none of whose records `join` will ask for, and the others. */
export interface JudgedPages {
  unwanted: readonly number[];
  wanted: readonly number[];
}

/**
 * The chatbot's listings as the pages arrive, before the feed is known (`RemotePage`s, decoded in
 * the decode thread): in columns, about 40 bytes a listing with its key as bytes, the records in the
 * decode thread's spill file. Once the feed is indexed (`attach`) each page is compared with it as it
 * arrives; `join` compares the rest and makes the run's `RemoteEntries` of them.
 */
export class RemoteBook {
  readonly #ids = float64s();
  readonly #masks = int32s();
  readonly #digests = float64s();
  /** Where each listing's record is in the decode thread (`RemotePage.refs`). */
  readonly #refs = float64s();
  readonly #pages = int32s();
  /** Each listing's key, by its position (`''`: none). */
  readonly #keys = new KeyArena();
  readonly #ownerNames = new OwnerNames();
  /** By `#ownerNames.numberOf`; 0: untagged. */
  readonly #owners = int32s();
  length = 0;
  /** The feed the listings are joined with as they arrive, once it is indexed (`attach`). */
  #feed: { desired: DesiredIndex; sold: SoldRecords | undefined } | undefined;
  /** Listings joined so far: positions below it have their record in the feed in `#refsInFeed`. */
  #joined = 0;
  /** Each listing's record in the feed (-1: none), handed to `Columns` as it is. */
  readonly #refsInFeed = int32s();
  /** Positions whose record is needed (a column: a rewrite of a million wants every one). */
  #wanted = int32s();
  #wantedCount = 0;
  /** Told, as pages are joined, which of them (their records' numbers) have records to read back. */
  readonly #judged: ((pages: JudgedPages) => void) | undefined;

  /**
   * `judged`: told, as the listings are joined with the feed, of the pages (`RemotePage.refs`' page
   * numbers) none of whose listings' records `join` will ask for, so the decode thread need not
   * keep them, and of those it will, which it may write out now. Every listing of a page is added,
   * and joined, at once.
   */
  constructor(options: { judged?: (pages: JudgedPages) => void } = {}) {
    this.#judged = options.judged;
  }

  /** Note the listings of page `page` (from 1), in the page's order; joined at once once attached. */
  add(page: number, decoded: RemotePage): void {
    for (let j = 0; j < decoded.length; j++) {
      const i = this.length++;
      this.#ids.set(i, decoded.ids[j]!);
      // The mask takes 30 bits: the 31st says the listing is Sold already.
      this.#masks.set(i, decoded.masks[j]! | (decoded.sold[j] === 1 ? SOLD_BIT : 0));
      this.#digests.set(i, decoded.digests[j]!);
      this.#refs.set(i, decoded.refs[j]!);
      this.#pages.set(i, page);
      this.#keys.add(decoded.keys[j]!);
      const owner = decoded.owners[j]!;
      if (owner !== '') this.#owners.set(i, this.#ownerNames.numberOf(owner));
    }
    if (this.#feed !== undefined) this.#joinUpTo(this.length);
  }

  /**
   * The feed, indexed: the listings read so far are compared with it now, and each page from now on
   * as it arrives, so that once the last page is read only its listings are left to join.
   */
  attach(desired: DesiredIndex, sold?: SoldRecords): void {
    if (this.#feed !== undefined) throw new Error('RemoteBook: attached twice');
    this.#feed = { desired, sold };
    this.#joinUpTo(this.length);
  }

  /**
   * Positions `#joined…end-1`: each listing's record in the feed, and whether its record is needed.
   * One that sets the fields the feed's sets, with their digest, is unchanged at once; any other is
   * compared whole (`join`). So is a listing that `gone.action: markSold` may mark Sold.
   */
  #joinUpTo(end: number): void {
    const { desired, sold } = this.#feed!;
    // The page being joined (its records' number), and whether one of its records is wanted.
    const unwanted: number[] = [];
    const wanted: number[] = [];
    let page = -1;
    let wantedBefore = this.#wantedCount;
    for (let i = this.#joined; i < end; i++) {
      const refPage = Math.floor(this.#refs.get(i) / PAGE_SPAN);
      if (refPage !== page) {
        if (page >= 0) (this.#wantedCount === wantedBefore ? unwanted : wanted).push(page);
        page = refPage;
        wantedBefore = this.#wantedCount;
      }
      const text = this.#keys.keyAt(i);
      const ref = text === '' ? -1 : desired.refOf(text);
      this.#refsInFeed.set(i, ref);
      const mask = this.#masks.get(i);
      if (ref >= 0) {
        if (desired.maskAt(ref) !== mask || desired.digestAt(ref) !== this.#digests.get(i))
          this.#wanted.set(this.#wantedCount++, i);
      } else if (sold && (mask & SOLD_BIT) === 0) {
        const owner = this.#ownerNames.nameOf(this.#owners.get(i));
        if (sold.isMine(owner) && sold.mayLeave(text === '' ? undefined : text))
          this.#wanted.set(this.#wantedCount++, i);
      }
    }
    if (page >= 0) (this.#wantedCount === wantedBefore ? unwanted : wanted).push(page);
    this.#joined = end;
    if (page >= 0) this.#judged?.({ unwanted, wanted });
  }

  /**
   * The run's `RemoteEntries`: each listing compared with the feed's listing of its key. One that
   * sets the fields the feed's sets, with their digest, is unchanged at once; any other is compared
   * whole, its record asked of the decode thread (`records`), as `remoteEntries` compares one as it
   * arrives. So is a listing that `gone.action: markSold` may mark Sold.
   */
  async join(
    desired: DesiredIndex,
    loader: DesiredLoader,
    records: (refs: readonly number[]) => Promise<Partial<Listing>[]>,
    sold?: SoldRecords,
    keeper?: ChangeKeeper,
  ): Promise<Columns> {
    if (this.#feed === undefined) this.attach(desired, sold);
    else if (this.#feed.desired !== desired || this.#feed.sold !== sold)
      throw new Error('RemoteBook: joined with another feed than the one attached');
    else this.#joinUpTo(this.length);
    const columns = new Columns(
      desired,
      {
        ids: this.#ids,
        pages: this.#pages,
        owners: this.#owners,
        ownerNames: this.#ownerNames,
        length: this.length,
        refs: this.#refsInFeed,
      },
      keeper,
    );
    // A listing the feed does not have keeps its key (a delete names it).
    for (let i = 0; i < this.length; i++) {
      if (this.#refsInFeed.get(i) >= 0) continue;
      const text = this.#keys.keyAt(i);
      if (text !== '') columns.place(i, -1, text);
    }
    const wanted = this.#wanted;
    const wantedCount = this.#wantedCount;
    const clearable = desired.clearable();
    const batch = (at: number) => {
      const positions = Array.from({ length: Math.min(RECORDS_AT_ONCE, wantedCount - at) }, (_, n) =>
        wanted.get(at + n),
      );
      return { positions, listings: records(positions.map((i) => this.#refs.get(i))) };
    };
    // The next batch is asked for before this one is compared: the decode thread parses it meanwhile.
    let next = wantedCount > 0 ? batch(0) : undefined;
    for (let at = 0; next !== undefined; at += RECORDS_AT_ONCE) {
      const { positions } = next;
      const listings = await next.listings;
      next = at + RECORDS_AT_ONCE < wantedCount ? batch(at + RECORDS_AT_ONCE) : undefined;
      // Not left unhandled while this batch is compared (the run fails on the first it awaits).
      next?.listings.catch(() => {});
      positions.forEach((i, n) => {
        const listing = listings[n] as Partial<Listing>;
        const ref = this.#refsInFeed.get(i);
        if (ref >= 0) {
          // Wanted with the feed's mask, its digest differs: not computed again.
          const differs = desired.maskAt(ref) === this.#masks.get(i);
          columns.amend(i, {
            changes: changesAgainst(
              listing,
              desired.listingAt(this.#keys.keyAt(i), ref),
              loader,
              differs,
              clearable,
            ),
          });
        } else if (sold) columns.amend(i, { sold: { ref: sold.put(listing), from: listing.Status } });
      });
    }
    // Its 4 bytes a listing to compare are not held through the writes.
    this.#wanted = int32s();
    this.#wantedCount = 0;
    return columns;
  }
}
