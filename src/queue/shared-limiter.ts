import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type AimdOptions,
  type AimdState,
  aimdOverload,
  aimdSuccess,
  initialAimd,
  isOverload,
} from '../http/aimd.ts';
import type { Limiter, LimiterOptions } from '../http/limiter.ts';

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
}

/**
 * The statements of one store (Redis, Postgres): each a single round trip, atomic on the store. The
 * rules (when to take, when to feed the controller, the waiting) live once, in `createSharedLimiter`.
 */
export interface SlotStore {
  /** Take a slot if the in-flight bound (the shared AIMD limit), the per-second ceiling and any pause allow. */
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

  /** Take a slot; returns the shared AIMD limit and generation in force when it was taken. */
  async function acquire(lease: string, signal?: AbortSignal): Promise<Take> {
    for (;;) {
      signal?.throwIfAborted();
      const taken = await store.take(lease);
      if (taken.wait === 0) return taken;
      // A full house frees up at an unknown time: poll with jitter so waiters do not move in step.
      const delay = taken.wait < 0 ? Math.round(pollMs / 2 + (Math.random() * pollMs) / 2) : taken.wait;
      await sleep(delay, undefined, signal ? { signal } : undefined);
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
      if (read.state && next === state) return;
      if (await store.write(read, next)) return;
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
        if (isOverload(error)) await feed((s) => aimdOverload(s, taken.generation, aimd)).catch(() => {});
        await store.release(lease).catch(() => {});
        throw error;
      }
      clearInterval(renew);
      // At full concurrency a success changes nothing: no extra round trip on the fast path.
      if (taken.limit >= options.concurrency) {
        await store.release(lease).catch(() => {});
        return value;
      }
      // Below it, the slot is freed by the round trip that reads the shared state, and the
      // compare-and-set comes after, off the slot: at a limit of 1 the next request does not wait for it.
      const read = await store.releaseAndRead(lease).catch(() => undefined);
      if (read) await feed((s) => aimdSuccess(s, taken.generation, aimd), read).catch(() => {});
      else await store.release(lease).catch(() => {});
      return value;
    },
    pause(ms) {
      store.pause(Math.ceil(ms)).catch(() => {});
    },
  };
}
