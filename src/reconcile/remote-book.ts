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
import type { RemotePage } from './remote-page.ts';

/** Bit 30 of a mask (30 returned fields: bits 0–29): the listing is Sold already. */
const SOLD_BIT = 1 << 30;
if (RETURNED_FIELDS.length > 30)
  throw new Error("a remote listing's mask holds at most 30 fields and its Sold bit");

/**
 * Records asked of the decode thread at once, when some listings need theirs: about two pages' worth
 * at the usual page size, so a run where every listing changed parses each page once or twice more,
 * and holds ~6 MB of records at a time.
 */
const RECORDS_AT_ONCE = 2000;

/**
 * The chatbot's listings as the pages arrive, before the feed is known (`RemotePage`s, decoded in
 * the decode thread): in columns, about 40 bytes a listing with its key as bytes, the records in the
 * decode thread's spill file. `join` makes the run's `RemoteEntries` of them once the feed is indexed.
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

  /** Note the listings of page `page` (from 1), in the page's order. */
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
    const columns = new Columns(
      desired,
      {
        ids: this.#ids,
        pages: this.#pages,
        owners: this.#owners,
        ownerNames: this.#ownerNames,
        length: this.length,
      },
      keeper,
    );
    /**
     * Positions whose record is needed: a column, not an array (a rewrite of a million listings
     * wants every one: 8 MB of array, and twice that while it grew, at the run's peak).
     */
    const wanted = int32s();
    let wantedCount = 0;
    for (let i = 0; i < this.length; i++) {
      const text = this.#keys.keyAt(i);
      const key = text === '' ? undefined : text;
      const ref = key === undefined ? -1 : desired.refOf(key);
      columns.place(i, ref, key);
      const mask = this.#masks.get(i);
      if (ref >= 0 && key !== undefined) {
        const mine = desired.listingAt(key, ref);
        if (mine.mask !== mask || mine.digest !== this.#digests.get(i)) wanted.set(wantedCount++, i);
      } else if (sold && (mask & SOLD_BIT) === 0) {
        const owner = this.#ownerNames.nameOf(this.#owners.get(i));
        if (sold.isMine(owner) && sold.mayLeave(key)) wanted.set(wantedCount++, i);
      }
    }
    for (let at = 0; at < wantedCount; at += RECORDS_AT_ONCE) {
      const positions = Array.from({ length: Math.min(RECORDS_AT_ONCE, wantedCount - at) }, (_, n) =>
        wanted.get(at + n),
      );
      const listings = await records(positions.map((i) => this.#refs.get(i)));
      positions.forEach((i, n) => {
        const listing = listings[n] as Partial<Listing>;
        const text = this.#keys.keyAt(i);
        const ref = text === '' ? -1 : desired.refOf(text);
        if (ref >= 0)
          columns.amend(i, { changes: changesAgainst(listing, desired.listingAt(text, ref), loader) });
        else if (sold) columns.amend(i, { sold: { ref: sold.put(listing), from: listing.Status } });
      });
    }
    return columns;
  }
}
