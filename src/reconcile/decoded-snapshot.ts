import type { PlatformClient } from '../api/index.ts';
import { decodePool } from './decode-pool.ts';
import type { MemoEnd } from './decode-protocol.ts';
import type { DesiredLoader } from './desired.ts';
import type { DesiredIndex } from './desired-index.ts';
import type { TagKeys } from './ownership.ts';
import {
  PAGE_MEMO_BYTES_PER_LISTING,
  PAGE_MEMO_HEADER_BYTES,
  PAGE_MEMO_MAX_BYTES,
  PAGE_MEMO_REUSED_MAX_BYTES,
  pageMemoHeader,
  pageMemoId,
  pageMemoSalt,
} from './page-memo.ts';
import type { RemoteEntries } from './plan-types.ts';
import { RemoteBook } from './remote-book.ts';
import type { ChangeKeeper, SoldRecords } from './remote-entries.ts';
import type { RemotePage } from './remote-page.ts';
import { type MemoSink, type MemoStore, runtimeSalt } from './run-memo.ts';
import {
  collect,
  type PageReader,
  type PagesRead,
  pageLimit,
  readPages,
  type Snapshot,
  spanOf,
  virtualCountOf,
} from './snapshot.ts';

export interface DecodedSnapshotOptions {
  chatbot: string;
  keyField: 'MLSNumber' | 'Url';
  tags: TagKeys;
  pageSize: number;
  concurrency: number;
  maxPages?: number;
  signal?: AbortSignal;
  /** The listings the last run found (`SnapshotOptions.expectedCount`): its pages are asked for at once. */
  expectedCount?: number;
  /**
   * The feed's page memo (`page-memo.ts`) in the run's memo store: read, and replaced by this
   * snapshot's pages once it is read whole when `writes` (not a dry run).
   */
  pageMemo?: { store: MemoStore; feedId: string; writes: boolean; maxBytes?: number };
}

/** A snapshot being read in the decode thread: joined with the feed once the feed is indexed. */
export interface DecodedSnapshot {
  /** The listings compared with the feed's (`RemoteBook.join`), once every page is read. */
  read(
    desired: DesiredIndex,
    loader: DesiredLoader,
    sold?: SoldRecords,
    keeper?: ChangeKeeper,
  ): Promise<Snapshot<RemoteEntries>>;
  /** Stop reading and free what was kept (the run ended before its snapshot). */
  abandon(): void;
}

/**
 * Read every page of the chatbot's listings now, each decoded in the process's decode thread
 * (`decode-pool.ts`) and kept as a few numbers a listing (`RemoteBook`), whatever the feed is doing
 * meanwhile: a run reads its feed and the platform's pages at once, on two threads (issue 23 §3).
 * Pages are read as `readSnapshot` reads them (`readPages`: first page, then `concurrency` at a time,
 * then while the list grew), through the client's limiter and retry policy.
 */
export function startDecodedSnapshot(
  client: PlatformClient,
  options: DecodedSnapshotOptions,
): DecodedSnapshot {
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const memo = pageMemoOf(options);
  /** The numbers of the pages the page memo knew (read back, not decoded). */
  const knownPages = new Set<number>();
  const session = decodePool.session(options.keyField, options.tags, memo?.session);
  const book = new RemoteBook({ judged: (pages) => session.settle(pages) });
  const maxPages = options.maxPages ?? 10_000;
  const read: PageReader<RemotePage> = async (page, { ahead, signal: unwanted, answered } = {}) => {
    if (page > maxPages) throw pageLimit(maxPages, undefined);
    const decoded = await client.listListingsDecoded<RemotePage>(
      { SerialNumber: options.chatbot, PageNumber: page, PageSize: options.pageSize },
      (body) => {
        answered?.();
        // The first page's VirtualCount, off its bytes: the rest are asked for while it is decoded.
        if (ahead) {
          const count = virtualCountOf(body);
          if (count !== undefined) ahead(count);
        }
        return session.decode(body);
      },
      // A page read ahead stops too when the read no longer wants it.
      { signal: unwanted ? AbortSignal.any([signal, unwanted]) : signal },
    );
    return {
      length: decoded.length,
      virtualCount: decoded.virtualCount,
      page: decoded,
      span: spanOf(decoded.ids, (id) => id),
    };
  };
  const reading: Promise<PagesRead> = readPages(
    read,
    (decoded, page) => {
      if (decoded.known) knownPages.add(page);
      book.add(page, decoded);
    },
    options,
  );
  // Awaited by `read`; a failure before then must not count as unhandled, and stops every read still
  // going (the run learns of it when it asks for the snapshot, perhaps once its whole feed is read).
  reading.catch(() => stop.abort());
  return {
    async read(desired, loader, sold, keeper) {
      try {
        // The feed is indexed: the pages read so far are compared with it now, the rest as they come.
        book.attach(desired, sold);
        const pages = await reading;
        // Every page read and decoded: the memo of them replaces the last one (if it changed).
        await memo?.commit((written) => session.memoEnd(written));
        const entries = await book.join(desired, loader, session.records, sold, keeper);
        // Every page judged: those written are the ones holding a record the run read back (or
        // that waited past the held budget while the feed was read). A count, never a reason to
        // fail the run: left out if the thread cannot say.
        const pagesWritten = await session.spilled().catch(() => undefined);
        return {
          ...collect(entries.finish(), pages),
          ...pages.sizes,
          ...(pagesWritten === undefined ? {} : { pagesWritten }),
          // Of the pages the read counts (not an empty one past the end, nor one repeated).
          ...(memo ? { pagesKnown: [...knownPages].filter((page) => page <= pages.sizes.pages).length } : {}),
        };
      } finally {
        // Read or failed: no page read is left to wait for (a failed read leaves the others going).
        stop.abort();
        session.close();
        memo?.abort();
      }
    },
    abandon() {
      stop.abort();
      session.close();
      memo?.abort();
    },
  };
}

/**
 * The snapshot's side of its page memo: the last run's handed to the decode thread, and the entries
 * of this one's pages written as they come, committed once every page is read. None for a chatbot
 * whose last run found more listings than the memo holds (`PAGE_MEMO_MAX_BYTES`, or the larger
 * bound a run that reuses its feed's reading is given, by the key field's bytes a listing); a memo
 * that grows past it is not kept, and the last one is removed.
 */
function pageMemoOf(options: DecodedSnapshotOptions) {
  const given = options.pageMemo;
  if (given === undefined) return undefined;
  const { store } = given;
  const id = pageMemoId(given.feedId);
  const most = given.maxBytes ?? PAGE_MEMO_MAX_BYTES;
  const expected = (options.expectedCount ?? 0) * PAGE_MEMO_BYTES_PER_LISTING[options.keyField];
  if (expected > most) {
    // Too large to keep one: the last one (when the chatbot was smaller) is not left on disk, unless
    // a run that reuses its feed's reading may use it (it holds a larger one).
    if (given.writes && expected > PAGE_MEMO_REUSED_MAX_BYTES) store.remove(id);
    return undefined;
  }
  const salt = pageMemoSalt(store.stamp, runtimeSalt(), options.keyField, options.tags);
  // Not read past the bound (a larger one a run that reuses its feed's reading left).
  const last = store.read(id, PAGE_MEMO_HEADER_BYTES + most);
  let sink: MemoSink | undefined;
  let entries = 0;
  let bytes = 0;
  let done = false;
  /** Entries written to the memo this run leaves: `count` more, `size` bytes; false once none is kept. */
  const write = (entry: Uint8Array, count: number): boolean => {
    if (done) return false;
    if (bytes + entry.byteLength > most) {
      // Grown past the bound: none is kept, the last one neither.
      done = true;
      sink?.abort();
      store.remove(id);
      return false;
    }
    sink ??= store.begin(id);
    if (sink === undefined) {
      done = true;
      return false;
    }
    sink.write(entry);
    entries += count;
    bytes += entry.byteLength;
    return true;
  };
  /** The entries of the pages this run decoded: a page the last memo knew has none (see `commit`). */
  let decoded = 0;
  const onEntry = (entry: Uint8Array) => {
    if (write(entry, 1)) decoded++;
  };
  return {
    session: {
      salt,
      bytes: last && last.byteLength <= PAGE_MEMO_HEADER_BYTES + most ? last : undefined,
      onEntry: given.writes ? onEntry : undefined,
    },
    /**
     * Every page is read: the memo this run leaves replaces the last one, unless it is the last one
     * (every page known, none decoded, none gone: not written again, ~37 MB at 1M). Else the known
     * pages' entries, from the decode thread, are written beside the decoded ones.
     */
    async commit(end: (written: number) => Promise<MemoEnd>) {
      if (done || !given.writes) return;
      const result = await end(decoded).catch(() => undefined);
      if (done) return;
      if (result === undefined) {
        // Not known what the memo came to: the last one stays.
        this.abort();
        return;
      }
      if (result.same) {
        this.abort();
        return;
      }
      if (result.entries.byteLength > 0 && !write(result.entries, result.count)) return;
      done = true;
      sink?.commit(pageMemoHeader(salt, entries, bytes));
    },
    abort() {
      if (done) return;
      done = true;
      sink?.abort();
    },
  };
}
