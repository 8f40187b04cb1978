import pLimit from 'p-limit';
import type { ListPage, PlatformClient } from '../api/index.ts';
import { canonicalizeRemote, type RemoteListing } from '../api/index.ts';
import { FeedSyncError } from '../errors.ts';
import { countDigitsAt, lastVirtualCount, VIRTUAL_COUNT } from './page-memo.ts';

/** A page read that would not end: the snapshot is refused rather than used partial. */
export class SnapshotError extends FeedSyncError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { kind: 'SNAPSHOT', code: 'E_SNAPSHOT', cause: options?.cause });
  }
}

export interface SnapshotOptions {
  chatbot: string;
  /** Requested PageSize. */
  pageSize: number;
  /** Pages read at once after the first. */
  concurrency: number;
  /** Hard ceiling of pages; reaching it is an error. Default 10,000. */
  maxPages?: number;
  signal?: AbortSignal;
  /**
   * How many listings the chatbot is expected to hold (the last run's count): the pages it implies
   * are asked for with the first one, not once it answers (`readPages`). A guess: what the first
   * page says overrules it.
   */
  expectedCount?: number;
}

/** Every listing of a chatbot (in canonical form, or what a `SnapshotSink` made of them), and what the read saw. */
export interface Snapshot<L extends { length: number } = RemoteListing[]> {
  listings: L;
  /** `VirtualCount` of the first page. */
  virtualCount: number | undefined;
  requestedPageSize: number;
  /** The page size the server actually used (it may cap the request silently). */
  pageSize: number;
  pages: number;
  /** Pages the page memo knew by their bytes (`page-memo.ts`): absent where none was kept. */
  pagesKnown?: number;
  /**
   * Pages the decode thread wrote to its spill file: those holding a listing the run read back (to
   * update it, or to tell what changed), and any that waited past its held budget. Absent when
   * the pages were not decoded in the thread.
   */
  pagesWritten?: number;
  /** The listings changed under the read: IDs seen twice, counts that disagree. */
  drift: string[];
  /**
   * Whether the listings may have moved under the read: a line of `drift` that is not only what the
   * read learned of the server (a page size it caps silently, a page it repeats), or no VirtualCount
   * to check the read against. Pages read while the feed was are read again when they may have
   * moved (`prepare-run.ts`).
   */
  moved: boolean;
}

/**
 * Where a snapshot puts what it keeps of each listing, page by page as the pages arrive (in any
 * order). A run keeps a few numbers per listing in columns, not the listing (`RemoteEntries`).
 */
export interface SnapshotSink<L extends { length: number }> {
  /** Keep one listing (canonical form) of page `page` (from 1). */
  keep(page: number, remote: RemoteListing): void;
  /** What was kept, in ID order; an ID read on two pages is kept once (the earlier page's). `twice`: how many were dropped. */
  finish(): { listings: L; twice: number };
}

/**
 * Read every page of RealEstateList. The first page tells `VirtualCount` and the real page size;
 * the rest are then read concurrently (the client's limiter bounds them). A full last page means the
 * list grew under the read, so reading carries on one page at a time until a short or empty page.
 */
export function readSnapshot(client: PlatformClient, options: SnapshotOptions): Promise<Snapshot>;
/**
 * The same, keeping of each listing only what `sink` makes of it (see `RemoteEntries`). Pages are
 * dropped as soon as they are kept.
 */
export function readSnapshot<L extends { length: number }>(
  client: PlatformClient,
  options: SnapshotOptions,
  sink: SnapshotSink<L>,
): Promise<Snapshot<L>>;
export async function readSnapshot<L extends { length: number }>(
  client: PlatformClient,
  options: SnapshotOptions,
  sink: SnapshotSink<L> = listSink() as unknown as SnapshotSink<L>,
): Promise<Snapshot<L>> {
  const maxPages = options.maxPages ?? 10_000;
  // Each page is canonicalized (and kept) as it arrives, while the next ones are still on the wire.
  const read = async (page: number): Promise<PageRead<ListPage>> => {
    const raw = await readPage(client, options, page, maxPages);
    const span = spanOf(raw.List, (record) => Number(record.ID));
    return { length: raw.List.length, virtualCount: raw.VirtualCount, page: raw, span };
  };
  const keep = (raw: ListPage, page: number) => {
    for (const record of raw.List) sink.keep(page, canonicalizeRemote(record));
  };
  const pages = await readPages(read, keep, options);
  return { ...collect(sink.finish(), pages), ...pages.sizes };
}

/** A page as `readPages` reads it: its length and VirtualCount, and whatever a caller keeps of it. */
export interface PageRead<P> {
  length: number;
  virtualCount: number | undefined;
  page: P;
  /** The IDs of its first and last listing, where known: a page the server repeats is found by them. */
  span?: readonly [number, number] | undefined;
}

/** The first and last ID of a page's listings (undefined for an empty page). */
export function spanOf<T>(
  listings: ArrayLike<T>,
  idOf: (listing: T) => number,
): readonly [number, number] | undefined {
  const { length } = listings;
  return length === 0 ? undefined : [idOf(listings[0] as T), idOf(listings[length - 1] as T)];
}

/** What `readPages` saw: each page's length in page order, the page size used, and what moved. */
export interface PagesRead {
  lengths: number[];
  virtualCount: number | undefined;
  drift: string[];
  /** What the read learned of the server (a silent page-size cap, a page it repeats), not movement. */
  notes: string[];
  /** Listings on the pages a server repeated (kept once, by ID): not listings read twice by movement. */
  repeatedListings: number;
  sizes: { requestedPageSize: number; pageSize: number; pages: number };
}

/**
 * How `readPages` asks for a page. For the first page, `ahead` may be called with the `VirtualCount`
 * the answer carries, as soon as it is known and before the page is decoded (`virtualCountOf`). A
 * page read ahead is given a `signal` that says the read no longer wants it. A reader may call
 * `answered` once the answer's bytes are in, before it decodes them: the page then no longer
 * counts among the `concurrency` on the wire.
 */
export type PageReader<P> = (
  page: number,
  options?: { ahead?: (virtualCount: number) => void; signal?: AbortSignal; answered?: () => void },
) => Promise<PageRead<P>>;

/**
 * The pages of RealEstateList, read by `read` and handed to `keep` as they arrive (in any order).
 * The first page tells `VirtualCount` and the real page size; the rest are then read concurrently
 * (the client's limiter bounds them). A full last page means the list grew under the read, so
 * reading carries on one page at a time until a short or empty page.
 *
 * Read ahead: when the first answer's `VirtualCount` is known before its page is decoded (`ahead`),
 * the pages it implies at the requested size are asked for at once, while the first is decoded (a
 * no-op's critical path is the first page, then the rest). Whenever the decoded first page agrees,
 * each is a request the read makes anyway, with the same body: a server that caps PageSize silently
 * answers PageNumber n at its own size, which is the page the read asks for next, and the capped size
 * only means more pages, asked for once the first is decoded. When it does not (the first page fails,
 * is empty or short, or its count is another), the pages it does not want are called off at once:
 * those waiting for a slot are never sent, those on the wire are aborted, and none is kept. What
 * is asked for for nothing is what went out while the first page was decoded (`concurrency` at a
 * time), and only when the first page contradicts its own bytes.
 */
export async function readPages<P>(
  read: PageReader<P>,
  keep: (page: P, number: number) => Promise<void> | void,
  options: Pick<SnapshotOptions, 'pageSize' | 'concurrency' | 'maxPages' | 'expectedCount'>,
): Promise<PagesRead> {
  const maxPages = options.maxPages ?? 10_000;
  const requested = options.pageSize;
  const concurrency = Math.max(1, options.concurrency);
  // `concurrency` pages on the wire, each until its answer is in (`answered`) or it settles; twice
  // that read at once, so pages waiting to be decoded (behind other pages) are bounded too.
  const wire = pLimit(concurrency);
  const held = pLimit(2 * concurrency);
  const limit = (page: number, signal?: AbortSignal) =>
    held(
      () =>
        new Promise<PageRead<P>>((resolve, reject) => {
          void wire(
            () =>
              new Promise<void>((answered) => {
                if (signal?.aborted) {
                  answered();
                  reject(signal.reason);
                  return;
                }
                read(page, { ...(signal ? { signal } : {}), answered })
                  .then(resolve, reject)
                  .finally(answered);
              }),
          );
        }),
    );
  /** Pages asked for ahead and not taken yet, each with what calls it off. */
  const early = new Map<number, { got: Promise<PageRead<P>>; stop: AbortController }>();
  /** The last page asked for ahead: by the last run's count, then by the first answer's. */
  let askedThrough = 1;
  let counted = false;
  const ahead = (virtualCount: number, guess = false) => {
    if (counted || requested <= 0 || !Number.isSafeInteger(virtualCount) || virtualCount < 0) return;
    counted = !guess;
    const expected = Math.ceil(virtualCount / requested);
    if (expected > maxPages) return;
    // The first answer's count is lower than the guess: what it does not imply is not sent (page 2
    // stays until the first page is decoded: a short first page may need it to find a silent cap).
    if (!guess) callOff(Math.max(3, expected + 1));
    for (let page = askedThrough + 1; page <= expected; page++) {
      const stop = new AbortController();
      const got = limit(page, stop.signal);
      // Awaited when used; one called off (or failing after the run ended) is not unhandled.
      got.catch(() => {});
      early.set(page, { got, stop });
      askedThrough = page;
    }
  };
  /** Call off the pages read ahead from `from` on: the read will not ask for them. */
  const callOff = (from: number) => {
    for (const [page, { stop }] of early) {
      if (page < from) continue;
      stop.abort(new SnapshotError(`page ${page} was read ahead and is not wanted`));
      early.delete(page);
    }
  };
  /** Page `page`: the one asked for ahead, or a new read. */
  const pageOf = (page: number) => {
    const asked = early.get(page);
    early.delete(page);
    return asked?.got ?? limit(page);
  };
  /** Each page's span (`PageRead.span`) and length, by page number. */
  const spans: (readonly [number, number] | undefined)[] = [];
  const lengthOf: number[] = [];
  const keepPage = async (got: PageRead<P>, page: number) => {
    spans[page] = got.span;
    lengthOf[page] = got.length;
    await keep(got.page, page);
    return got.length;
  };
  /** Page `page` holds the listings of the page before it, first to last: a server repeating a page. */
  const repeats = (page: number) => {
    const [span, before] = [spans[page], spans[page - 1]];
    return span !== undefined && before !== undefined && span[0] === before[0] && span[1] === before[1];
  };
  try {
    // The first page is asked for first; with it, the pages the last run's count implies.
    const firstRead = read(1, { ahead: (count) => ahead(count) });
    if (options.expectedCount !== undefined) ahead(options.expectedCount, true);
    const first = await firstRead;
    // An empty first page of a list that says it holds listings would read as an empty chatbot,
    // and every listing would be created again: refused (a PageSize above what the platform serves
    // may answer so).
    if (first.length === 0 && first.virtualCount !== undefined && first.virtualCount > 0)
      throw new SnapshotError(
        `the first page of listings is empty although VirtualCount is ${first.virtualCount}; ` +
          `refusing a snapshot that would look empty (is api.pageSize ${requested} above what the platform serves?)`,
      );
    const firstKept = keepPage(first, 1);
    // Awaited below; a failure meanwhile must not count as unhandled while the other pages are read.
    firstKept.catch(() => {});
    const virtualCount = first.virtualCount;
    const firstLength = first.length;
    const drift: string[] = [];
    // Capped silently: fewer than asked although more exist. The first page's length is the real size.
    const capped = firstLength < requested && virtualCount !== undefined && virtualCount > firstLength;
    let pageSize = capped ? firstLength : requested;
    const more = firstLength >= pageSize && pageSize > 0;
    const expected = more && virtualCount !== undefined ? Math.ceil(virtualCount / pageSize) : 1;
    // A short first page whose VirtualCount does not say how many there are (none, or fewer than the
    // page holds) may be a server's silent cap: the second page tells. A server that capped answers it
    // with more listings, and every page is then read at the first page's size. A count equal to the
    // page's length is the whole list of a small chatbot, or a capping server's count of its page: the
    // second page tells too, unless the last run left exactly as many listings (a small chatbot's
    // everyday run costs no extra call; a first run, or one after the chatbot changed, does).
    const small = options.expectedCount === firstLength;
    const unsure =
      firstLength > 0 &&
      firstLength < requested &&
      (virtualCount === undefined || virtualCount < firstLength || (virtualCount === firstLength && !small));
    // What the decoded first page does not want of what was read ahead (a page past VirtualCount is
    // asked for again only if the read goes on past it; the second is wanted when `unsure`). A full
    // first page without a count is followed page after page: what was asked for ahead is read in turn.
    if (virtualCount !== undefined || !more) callOff(Math.max(expected, unsure ? 2 : 1) + 1);
    let rest: number[] = [];
    if (more) {
      if (expected > maxPages) throw pageLimit(maxPages, virtualCount);
      rest = await Promise.all(
        Array.from({ length: Math.max(0, expected - 1) }, (_, i) =>
          pageOf(i + 2).then((got) => keepPage(got, i + 2)),
        ),
      );
    }
    // The length of each page, in page order.
    const pages: number[] = [await firstKept, ...rest];
    /** What the read learned of the server, not movement (`PagesRead.notes`). */
    const notes: string[] = [];
    if (unsure) {
      const second = await keepPage(await pageOf(2), 2);
      if (second > 0) {
        pageSize = firstLength;
        pages.push(second);
        notes.push(
          `the platform answered ${firstLength} listings a page where ${requested} were asked, ` +
            `${virtualCount === undefined ? 'without a VirtualCount' : `with VirtualCount ${virtualCount}`}: ` +
            'every page was read until a short one',
        );
      }
    }
    // Read on while the last page is full, whatever VirtualCount said: the list grew under the read,
    // VirtualCount was not given, or it is low by whole pages, which would leave listings unread (and
    // created again). A count that is right costs one empty page when it is a multiple of the size.
    // The first page past the count is read alone; once one is full, `concurrency` at a time.
    let width = virtualCount === undefined ? concurrency : 1;
    /** Pages past VirtualCount that held listings. */
    const past: number[] = [];
    const beyond = virtualCount === undefined ? 0 : Math.ceil(virtualCount / Math.max(1, pageSize));
    /**
     * A server that answers past the end with its last page: the first of two pages in a row that
     * each hold the listings of the page before them (one such page may be movement: exactly a page of
     * listings added ahead of the read between two page reads). Its listings, and those of every page
     * read after it, are the last page's, kept once by ID.
     */
    let repeated: number | undefined;
    let repeatedListings = 0;
    /** The last page read that held the page before it, while one more is awaited to confirm it. */
    let repeatAt: number | undefined;
    while (repeated === undefined && pageSize > 0 && (pages.at(-1) ?? 0) >= pageSize) {
      if (pages.length >= maxPages) throw pageLimit(maxPages, virtualCount);
      const from = pages.length + 1;
      const batch = Array.from({ length: Math.min(width, maxPages - pages.length) }, (_, i) => from + i);
      const lengths = await Promise.all(batch.map((page) => pageOf(page).then((got) => keepPage(got, page))));
      for (const [i, length] of lengths.entries()) {
        const page = batch[i] as number;
        if (length > 0 && repeats(page)) {
          if (repeatAt === page - 1) {
            repeated = repeatAt;
            // Every page read from the first repeat on, this batch's included, held the same listings.
            for (let p = repeatAt; p < from + lengths.length; p++) repeatedListings += lengthOf[p] ?? 0;
            break;
          }
          repeatAt = page;
        } else repeatAt = undefined;
        pages.push(length);
        if (virtualCount !== undefined && length > 0 && page > beyond) past.push(page);
      }
      width = concurrency;
    }
    if (repeated !== undefined) {
      const first = repeated;
      pages.length = first - 1;
      while (past.length > 0 && (past.at(-1) as number) >= first) past.pop();
      notes.push(
        `pages ${first} and on repeated page ${first - 1} (the same listings): the platform answers past ` +
          'the end with its last page; the read stopped there',
      );
    }
    if (past.length === 1) drift.push(`page ${past[0]} was read beyond VirtualCount ${virtualCount}`);
    else if (past.length > 1)
      drift.push(
        `pages ${past[0]} to ${past.at(-1)} (${past.length}) were read beyond VirtualCount ${virtualCount}`,
      );
    // The empty pages that said the list ended are not pages of it.
    while (pages.length > 1 && pages.at(-1) === 0) pages.pop();
    return {
      lengths: pages,
      virtualCount,
      drift,
      notes,
      repeatedListings,
      sizes: { requestedPageSize: requested, pageSize, pages: pages.length },
    };
  } finally {
    // Read or failed: nothing read ahead goes on (the first page failed, or another did).
    held.clearQueue();
    wire.clearQueue();
    callOff(2);
  }
}

/**
 * The `VirtualCount` of a list answer, read off its bytes without parsing them (`readPages`' read
 * ahead), whole or in the pieces it arrived in: the last `"VirtualCount"` key, its colon and a
 * whole number, bare or quoted (as the `Data`
 * schema takes it), JSON whitespace allowed; else undefined. A key inside a string value is escaped
 * (`\"VirtualCount\"`), so it never matches. A guess the decoded page confirms or overrules, never
 * a figure a run keeps.
 */
export function virtualCountOf(body: Uint8Array | readonly Uint8Array[]): number | undefined {
  const last = lastVirtualCount(body);
  const digits = last && countDigitsAt(last.near, VIRTUAL_COUNT.length);
  if (last === undefined || digits === undefined || digits.end === digits.start) return undefined;
  const value = Number(last.near.toString('latin1', digits.start, digits.end));
  return Number.isSafeInteger(value) ? value : undefined;
}

async function readPage(
  client: PlatformClient,
  options: SnapshotOptions,
  page: number,
  maxPages: number,
): Promise<ListPage> {
  if (page > maxPages) throw pageLimit(maxPages, undefined);
  return client.listListings(
    { SerialNumber: options.chatbot, PageNumber: page, PageSize: options.pageSize },
    options.signal ? { signal: options.signal } : {},
  );
}

export function pageLimit(maxPages: number, virtualCount: number | undefined): SnapshotError {
  const told = virtualCount === undefined ? '' : ` (VirtualCount ${virtualCount})`;
  return new SnapshotError(
    `listing read exceeds the hard limit of ${maxPages} pages${told}; refusing a partial snapshot`,
  );
}

/** Whole listings, in canonical form: what `readSnapshot` keeps without a sink. */
function listSink(): SnapshotSink<RemoteListing[]> {
  const pages: RemoteListing[][] = [];
  return {
    keep(page, remote) {
      const list = pages[page - 1];
      if (list === undefined) pages[page - 1] = [remote];
      else list.push(remote);
    },
    finish() {
      // A stable sort: of two reads of one ID, the earlier page's stays first.
      const all = pages.flatMap((page) => page ?? []).sort((a, b) => a.id - b.id);
      let kept = 0;
      for (let i = 0; i < all.length; i++) {
        const item = all[i] as RemoteListing;
        if (kept > 0 && (all[kept - 1] as RemoteListing).id === item.id) continue;
        all[kept++] = item;
      }
      const twice = all.length - kept;
      all.length = kept;
      return { listings: all, twice };
    },
  };
}

/** Short pages a snapshot's drift names one by one; the rest are counted in one line. */
const SHORT_PAGES_SHOWN = 3;

/**
 * What the sink kept (in ID order, deduped by ID), and anything that says the list moved while it
 * was read.
 */
export function collect<L extends { length: number }>(
  finished: { listings: L; twice: number },
  read: PagesRead,
): Pick<Snapshot<L>, 'listings' | 'virtualCount' | 'drift' | 'moved'> {
  const { lengths, virtualCount } = read;
  const pageSize = read.sizes.pageSize;
  const drift = [...read.drift];
  // The first few short pages by number, the rest counted (a server that misreports can make hundreds).
  const short = lengths.flatMap((length, index) =>
    index < lengths.length - 1 && length < pageSize ? [index] : [],
  );
  for (const index of short.slice(0, SHORT_PAGES_SHOWN))
    drift.push(`page ${index + 1} returned ${lengths[index]} of ${pageSize} listings`);
  if (short.length > SHORT_PAGES_SHOWN)
    drift.push(
      `${short.length - SHORT_PAGES_SHOWN} more pages returned fewer than ${pageSize} listings ` +
        `(pages ${(short[SHORT_PAGES_SHOWN] as number) + 1} to ${(short.at(-1) as number) + 1})`,
    );
  const { listings } = finished;
  // The listings of pages a server repeated are its last page's again: no movement.
  const twice = finished.twice - read.repeatedListings;
  const kept = listings.length;
  if (twice > 0) drift.push(`${twice} listing ID(s) were returned on two pages`);
  if (virtualCount !== undefined && kept !== virtualCount) {
    drift.push(`VirtualCount said ${virtualCount}, the pages held ${kept} distinct listings`);
  }
  // Without a VirtualCount, listings deleted under the read leave no trace (a shorter last page): a
  // read while the feed was is never known to be whole, and is read again before planning.
  const moved = drift.length > 0 || virtualCount === undefined;
  return { listings, virtualCount, drift: [...read.notes, ...drift], moved };
}
