import pLimit from 'p-limit';
import { canonicalizeRemote, type RemoteListing } from '../api/canonicalize.ts';
import type { PlatformClient } from '../api/client.ts';
import type { ListPage } from '../api/schemas.ts';
import { FeedSyncError } from '../errors.ts';

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
  /** Pages are kept only once this settles: what `keep` compares with may still be in the making. */
  ready?: Promise<unknown>;
}

/** Every listing of a chatbot (in canonical form, or what `keep` made of each), and what the read saw. */
export interface Snapshot<T extends { id: number } = RemoteListing> {
  listings: T[];
  /** `VirtualCount` of the first page. */
  virtualCount: number | undefined;
  requestedPageSize: number;
  /** The page size the server actually used (it may cap the request silently). */
  pageSize: number;
  pages: number;
  /** The listings changed under the read: IDs seen twice, counts that disagree. */
  drift: string[];
}

/**
 * Read every page of RealEstateList. The first page tells `VirtualCount` and the real page size;
 * the rest are then read concurrently (the client's limiter bounds them). A full last page means the
 * list grew under the read, so reading carries on one page at a time until a short or empty page.
 */
export function readSnapshot(client: PlatformClient, options: SnapshotOptions): Promise<Snapshot>;
/**
 * The same, keeping of each listing only what `keep` makes of it (a run keeps a compact entry per
 * listing, not the listing: see `remoteEntryOf`). Pages are dropped as soon as they are kept.
 */
export function readSnapshot<T extends { id: number }>(
  client: PlatformClient,
  options: SnapshotOptions,
  keep: (remote: RemoteListing) => T,
): Promise<Snapshot<T>>;
export async function readSnapshot<T extends { id: number }>(
  client: PlatformClient,
  options: SnapshotOptions,
  keep: (remote: RemoteListing) => T = (remote) => remote as unknown as T,
): Promise<Snapshot<T>> {
  const maxPages = options.maxPages ?? 10_000;
  // Each page is canonicalized (and kept) as it arrives, while the next ones are still on the wire:
  // the CPU work of a no-op run overlaps its waiting instead of following it. Only the read holds a
  // slot of `concurrency`; keeping waits for `ready`, never the reads.
  const keepPage = async (raw: ListPage) => {
    await options.ready;
    return keptPage(raw, keep);
  };
  const read = (page: number) => readPage(client, options, page, maxPages);
  const firstRaw = await read(1);
  const firstKept = keepPage(firstRaw);
  // Awaited below; a failure meanwhile must not count as unhandled while the other pages are read.
  firstKept.catch(() => {});
  const virtualCount = firstRaw.VirtualCount;
  const firstLength = firstRaw.List.length;
  const requested = options.pageSize;
  // Capped silently: fewer than asked although more exist. The first page's length is the real size.
  const capped = firstLength < requested && virtualCount !== undefined && virtualCount > firstLength;
  const pageSize = capped ? firstLength : requested;
  const drift: string[] = [];
  let rest: { List: T[] }[] = [];
  if (firstLength >= pageSize && pageSize > 0) {
    const expected = virtualCount === undefined ? 1 : Math.ceil(virtualCount / pageSize);
    if (expected > maxPages) throw pageLimit(maxPages, virtualCount);
    const limit = pLimit(Math.max(1, options.concurrency));
    rest = await Promise.all(
      Array.from({ length: Math.max(0, expected - 1) }, (_, i) => limit(() => read(i + 2)).then(keepPage)),
    );
  }
  const pages: T[][] = [(await firstKept).List, ...rest.map((page) => page.List)];
  if (firstLength >= pageSize && pageSize > 0) {
    // Keep reading while the last page is full and should not have been (the list grew under the
    // read), or while VirtualCount was not given. A full last page that VirtualCount predicted ends it.
    const grew = () => virtualCount === undefined || pages.length * pageSize > virtualCount;
    while ((pages.at(-1)?.length ?? 0) >= pageSize && grew()) {
      if (pages.length >= maxPages) throw pageLimit(maxPages, virtualCount);
      const next = await keepPage(await read(pages.length + 1));
      pages.push(next.List);
      if (virtualCount !== undefined && next.List.length > 0)
        drift.push(`page ${pages.length} was read beyond VirtualCount ${virtualCount}`);
    }
  }
  return {
    ...collect(pages, pageSize, virtualCount, drift),
    requestedPageSize: requested,
    pageSize,
    pages: pages.length,
  };
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

function pageLimit(maxPages: number, virtualCount: number | undefined): SnapshotError {
  const told = virtualCount === undefined ? '' : ` (VirtualCount ${virtualCount})`;
  return new SnapshotError(
    `listing read exceeds the hard limit of ${maxPages} pages${told}; refusing a partial snapshot`,
  );
}

/** A page with what is kept of each record in canonical form. */
function keptPage<T>(
  page: ListPage,
  keep: (remote: RemoteListing) => T,
): { List: T[]; VirtualCount: number | undefined } {
  const list = new Array<T>(page.List.length);
  for (let i = 0; i < list.length; i++) list[i] = keep(canonicalizeRemote(page.List[i]!));
  return { List: list, VirtualCount: page.VirtualCount };
}

/**
 * Dedupe by ID (the first read wins) and note anything that says the list moved while it was read.
 * The listings come back in ID order; no map of IDs is built (at 300k listings it would be tens of MB).
 */
function collect<T extends { id: number }>(
  pages: T[][],
  pageSize: number,
  virtualCount: number | undefined,
  drift: string[],
) {
  pages.forEach((page, index) => {
    const isLast = index === pages.length - 1;
    if (!isLast && page.length < pageSize)
      drift.push(`page ${index + 1} returned ${page.length} of ${pageSize} listings`);
  });
  // A stable sort: of two reads of one ID, the earlier page's stays first.
  const all = pages.flat().sort((a, b) => a.id - b.id);
  let kept = 0;
  for (let i = 0; i < all.length; i++) {
    const item = all[i] as T;
    if (kept > 0 && (all[kept - 1] as T).id === item.id) continue;
    all[kept++] = item;
  }
  const twice = all.length - kept;
  all.length = kept;
  if (twice > 0) drift.push(`${twice} listing ID(s) were returned on two pages`);
  if (virtualCount !== undefined && kept !== virtualCount) {
    drift.push(`VirtualCount said ${virtualCount}, the pages held ${kept} distinct listings`);
  }
  return { listings: all, virtualCount, drift };
}
