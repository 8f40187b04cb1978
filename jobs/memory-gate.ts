import { getHeapStatistics } from 'node:v8';
import { PAGE_MEMO_BYTES_PER_LISTING, PAGE_MEMO_REUSED_MAX_BYTES } from '../src/reconcile/index.ts';

/** The heap figures the gate reads (v8's `getHeapStatistics()`), bytes. */
export interface HeapFigures {
  used_heap_size: number;
  heap_size_limit: number;
}

/**
 * What a run is expected to hold on the heap at its peak, from the size of the feed's last run:
 * columns on both sides and the garbage a parse leaves between collections, ~300 bytes a listing
 * (docs/performance.md: +24 MB of heap and +17 MB of typed arrays for 300k), over ~0.3 MB for any
 * run, plus the platform's pages read ahead while the feed is read. A feed never run before counts
 * as small. Pure.
 */
export const RUN_BASE_BYTES = 300 * 1024;
export const RUN_BYTES_PER_LISTING = 300;
/**
 * A platform record on its way to the decode thread (its page's text, held until it is handed on),
 * and how many a run has at once at most: a round of pages (`api.concurrency` of 1000, say). The
 * records themselves are decoded and kept in the decode thread (reconcile/decode-pool.ts).
 */
export const EARLY_RECORD_BYTES = 3000;
const EARLY_RECORDS = 2000;
/**
 * The feed's record memo (reconcile/run-memo.ts), held beside the run's columns: the last run's,
 * read whole (a 30-byte row and the key a record), while this run's is written as records are
 * noted. Off the V8 heap, like the columns' typed arrays, and as much the process's memory.
 */
export const MEMO_BYTES_PER_LISTING = 48;
/**
 * The feed's page memo (reconcile/page-memo.ts): the last run's entries, held by the decode thread
 * off the V8 heap the gate reads, a run long (~37 MB at a million listings keyed by MLS number, in a
 * run that reuses its feed's reading). Counted by the feed's key field (URLs as keys make entries
 * of ~140 bytes), and only for a chatbot small enough to keep one: a run expecting more than the
 * larger bound (`PAGE_MEMO_REUSED_MAX_BYTES`) holds none.
 */
export function pageMemoCost(listings: number, keyField: 'MLSNumber' | 'Url'): number {
  const bytes = PAGE_MEMO_BYTES_PER_LISTING[keyField] * listings;
  return bytes <= PAGE_MEMO_REUSED_MAX_BYTES ? bytes : 0;
}

export function runCost(
  lastListings: number | undefined,
  keyField: 'MLSNumber' | 'Url' = 'MLSNumber',
): number {
  const listings = Math.max(0, lastListings ?? 0);
  return (
    RUN_BASE_BYTES +
    (RUN_BYTES_PER_LISTING + MEMO_BYTES_PER_LISTING) * listings +
    pageMemoCost(listings, keyField) +
    EARLY_RECORD_BYTES * Math.min(listings, EARLY_RECORDS)
  );
}

/**
 * Whether another run may start: always when none runs; else while the heap in use, what the
 * runs already started are expected to reach (`reserved`, counted in full: a run's memory grows
 * after it starts, so many due at once cannot all pass an empty heap) and this run's cost stay
 * under the heap's share. Pure.
 */
export function mayStart(
  running: number,
  heap: HeapFigures,
  maxHeapShare: number,
  reserved = 0,
  cost = 0,
): boolean {
  return running === 0 || heap.used_heap_size + reserved + cost <= maxHeapShare * heap.heap_size_limit;
}

/**
 * Runs of one worker process pass here before they start (`worker.maxHeapShare`): a run waits
 * while the heap is above its share, until a run ends or a collection frees enough. A worker
 * serving many feeds then holds a bounded heap however many are due at once.
 */
export interface MemoryGate {
  /**
   * Resolves when a run expected to hold `cost` bytes (`runCost`) may start; call the returned
   * function when it ends.
   */
  enter(cost: number, signal?: AbortSignal): Promise<() => void>;
  /** Runs started and not ended. */
  readonly running: number;
}

export function createMemoryGate(
  maxHeapShare: () => number,
  heap: () => HeapFigures = getHeapStatistics,
  pollMs = 250,
): MemoryGate {
  let running = 0;
  let reserved = 0;
  /** Runs waiting, in the order they came: only the first may start, so a big run is never overtaken for ever. */
  const line: object[] = [];
  const waiters = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of waiters) wake();
  };
  const start = (cost: number) => {
    running++;
    reserved += cost;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      running--;
      reserved -= cost;
      wakeAll();
    };
  };
  const fits = (cost: number) => mayStart(running, heap(), maxHeapShare(), reserved, cost);
  return {
    get running() {
      return running;
    },
    async enter(cost, signal) {
      signal?.throwIfAborted();
      if (line.length === 0 && fits(cost)) return start(cost);
      const ticket = {};
      line.push(ticket);
      try {
        while (line[0] !== ticket || !fits(cost)) {
          signal?.throwIfAborted();
          await new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timer);
              waiters.delete(done);
              signal?.removeEventListener('abort', done);
              resolve();
            };
            const timer = setTimeout(done, pollMs);
            waiters.add(done);
            signal?.addEventListener('abort', done, { once: true });
          });
        }
      } finally {
        line.splice(line.indexOf(ticket), 1);
        // The next in line may fit now (this one started, or gave up).
        wakeAll();
      }
      return start(cost);
    },
  };
}
