import { getHeapStatistics } from 'node:v8';

/** The heap figures the gate reads (v8's `getHeapStatistics()`), bytes. */
export interface HeapFigures {
  used_heap_size: number;
  heap_size_limit: number;
}

/** Whether another run may start: always when none runs, else while the heap is under its share. Pure. */
export function mayStart(running: number, heap: HeapFigures, maxHeapShare: number): boolean {
  return running === 0 || heap.used_heap_size <= maxHeapShare * heap.heap_size_limit;
}

/**
 * Runs of one worker process pass here before they start (`worker.maxHeapShare`): a run waits
 * while the heap is above its share, until a run ends or a collection frees enough. A worker
 * serving many feeds then holds a bounded heap however many are due at once.
 */
export interface MemoryGate {
  /** Resolves when the run may start; call the returned function when it ends. */
  enter(signal?: AbortSignal): Promise<() => void>;
  /** Runs started and not ended. */
  readonly running: number;
}

export function createMemoryGate(
  maxHeapShare: () => number,
  heap: () => HeapFigures = getHeapStatistics,
  pollMs = 250,
): MemoryGate {
  let running = 0;
  const waiters = new Set<() => void>();
  const leave = () => {
    running--;
    for (const wake of waiters) wake();
  };
  const start = () => {
    running++;
    let left = false;
    return () => {
      if (!left) leave();
      left = true;
    };
  };
  return {
    get running() {
      return running;
    },
    async enter(signal) {
      while (!mayStart(running, heap(), maxHeapShare())) {
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
      return start();
    },
  };
}
