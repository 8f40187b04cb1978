import { randomUUID } from 'node:crypto';
import {
  type AimdOptions,
  type AimdState,
  aimdOverload,
  aimdSuccess,
  initialAimd,
  isOverload,
  rateEvidence,
} from '../aimd.ts';
import { type Limiter, type LimiterOptions, pauseOf } from '../limiter.ts';

/** The shared AIMD state as read from a store, with what its compare-and-set needs (`token`). */
export interface StoredAimd {
  /** The state, or undefined when absent, expired or unreadable (the limiter then starts afresh). */
  state: AimdState | undefined;
  /** What the store compares on write: the text read (Redis), the row's version (Postgres). */
  token: unknown;
}

/** What a taking round trip answers: wait 0 = taken; -1 = every slot is taken; n > 0 = ask again in n ms. */
export interface Take {
  wait: number;
  /** The shared AIMD limit in force (never above `concurrency`) and its generation. */
  limit: number;
  generation: number;
  /** Starts (by every process) in the second before this one, when taken; 0 otherwise. */
  recent: number;
  /** The learned rate in force (starts per second; 0 = none). */
  rate: number;
}

/**
 * The statements of one store (Redis, Postgres): each a single round trip, atomic on the store. The
 * rules (when to take, when to feed the controller, the waiting) live once, in `createSharedLimiter`.
 */
export interface SlotStore {
  /**
   * Take a slot if the in-flight bound (the shared AIMD limit), the per-second bound (the ceiling or
   * the learned rate, whichever is lower) and any pause allow.
   */
  take(lease: string): Promise<Take>;
  /** Free a slot. */
  release(lease: string): Promise<unknown>;
  /** Free a slot and read the shared AIMD state, in one round trip. */
  releaseAndRead(lease: string): Promise<StoredAimd>;
  read(): Promise<StoredAimd>;
  /** Compare-and-set: write `next` only if the state is still the one `read`; true when written. */
  write(read: StoredAimd, next: AimdState): Promise<boolean>;
  /** Extend a lease that is still ours. */
  renew(lease: string): Promise<unknown>;
  /** Push paused-until forward (never back). */
  pause(ms: number): Promise<unknown>;
}

export interface SharedLimiterOptions extends LimiterOptions {
  /**
   * How long a slot is held without renewal. A worker that dies mid-call frees its slots after this
   * long; a live one renews every third of it. Default 15 s.
   */
  leaseMs?: number;
  /** Longest wait between two tries when every slot is taken. Default 50 ms. */
  pollMs?: number;
}

/**
 * The limiter every worker process on one store shares: slots are leases with an expiry (a crashed
 * worker cannot leak one), the in-flight bound is the shared AIMD limit (src/http/aimd.ts), and each
 * answer is one step of that pure controller applied to the shared state by compare-and-set.
 */
export function createSharedLimiter(store: SlotStore, options: SharedLimiterOptions): Limiter {
  const aimd: AimdOptions = { ...options.aimd, max: options.concurrency };
  const leaseMs = options.leaseMs ?? 15_000;
  const pollMs = options.pollMs ?? 50;

  /**
   * This process's callers waiting for a slot queue here, first come first served, and only the
   * first of them asks the store: the others would only add polls (each a statement under the
   * limiter's lock; on PGlite, one at a time with everything else). A slot this process frees
   * wakes that first waiter at once; slots freed by other processes are found by its poll.
   */
  const line: Array<(seen: number) => void> = [];
  let asking = false;
  /** Slots this process has freed, ever: a waiter that saw it change since it last asked asks again at once. */
  let freed = 0;
  /** Slots this process holds, and the shared limit the store last answered. */
  let held = 0;
  let knownLimit = options.concurrency;
  /** The learned rate the store last answered, for the length of a pause. */
  let knownRate = 0;
  /** Ends the asking waiter's poll wait early (set only while it waits for a full house). */
  let wake: (() => void) | undefined;

  function slotFreed(): void {
    freed++;
    held--;
    wake?.();
  }

  /** This process raised the shared limit: its asking waiter need not wait for its poll. */
  function limitRaised(limit: number): void {
    if (limit <= knownLimit) return;
    knownLimit = limit;
    wake?.();
  }

  /** Resolves, with `freed` at that moment, when this caller is the one asking the store. */
  function turn(signal?: AbortSignal): Promise<number> {
    if (!asking) {
      asking = true;
      return Promise.resolve(freed);
    }
    return new Promise((resolve, reject) => {
      const entry = (seen: number) => {
        signal?.removeEventListener('abort', aborted);
        resolve(seen);
      };
      function aborted() {
        line.splice(line.indexOf(entry), 1);
        reject(signal?.reason);
      }
      signal?.addEventListener('abort', aborted, { once: true });
      line.push(entry);
    });
  }

  /** The next waiter asks now (there may be another free slot). */
  function passTurn(): void {
    const next = line.shift();
    if (next) next(freed);
    else asking = false;
  }

  /**
   * Wait `ms`. With `seen` (the freed count when the store last said "full"), a slot this process
   * frees, or has freed since, ends the wait early.
   */
  function nap(ms: number, seen: number | undefined, signal?: AbortSignal): Promise<void> {
    if (seen !== undefined && freed !== seen) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        wake = undefined;
        resolve();
      }
      function aborted() {
        clearTimeout(timer);
        wake = undefined;
        reject(signal?.reason);
      }
      signal?.addEventListener('abort', aborted, { once: true });
      if (seen !== undefined) wake = done;
    });
  }

  /** A full house frees up at an unknown time: poll with jitter so processes do not move in step. */
  const pollDelay = () => Math.round(pollMs / 2 + (Math.random() * pollMs) / 2);

  /** Take a slot; returns the shared AIMD limit and generation in force when it was taken. */
  async function acquire(lease: string, signal?: AbortSignal): Promise<Take> {
    signal?.throwIfAborted();
    let seen = await turn(signal);
    try {
      // This process alone holds every slot the limit allows: asking now could only hear "full".
      if (held >= knownLimit) await nap(pollDelay(), seen, signal);
      for (;;) {
        signal?.throwIfAborted();
        seen = freed;
        const taken = await store.take(lease);
        knownLimit = taken.limit;
        knownRate = taken.rate;
        if (taken.wait === 0) {
          held++;
          return taken;
        }
        await nap(taken.wait < 0 ? pollDelay() : taken.wait, taken.wait < 0 ? seen : undefined, signal);
      }
    } finally {
      passTurn();
    }
  }

  /**
   * Apply one AIMD step to the shared state: compute (pure) from `first` (or a fresh read), then
   * compare-and-set; on a race, read again and retry.
   */
  async function feed(step: (state: AimdState) => AimdState, first?: StoredAimd): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const read = attempt === 0 && first ? first : await store.read();
      const state = read.state ?? initialAimd(aimd);
      const next = step(state);
      knownRate = next.rate;
      if (read.state && next === state) return;
      if (await store.write(read, next)) return limitRaised(Math.min(next.limit, options.concurrency));
    }
  }

  return {
    async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      const lease = randomUUID();
      const taken = await acquire(lease, signal);
      const renew = setInterval(() => {
        store.renew(lease).catch(() => {});
      }, leaseMs / 3);
      let value: T;
      try {
        value = await fn();
      } catch (error) {
        // An overload is fed while the slot is still held, so nobody starts at the old limit meanwhile.
        clearInterval(renew);
        if (isOverload(error))
          await feed((s) => aimdOverload(s, taken.generation, aimd, rateEvidence(error, taken.recent))).catch(
            () => {},
          );
        await store.release(lease).catch(() => {});
        slotFreed();
        throw error;
      }
      clearInterval(renew);
      // At full concurrency and unpaced a success changes nothing: no extra round trip on the fast path.
      if (taken.limit >= options.concurrency && taken.rate <= 0) {
        await store.release(lease).catch(() => {});
        slotFreed();
        return value;
      }
      // Below it, the slot is freed by the round trip that reads the shared state, and the
      // compare-and-set comes after, off the slot: at a limit of 1 the next request does not wait for it.
      const read = await store.releaseAndRead(lease).catch(() => undefined);
      if (!read) await store.release(lease).catch(() => {});
      slotFreed();
      if (read) await feed((s) => aimdSuccess(s, taken.generation, aimd), read).catch(() => {});
      return value;
    },
    pause(ms) {
      store.pause(Math.ceil(pauseOf(ms, knownRate))).catch(() => {});
    },
  };
}
