import { describe, expect, it } from 'vitest';
import type { AimdState } from '../aimd.ts';
import { createSharedLimiter, type SlotStore, type StoredAimd } from './shared-limiter.ts';

/**
 * The shared limiter's waiting, on a store in memory: `limit` slots, no clock. The poll is set to
 * an hour, so a test that relied on it would time out (and fail) instead of passing slowly.
 */
function memoryStore(limit: number) {
  const leases = new Set<string>();
  let state: AimdState | undefined;
  let version = 0;
  const counts = { take: 0 };
  /** When set, the next take waits for this before answering (a take still on the wire). */
  let holdNextTake: Promise<void> | undefined;
  const stored = (): StoredAimd => ({ state, token: version });
  const store: SlotStore = {
    async take(lease) {
      counts.take++;
      const full = leases.size >= limit;
      const hold = holdNextTake;
      holdNextTake = undefined;
      if (hold) await hold;
      if (full) return { wait: -1, limit, generation: 0, recent: 0, rate: 0 };
      leases.add(lease);
      return { wait: 0, limit, generation: 0, recent: 0, rate: 0 };
    },
    release: async (lease) => leases.delete(lease),
    releaseAndRead: async (lease) => {
      leases.delete(lease);
      return stored();
    },
    read: async () => stored(),
    write: async (read, next) => {
      if (read.token !== version) return false;
      state = next;
      version++;
      return true;
    },
    renew: async () => {},
    pause: async () => {},
  };
  return {
    store,
    counts,
    leases,
    holdNextTake(until: Promise<void>) {
      holdNextTake = until;
    },
  };
}

const HOUR = 3_600_000;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Let every pending promise callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the shared limiter: waiting for a slot', () => {
  it('a slot this process frees goes to its first waiter at once, not at its next poll', async () => {
    const mem = memoryStore(1);
    const limiter = createSharedLimiter(mem.store, { concurrency: 1, pollMs: HOUR });
    const order: string[] = [];
    const first = deferred();
    const a = limiter.run(async () => {
      order.push('a');
      await first.promise;
    });
    const b = limiter.run(async () => order.push('b'));
    const c = limiter.run(async () => order.push('c'));
    await settle();
    expect(order).toEqual(['a']);
    first.resolve();
    await Promise.all([a, b, c]);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(mem.leases.size).toBe(0);
  });

  it("only the first of a process's waiters asks the store; the others wait their turn", async () => {
    const mem = memoryStore(1);
    const limiter = createSharedLimiter(mem.store, { concurrency: 1, pollMs: HOUR });
    const first = deferred();
    const runs = [limiter.run(() => first.promise)];
    for (let i = 0; i < 5; i++) runs.push(limiter.run(async () => {}));
    await settle();
    // Only the holder's take: this process holds the whole limit, so nobody asks to hear "full".
    expect(mem.counts.take).toBe(1);
    first.resolve();
    await Promise.all(runs);
    // Then one take each: nobody asked in vain.
    expect(mem.counts.take).toBe(6);
  });

  it('a take answered "full" while this process freed a slot is asked again at once', async () => {
    const mem = memoryStore(2);
    // Another process holds one of the two slots.
    mem.leases.add('other-process');
    const limiter = createSharedLimiter(mem.store, { concurrency: 2, pollMs: HOUR });
    const first = deferred();
    const a = limiter.run(() => first.promise);
    await settle();
    // b's take sees the house full, but a frees its slot before that answer arrives.
    const onTheWire = deferred();
    mem.holdNextTake(onTheWire.promise);
    const b = limiter.run(async () => 'b');
    await settle();
    first.resolve();
    await a;
    onTheWire.resolve();
    expect(await b).toBe('b');
  });

  it('a waiter aborted in line leaves it; the ones behind it still get their turn', async () => {
    const mem = memoryStore(1);
    const limiter = createSharedLimiter(mem.store, { concurrency: 1, pollMs: HOUR });
    const first = deferred();
    const a = limiter.run(() => first.promise);
    const b = limiter.run(async () => 'b');
    const stop = new AbortController();
    const c = limiter.run(async () => 'c', stop.signal);
    const d = limiter.run(async () => 'd');
    await settle();
    stop.abort(new Error('cancelled'));
    await expect(c).rejects.toThrow('cancelled');
    first.resolve();
    await a;
    expect(await b).toBe('b');
    expect(await d).toBe('d');
  });

  it('the asking waiter aborted mid-wait passes its turn on', async () => {
    const mem = memoryStore(1);
    const limiter = createSharedLimiter(mem.store, { concurrency: 1, pollMs: HOUR });
    const first = deferred();
    const a = limiter.run(() => first.promise);
    const stop = new AbortController();
    const b = limiter.run(async () => 'b', stop.signal);
    const c = limiter.run(async () => 'c');
    await settle();
    stop.abort(new Error('cancelled'));
    await expect(b).rejects.toThrow('cancelled');
    first.resolve();
    await a;
    expect(await c).toBe('c');
  });
});
