import {
  canonicalizeRemote,
  listDataSchema,
  parseJson,
  type RemoteListing,
  type RemoteRecord,
  unwrapEnvelope,
} from '../api/index.ts';
import type { Listing } from '../normalize/index.ts';
import { ownFields } from './digest.ts';
import { ownerOf, type TagKeys } from './ownership.ts';
import { keyOf } from './plan.ts';

/** A listing's record is addressed as its page's number × this, plus its place on the page. */
export const PAGE_SPAN = 2 ** 20;

/**
 * One page of RealEstateList as a run keeps it before it knows the feed (issue 23 §2, §3): for each
 * listing a few numbers, its key and owner tag, and its record in a store (`decodePage`). Whether a
 * listing is unchanged needs the feed's listing of its key, which a run knows only once the feed is
 * read; so each listing is digested over the fields it sets itself (`mask`), which is the feed's
 * digest whenever the feed sets the same fields (the everyday no-op), and its whole record is kept
 * for the others (`joinRemote`, remote-book.ts).
 */
export interface RemotePage {
  /** Records on the page (`List.length`). */
  length: number;
  /** `VirtualCount`, as the page gave it. */
  virtualCount: number | undefined;
  ids: Float64Array;
  /** `fieldMask` of each canonical listing: the returned fields it sets. */
  masks: Int32Array;
  /** `fieldsDigest` of each over its own mask. */
  digests: Float64Array;
  /** Where each listing's record is: `page × PAGE_SPAN + its place` (`recordsOf`). */
  refs: Float64Array;
  /** 1 when the listing is Sold already. */
  sold: Uint8Array;
  /** The key of each (`''`: none). */
  keys: string[];
  /** The owner tag of each (`''`: untagged). */
  owners: string[];
  /** Read back from the page memo (`page-memo.ts`), not decoded: these bytes were the last run's too. */
  known?: true;
}

/** The typed arrays of a page: what a thread hands on without a copy. */
export function transferablesOf(page: RemotePage): ArrayBuffer[] {
  return [page.ids, page.masks, page.digests, page.refs, page.sold].map((a) => a.buffer as ArrayBuffer);
}

/** The page's listings, checked as the client checks them (JSON, envelope, `Data` schema). */
function listOf(text: string) {
  return unwrapEnvelope('list', parseJson('list', text), listDataSchema);
}

/**
 * Decode one answer of RealEstateList as the client would (JSON, envelope, `Data` schema: the same
 * errors, so the client's retry policy reads them alike), canonicalize each listing and keep what a
 * run compares of it in the page's columns. The page itself is kept as it came, numbered `page`
 * (the decode thread's `spillBytes`), where `recordsOf` finds a listing's record again. Pure.
 */
export function decodePage(
  text: string,
  keyField: 'MLSNumber' | 'Url',
  tags: TagKeys,
  page: number,
): RemotePage {
  const data = listOf(text);
  const list = data.List;
  const n = list.length;
  if (n >= PAGE_SPAN) throw new Error(`a page of ${n} listings: at most ${PAGE_SPAN - 1} are addressed`);
  const decoded: RemotePage = {
    length: n,
    virtualCount: data.VirtualCount,
    ids: new Float64Array(n),
    masks: new Int32Array(n),
    digests: new Float64Array(n),
    refs: new Float64Array(n),
    sold: new Uint8Array(n),
    keys: new Array<string>(n),
    owners: new Array<string>(n),
  };
  for (let i = 0; i < n; i++) {
    putListing(decoded, i, list[i]!, keyField, tags);
    // Let go of each parsed record once read: a page's records no longer all outlive the young
    // generation's collections during the page, to be promoted and collected again as old.
    list[i] = undefined as never;
    decoded.refs[i] = page * PAGE_SPAN + i;
  }
  return decoded;
}

/** The columns a page keeps of each listing, but its record's place. */
export type ListingColumns = Pick<RemotePage, 'ids' | 'masks' | 'digests' | 'sold' | 'keys' | 'owners'>;

/** One record of a page, as parsed and checked, canonicalized and kept at place `i` of `columns`. */
export function putListing(
  columns: ListingColumns,
  i: number,
  record: RemoteRecord,
  keyField: 'MLSNumber' | 'Url',
  tags: TagKeys,
): void {
  const remote: RemoteListing = canonicalizeRemote(record);
  const listing = remote.listing;
  const own = ownFields(listing);
  columns.ids[i] = remote.id;
  columns.masks[i] = own.mask;
  columns.digests[i] = own.digest;
  columns.sold[i] = listing.Status === 'Sold' ? 1 : 0;
  columns.keys[i] = keyOf(listing, keyField) ?? '';
  columns.owners[i] = ownerOf(listing, tags) ?? '';
}

/** The canonical records of the listings at `places` on a page `decodePage` read (its text). */
export function recordsOf(text: string, places: readonly number[]): Partial<Listing>[] {
  const list = listOf(text).List;
  return places.map((place) => {
    const record = list[place];
    if (record === undefined) throw new RangeError(`no listing ${place} on a page of ${list.length}`);
    return canonicalizeRemote(record).listing;
  });
}
