import { afterEach, describe, expect, it } from 'vitest';
import type { BudgetStore } from '../../src/budget/index.ts';
import { openQueueStore } from '../../src/queue/open-store.ts';
import { BACKENDS } from './backends.ts';

/**
 * The budget of a provider key on every store the worker can run on: the same answers as the pure
 * book (src/budget/budget-book.test.ts), and one count for two worker processes (two stores open on
 * one backend, each with its own connection, as two processes have).
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const T0 = Date.parse('2024-05-01T10:00:00Z');
const HOUR = 3_600_000;

describe.each(BACKENDS)('provider budgets on $name', (backend) => {
  async function open(count: number): Promise<BudgetStore[]> {
    const { store: choice, prefix, cleanup } = await backend.fresh();
    cleanups.push(cleanup);
    const stores: BudgetStore[] = [];
    for (let i = 0; i < count; i++) {
      const store = await openQueueStore(choice, prefix);
      cleanups.push(() => store.close());
      if (!store.state.budgets) throw new Error('the state store has no budgets');
      stores.push(store.state.budgets);
    }
    return stores;
  }

  it.skipIf(!backend.available)('holds second, hour and day windows and says when to come back', async () => {
    const [budget] = await open(1);
    const b = budget!;
    const limits = { perSecond: 2, perHour: 5, perDay: 6 };
    /** A request taken at `at` and answered `latency` ms later. */
    const request = async (at: number, latency = 0) => {
      const answer = await b.take('key-a', limits, at);
      if (answer.ok) await b.done('key-a', answer.ticket, at + latency);
      return answer;
    };
    expect(await request(T0, 50)).toMatchObject({ ok: true });
    expect(await request(T0 + 100, 50)).toMatchObject({ ok: true });
    // The second counts from the answers: the first one's leaves at 50 + 1250.
    expect(await request(T0 + 200)).toEqual({ ok: false, window: 'second', retryAt: T0 + 1300 });
    expect(await request(T0 + 1300)).toMatchObject({ ok: true });
    expect(await request(T0 + 2000)).toMatchObject({ ok: true });
    expect(await request(T0 + 3000)).toMatchObject({ ok: true });
    // Five in the hour: the minute 10:00 leaves at 11:01 (and a second of margin).
    expect(await request(T0 + 4000)).toEqual({ ok: false, window: 'hour', retryAt: T0 + HOUR + 61_000 });
    expect(await request(T0 + HOUR + 61_000)).toMatchObject({ ok: true });
    // Six in the day.
    expect(await request(T0 + 2 * HOUR)).toEqual({
      ok: false,
      window: 'day',
      retryAt: T0 + 24 * HOUR + 61_000,
    });
    // A request in flight counts in every second until its answer.
    const slow = await b.take('key-c', { perSecond: 1 }, T0);
    expect(await b.take('key-c', { perSecond: 1 }, T0 + 9000)).toEqual({
      ok: false,
      window: 'second',
      retryAt: T0 + 9050,
    });
    if (slow.ok) await b.done('key-c', slow.ticket, T0 + 9000);
    expect(await b.take('key-c', { perSecond: 1 }, T0 + 10_250)).toMatchObject({ ok: true });
    expect(await b.usage('key-a', T0 + 2 * HOUR)).toEqual({ second: 0, hour: 1, day: 6 });
    // Another key has a budget of its own.
    expect(await b.take('key-b', limits, T0 + 4000)).toMatchObject({ ok: true });
  });

  it.skipIf(!backend.available)(
    'keeps what the provider announced, lowered and never raised within its window',
    async () => {
      const [budget] = await open(1);
      const b = budget!;
      await b.announce('k', { name: 'burst', remaining: 1, resetAt: T0 + 30_000 }, T0);
      await b.announce('k', { name: 'burst', remaining: 9, resetAt: T0 + 30_500 }, T0 + 1);
      expect(await b.take('k', {}, T0 + 2)).toMatchObject({ ok: true });
      expect(await b.take('k', {}, T0 + 3)).toEqual({ ok: false, window: 'provider', retryAt: T0 + 30_500 });
      expect(await b.take('k', {}, T0 + 30_500)).toMatchObject({ ok: true });
    },
  );

  it.skipIf(!backend.available || !backend.shared)(
    'counts the requests of two worker processes against one budget',
    async () => {
      const [one, two] = await open(2);
      const limits = { perHour: 40 };
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => (i % 2 ? one! : two!).take('shared', limits, T0 + i)),
      );
      expect(answers.filter((a) => a.ok)).toHaveLength(40);
      expect((await one!.usage('shared', T0 + 100)).hour).toBe(40);
      expect((await two!.usage('shared', T0 + 100)).hour).toBe(40);
    },
  );
});
