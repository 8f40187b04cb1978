/**
 * The thread a process decodes the platform's list pages in (`decode-pool.ts`): JSON, the envelope
 * and its schema, canonical form, digests, and each page kept as it came (`PageKeep`: the newest
 * held, the older in a spill file of the run's own, a session; a page none of whose records the run
 * will ask for, forgotten). It holds nothing else, and talks only through messages.
 */
import { type MessagePort, parentPort, receiveMessageOnPort } from 'node:worker_threads';
import { byteLengthOf, isApiError, joinedBytes, type PageBytes } from '../api/index.ts';
import type { Listing } from '../normalize/index.ts';
import type { DecodeReply, DecodeRequest, FailureOf } from './decode-protocol.ts';
import { HeldBudget, PageKeep } from './page-keep.ts';
import { encodePageEntry, PageMemoIndex, pageKey } from './page-memo.ts';
import { decodePageBytes } from './page-scan.ts';
import { ReusedBuffer, spillBytes } from './record-store.ts';
import { PAGE_SPAN, recordsOf, transferablesOf } from './remote-page.ts';

const port = parentPort;
if (port === null) throw new Error('decode-worker.ts runs as a worker thread (decode-pool.ts)');

/**
 * Each run's pages as they came: the newest held, the rest in a spill file of its own, a page whose
 * records the run will not ask for forgotten, one it will written at once (`settle`).
 */
const stores = new Map<number, PageKeep>();
/**
 * Pages held unwritten, by every run of the thread together: those it has decoded and their runs
 * have not judged yet (a run whose feed is still being read judges none). Small, because a run that
 * reads its feed meanwhile (a rewrite) holds them at its busiest: with 16 MB a 300k rewrite peaked
 * 12–14 MB above the build that wrote every page, with 4 MB within the noise (−8 to +5 MB), while a
 * 300k no-op wrote 27–51 MB of its 270 (16 MB: 7–27).
 */
const held = new HeldBudget(4 * 1024 * 1024);
const utf8 = new TextDecoder();
/**
 * Each run's page memo: the last run's pages by their bytes, whether it keeps this run's, and the
 * pages it knew (hex hashes): their entries are written again only if the memo changed (`memo-end`).
 */
const memos = new Map<number, { index: PageMemoIndex | undefined; keep: boolean; seen: Set<string> }>();

/**
 * The bytes pages are joined in, kept from page to page: a fresh megabyte for every page costs the
 * kernel's page faults on each (~2–3 s of a 1M no-op's decode thread), a buffer used again does not.
 * Safe because a page's decoding keeps copies, never views, of its bytes (`page-scan.ts`,
 * `remote-page.ts`). A page larger than the bound is joined on its own, so one huge answer is not
 * held for the rest of the run.
 */
const SCRATCH_BOUND = 8 * 1024 * 1024;
const scratch = new ReusedBuffer(SCRATCH_BOUND);

function joinedInScratch(pieces: PageBytes): Uint8Array {
  const length = byteLengthOf(pieces);
  if (pieces.length === 1 || length > SCRATCH_BOUND) return joinedBytes(pieces);
  const into = scratch.of(length);
  let at = 0;
  for (const piece of pieces) {
    into.set(piece, at);
    at += piece.byteLength;
  }
  return into.subarray(0, length);
}

function failureOf(error: unknown): FailureOf {
  if (isApiError(error)) {
    const { platformCode, platformMessage, field } = error as {
      platformCode?: number;
      platformMessage?: string;
      field?: string;
    };
    return {
      code: error.code,
      message: error.message,
      ...(platformCode === undefined ? {} : { platformCode }),
      ...(platformMessage === undefined ? {} : { platformMessage }),
      ...(field === undefined ? {} : { field }),
    };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { code: 'E_DECODE', message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
}

/**
 * The buffer a written page is read back into for its records (`recordsAt`), kept from page to page
 * as `scratch` is: a fresh megabyte a page was garbage outside the heap that lingered until the
 * thread's next collection (a rewrite reads back every page). Its own, not `scratch`: a page read
 * back is decoded to text before the next is read, and never while a page is joined.
 */
const readBack = new ReusedBuffer(SCRATCH_BOUND);
const readBackOf = (length: number) => readBack.of(length);

/** The records at `refs` (page × PAGE_SPAN + place), each page read and parsed once. */
function recordsAt(store: PageKeep, refs: Float64Array) {
  const byPage = new Map<number, number[]>();
  for (const ref of refs) {
    const page = Math.floor(ref / PAGE_SPAN);
    const places = byPage.get(page);
    if (places === undefined) byPage.set(page, [ref % PAGE_SPAN]);
    else places.push(ref % PAGE_SPAN);
  }
  const found = new Map<number, Partial<Listing>>();
  for (const [page, places] of byPage) {
    const records = recordsOf(utf8.decode(store.get(page, readBackOf)), places);
    for (const [i, place] of places.entries()) found.set(page * PAGE_SPAN + place, records[i]!);
  }
  return Array.from(refs, (ref) => found.get(ref) as Partial<Listing>);
}

/**
 * The port the runs' settles come on (`settle-port`), not in line behind the pages the thread has
 * still to decode: where the pages arrive faster than they decode (a first no-op, every page
 * decoded), a settle in line came once the pages after it had filled the held budget, and nearly
 * every page was written to the spill file before it was dropped (288–295 of a 300k no-op's 300
 * pages, ~0.27 GB; at 1M ~0.9 GB). Each message on the thread's port (every run's) first takes every
 * settle posted before it (`receiveMessageOnPort`): a settle posted before a request is handled
 * before it. A settle posted after a request may be handled before it (on its own port's event, or
 * taken by an earlier message): a run settles only pages whose decode has answered, and never a page
 * as unwanted whose records it has asked for.
 */
let settlePort: MessagePort | undefined;

function settle(request: Extract<DecodeRequest, { op: 'settle' }>): void {
  try {
    const store = stores.get(request.session);
    store?.drop(request.unwanted);
    store?.write(request.wanted);
  } catch {
    // A page that could not be written (a full disk) stays held, as it was before it was judged:
    // its run reads it from memory, and no other run, nor the message being handled, is the worse.
  }
}

/** Every settle posted so far, handled now. */
function takeSettles(): void {
  if (settlePort === undefined) return;
  for (;;) {
    const received = receiveMessageOnPort(settlePort);
    if (received === undefined) return;
    settle(received.message as Extract<DecodeRequest, { op: 'settle' }>);
  }
}

port.on('message', (request: DecodeRequest) => {
  const reply = (message: DecodeReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  if (request.op === 'settle-port') {
    settlePort = request.port;
    settlePort.on('message', settle);
    return;
  }
  try {
    takeSettles();
    if (request.op === 'close') {
      stores.get(request.session)?.close();
      stores.delete(request.session);
      memos.get(request.session)?.index?.release();
      memos.delete(request.session);
      return;
    }
    if (request.op === 'memo') {
      const index = request.bytes ? PageMemoIndex.parse(request.bytes, request.salt) : undefined;
      memos.set(request.session, { index, keep: request.keep, seen: new Set() });
      return;
    }
    if (request.op === 'memo-end') {
      const memo = memos.get(request.session);
      const index = memo?.index;
      const seen = memo?.seen ?? new Set<string>();
      if (index !== undefined && request.written === 0 && seen.size === index.size) {
        reply({ id: request.id, memo: { same: true } });
        return;
      }
      const entries = index?.entriesOf(seen) ?? new Uint8Array(0);
      reply({ id: request.id, memo: { same: false, entries, count: index ? seen.size : 0 } }, [
        entries.buffer as ArrayBuffer,
      ]);
      return;
    }
    let store = stores.get(request.session);
    if (request.op === 'decode') {
      if (store === undefined) {
        store = new PageKeep(spillBytes(), held);
        stores.set(request.session, store);
      }
      // A page the memo knows by its bytes is read back, not decoded (`page-memo.ts`): keyed, and
      // kept, in the pieces it arrived in. Only a page to decode is joined (here, not on the run's
      // thread).
      const pieces = request.body;
      const memo = memos.get(request.session);
      const key = memo ? pageKey(pieces) : undefined;
      const hash = key?.hash;
      const known = hash ? memo?.index?.get(hash, store.size) : undefined;
      // The count the memo's key left out, read from this page.
      if (known && key?.count !== undefined) known.virtualCount = key.count;
      // Kept only once it decoded: a page that failed is read again, and numbered then.
      const page =
        known ?? decodePageBytes(joinedInScratch(pieces), request.keyField, request.tags, store.size);
      store.put(pieces);
      // A known page's entry is the one it was found by: noted, and written again only if the memo
      // changed (`memo-end`). A decoded page's is made, and handed back to be written.
      if (known && hash && memo?.keep) memo.seen.add(Buffer.from(hash).toString('hex'));
      const entry = hash && memo?.keep && !known ? encodePageEntry(hash, page) : undefined;
      if (entry === undefined) reply({ id: request.id, page }, transferablesOf(page));
      else reply({ id: request.id, page, entry }, [...transferablesOf(page), entry.buffer as ArrayBuffer]);
      return;
    }
    if (request.op === 'settle') {
      settle(request);
      return;
    }
    if (request.op === 'spilled') {
      // A session this thread does not hold (it was started again since) has no count to give.
      if (store === undefined) throw new Error(`no pages kept for session ${request.session}`);
      reply({ id: request.id, spilled: store.spilled });
      return;
    }
    if (store === undefined) throw new Error(`no records kept for session ${request.session}`);
    reply({ id: request.id, records: recordsAt(store, request.refs) });
  } catch (error) {
    if (request.op !== 'close' && request.op !== 'memo' && request.op !== 'settle')
      reply({ id: request.id, failure: failureOf(error) });
  }
});
