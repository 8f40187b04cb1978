import { describe, expect, it } from 'vitest';
import {
  announcedTo,
  type BudgetBook,
  doneInBook,
  emptyBook,
  HOUR_MS,
  takeFromBook,
  usageOfBook,
} from './budget-book.ts';
import type { BudgetLimits } from './budget-types.ts';
import { type BudgetFile, createFileBudget } from './file-budget.ts';

const T0 = Date.parse('2024-05-01T10:00:00Z');

/** Take `n` requests at `at`, asserting each is allowed, each answered `latency` ms later. */
function takeN(book: BudgetBook, limits: BudgetLimits, at: number, n: number, latency = 0): BudgetBook {
  let current = book;
  for (let i = 0; i < n; i++) {
    const ticket = `t${at}-${i}`;
    const next = takeFromBook(current, limits, at, ticket);
    expect(next.answer.ok).toBe(true);
    current = doneInBook(next.book, ticket, at + latency);
  }
  return current;
}

describe('the budget book: rolling windows, never looser than the provider', () => {
  it('holds the per-second bound from each answer, and says when the oldest answer leaves', () => {
    // Answered 100 ms after they start: each counts in the second after its answer.
    const book = takeN(emptyBook(), { perSecond: 2 }, T0, 1, 100);
    const second = takeN(book, { perSecond: 2 }, T0 + 300, 1, 100);
    expect(takeFromBook(second, { perSecond: 2 }, T0 + 999, 'x').answer).toEqual({
      ok: false,
      window: 'second',
      retryAt: T0 + 1350,
    });
    // A quarter second more than the provider's window, from the answer, not the start.
    expect(takeFromBook(second, { perSecond: 2 }, T0 + 1349, 'x').answer.ok).toBe(false);
    expect(takeFromBook(second, { perSecond: 2 }, T0 + 1350, 'x').answer.ok).toBe(true);
  });

  it('counts a request still in flight in every second, however long it takes to leave', () => {
    const limits = { perSecond: 1 };
    const { book } = takeFromBook(emptyBook(), limits, T0, 'slow');
    // Not answered 5 s later: the next one waits, asking again soon rather than pausing the run.
    expect(takeFromBook(book, limits, T0 + 5000, 'x').answer).toEqual({
      ok: false,
      window: 'second',
      retryAt: T0 + 5050,
    });
    const answered = doneInBook(book, 'slow', T0 + 5000);
    expect(takeFromBook(answered, limits, T0 + 6249, 'x').answer.ok).toBe(false);
    expect(takeFromBook(answered, limits, T0 + 6250, 'x').answer.ok).toBe(true);
  });

  it('counts the hour in whole minutes and a second more, so a request at :59 still counts until the next hour :01:01', () => {
    const limits = { perHour: 3 };
    const book = takeN(emptyBook(), limits, T0 + 59_000, 3);
    // 10:00:59 + 60 min = 11:00:59, but the minute 10:00 leaves only at 11:01:00 (and a second of margin).
    expect(takeFromBook(book, limits, T0 + HOUR_MS + 59_000, 'x').answer).toEqual({
      ok: false,
      window: 'hour',
      retryAt: T0 + HOUR_MS + 61_000,
    });
    expect(takeFromBook(book, limits, T0 + HOUR_MS + 61_000, 'x').answer.ok).toBe(true);
  });

  it('frees the hour minute by minute, oldest first', () => {
    const limits = { perHour: 4 };
    let book = takeN(emptyBook(), limits, T0, 2);
    book = takeN(book, limits, T0 + 10 * 60_000, 2);
    // Full: the first minute must leave (at 11:01) before one more fits.
    expect(takeFromBook(book, limits, T0 + 30 * 60_000, 'x').answer).toMatchObject({
      ok: false,
      retryAt: T0 + HOUR_MS + 61_000,
    });
  });

  it('takes the latest of several refusals: every bound must allow the request', () => {
    const limits = { perSecond: 1, perDay: 2 };
    const book = takeN(takeN(emptyBook(), limits, T0, 1), limits, T0 + 5000, 1);
    const answer = takeFromBook(book, limits, T0 + 5500, 'x').answer;
    expect(answer).toEqual({ ok: false, window: 'day', retryAt: T0 + 86_400_000 + 61_000 });
  });

  it('lowers a ceiling the provider announced, counts against it, and forgets it when it resets', () => {
    let book = announcedTo(emptyBook(), { name: 'hour', remaining: 1, resetAt: T0 + 60_000 }, T0);
    // A later answer of the same window cannot raise it again.
    book = announcedTo(book, { name: 'hour', remaining: 5, resetAt: T0 + 60_500 }, T0 + 10);
    book = takeN(book, {}, T0 + 20, 1);
    expect(takeFromBook(book, {}, T0 + 30, 'x').answer).toEqual({
      ok: false,
      window: 'provider',
      retryAt: T0 + 60_500,
    });
    expect(takeFromBook(book, {}, T0 + 60_500, 'x').answer.ok).toBe(true);
    expect(usageOfBook(book, T0 + 30)).toEqual({ second: 1, hour: 1, day: 1 });
  });
});

describe('the state-file budget (the one-shot CLI)', () => {
  it('reserves ahead in the file and writes the true count on flush, so a crash only over-counts', async () => {
    let file: Record<string, BudgetBook> = {};
    let writes = 0;
    const open = () =>
      createFileBudget({
        read: async () => structuredClone(file),
        update: async (change) => {
          writes++;
          file = structuredClone(change(structuredClone(file)));
        },
      });
    const limits = { perHour: 100 };
    const first = open();
    for (let i = 0; i < 5; i++) expect((await first.take('k', limits, T0 + i)).ok).toBe(true);
    expect(writes).toBe(1);
    // Killed here: the file counts the reservation (20), more than the 5 sent, never fewer.
    expect(usageOfBook(file.k!, T0 + 10).hour).toBe(20);
    const afterCrash = open();
    expect((await afterCrash.usage('k', T0 + 10)).hour).toBe(20);
    await first.flush?.();
    expect(usageOfBook(file.k!, T0 + 10).hour).toBe(5);
    // A new process counts on from the file.
    const next = open();
    for (let i = 0; i < 95; i++) expect((await next.take('k', limits, T0 + 100 + i)).ok).toBe(true);
    expect(await next.take('k', limits, T0 + 300)).toMatchObject({ ok: false, window: 'hour' });
  });

  /** One state file, and each process's budget on it (its writes one at a time, as under the state lock). */
  function sharedFile() {
    const state = { books: {} as Record<string, BudgetBook>, writes: 0, failNext: false };
    const file: BudgetFile = {
      read: async () => structuredClone(state.books),
      update: async (change) => {
        state.writes++;
        const changed = structuredClone(change(structuredClone(state.books)));
        // A write that fails after the change was made (a full disk): the file keeps what it held.
        if (state.failNext) {
          state.failNext = false;
          throw new Error('ENOSPC');
        }
        state.books = changed;
      },
    };
    return { state, open: () => createFileBudget(file) };
  }

  it('two processes on one key at once (two feeds of one MLS key): together never above the limit, every request counted', async () => {
    const { state, open } = sharedFile();
    const limits = { perHour: 50 };
    const [a, b] = [open(), open()];
    let sent = 0;
    // Turn by turn, 40 each: the old budget, each written whole over the other's, let 80 go.
    for (let i = 0; i < 40; i++)
      for (const budget of [a, b]) if ((await budget.take('k', limits, T0 + i * 10)).ok) sent++;
    expect(sent).toBeLessThanOrEqual(50);
    // Each reserved ahead what it did not send: the file counts at least what was sent.
    expect(usageOfBook(state.books.k!, T0 + 1000).hour).toBeGreaterThanOrEqual(sent);
    await a.flush?.();
    await b.flush?.();
    // Flushed, the file counts exactly what both sent.
    expect(usageOfBook(state.books.k!, T0 + 1000).hour).toBe(sent);
    // A third process finds the hour spent.
    expect(await open().take('k', limits, T0 + 2000)).toMatchObject({ ok: false, window: 'hour' });
  });

  it("takes at once within one process (a run's requests in parallel, two feeds of one key in a worker): every one counted", async () => {
    const { state, open } = sharedFile();
    const slow: BudgetFile = {
      read: async () => structuredClone(state.books),
      // A write that takes a while, as the state file's lock and rename do: the takes interleave.
      update: async (change) => {
        const changed = structuredClone(change(structuredClone(state.books)));
        await new Promise((resolve) => setTimeout(resolve, 2));
        state.books = changed;
      },
    };
    for (const limits of [{ perHour: 1000 }, { perHour: 1000, perSecond: 100 }]) {
      state.books = {};
      const budget = createFileBudget(slow);
      const answers = await Promise.all(
        Array.from({ length: 45 }, (_, i) => budget.take('k', limits, T0 + Math.floor(i / 3))),
      );
      expect(answers.every((answer) => answer.ok)).toBe(true);
      // Those answered: the file counts them as done, not in flight.
      await Promise.all(
        answers.map((answer, i) => answer.ok && budget.done?.('k', answer.ticket, T0 + 20 + i)),
      );
      await budget.flush?.();
      expect(usageOfBook(state.books.k!, T0 + 1000).hour).toBe(45);
      expect((await open().usage('k', T0 + 1000)).hour).toBe(45);
    }
  });

  it('a process that flushes does not undo what another counted meanwhile', async () => {
    const { state, open } = sharedFile();
    const limits = { perHour: 1000 };
    const a = open();
    const b = open();
    for (let i = 0; i < 30; i++) expect((await a.take('k', limits, T0 + i)).ok).toBe(true);
    for (let i = 0; i < 7; i++) expect((await b.take('k', limits, T0 + 100 + i)).ok).toBe(true);
    await b.flush?.();
    await a.flush?.();
    expect(usageOfBook(state.books.k!, T0 + 1000).hour).toBe(37);
    // Another minute, another reservation: still one write per reservation, not per request.
    const writes = state.writes;
    for (let i = 0; i < 19; i++) expect((await a.take('k', limits, T0 + 61_000 + i)).ok).toBe(true);
    expect(state.writes).toBe(writes + 1);
    await a.flush?.();
    expect(usageOfBook(state.books.k!, T0 + 62_000).hour).toBe(56);
  });

  it('a write that failed is not taken as made: the next one still adds this process’s requests to the others’', async () => {
    const { state, open } = sharedFile();
    const limits = { perHour: 1000 };
    const [a, b] = [open(), open()];
    for (let i = 0; i < 20; i++) expect((await b.take('k', limits, T0 + i)).ok).toBe(true);
    await b.flush?.();
    for (let i = 0; i < 20; i++) expect((await a.take('k', limits, T0 + 100 + i)).ok).toBe(true);
    state.failNext = true;
    await expect(a.take('k', limits, T0 + 200)).rejects.toThrow('ENOSPC');
    await a.flush?.();
    expect(usageOfBook(state.books.k!, T0 + 1000).hour).toBe(40);
  });

  it('never refused beyond what the provider announced, and a reservation does not use up its ceiling', async () => {
    const { state, open } = sharedFile();
    const a = open();
    await a.announce('k', { name: 'hour', remaining: 100, resetAt: T0 + 3_000_000 }, T0);
    // One request a minute, each a new reservation: each ceiling of 100 allows them all.
    for (let i = 0; i < 10; i++) expect((await a.take('k', {}, T0 + i * 60_000)).ok).toBe(true);
    await a.flush?.();
    expect(state.books.k?.ceilings.hour?.remaining).toBe(90);
  });

  it('a lower ceiling announced to another process is not raised by this one’s older one', async () => {
    const { state, open } = sharedFile();
    const [a, b] = [open(), open()];
    await a.announce('k', { name: 'hour', remaining: 100, resetAt: T0 + 30_000 }, T0);
    expect((await a.take('k', {}, T0)).ok).toBe(true);
    await b.announce('k', { name: 'hour', remaining: 0, resetAt: T0 + 40_000 }, T0 + 1000);
    expect(await b.take('k', {}, T0 + 1000)).toMatchObject({ ok: false, window: 'provider' });
    await b.flush?.();
    await a.flush?.();
    // Whichever writes last: the lower remaining, until the later reset.
    expect(state.books.k?.ceilings.hour).toEqual({ remaining: 0, until: T0 + 40_000 });
    expect(await open().take('k', {}, T0 + 2000)).toMatchObject({ ok: false, window: 'provider' });
  });

  it('a spent hour is said without writing the file, however often a run asks', async () => {
    const { state, open } = sharedFile();
    const limits = { perHour: 5 };
    const a = open();
    for (let i = 0; i < 5; i++) expect((await a.take('k', limits, T0 + i)).ok).toBe(true);
    const writes = state.writes;
    for (let i = 0; i < 100; i++)
      expect(await a.take('k', limits, T0 + 10 + i)).toMatchObject({ ok: false, window: 'hour' });
    expect(state.writes).toBe(writes);
  });

  it('a per-second limit is shared: another process counts this one’s requests in flight and answered', async () => {
    const { open } = sharedFile();
    const limits = { perSecond: 2 };
    const [a, b] = [open(), open()];
    const t1 = await a.take('k', limits, T0);
    const t2 = await a.take('k', limits, T0 + 10);
    expect(t1.ok && t2.ok).toBe(true);
    // Two in flight in the other process: this one waits.
    expect(await b.take('k', limits, T0 + 20)).toMatchObject({ ok: false, window: 'second' });
    // Answered at 100 ms: they count for the second after their answers, then no more.
    if (t1.ok) await a.done('k', t1.ticket, T0 + 100);
    if (t2.ok) await a.done('k', t2.ticket, T0 + 100);
    expect(await b.take('k', limits, T0 + 1000)).toMatchObject({ ok: false, window: 'second' });
    expect((await b.take('k', limits, T0 + 1400)).ok).toBe(true);
  });

  it('a 429 heard by one process holds the others back at once, with no per-second limit', async () => {
    const { open } = sharedFile();
    const limits = { perHour: 1000 };
    const a = open();
    expect((await a.take('k', limits, T0)).ok).toBe(true);
    await a.announce('k', { name: 'retry-after', remaining: 0, resetAt: T0 + 5000 }, T0 + 100);
    // A process that reads the file next (a new one, or one whose reservation is used) waits.
    expect(await open().take('k', limits, T0 + 200)).toMatchObject({ ok: false, window: 'provider' });
    expect((await open().take('k', limits, T0 + 5001)).ok).toBe(true);
  });

  it('a spent window about to reset in one process does not hold back the next window another has heard of', async () => {
    const { state, open } = sharedFile();
    const limits = { perHour: 10_000 };
    const [a, b] = [open(), open()];
    await a.announce('k', { name: 'hour', remaining: 0, resetAt: T0 + 1000 }, T0);
    expect(state.books.k?.ceilings.hour).toEqual({ remaining: 0, until: T0 + 1000 });
    // b heard the next window's count already: the file's spent one is the old window's.
    await b.announce('k', { name: 'hour', remaining: 7000, resetAt: T0 + 3_600_000 }, T0 + 400);
    expect((await b.take('k', limits, T0 + 500)).ok).toBe(true);
    expect((await b.take('k', limits, T0 + 600)).ok).toBe(true);
    await b.flush?.();
    // The new window, counted down by the two requests.
    expect(state.books.k?.ceilings.hour).toEqual({ remaining: 6998, until: T0 + 3_600_000 });
    // Within one window, the stricter count still wins.
    await a.announce('k', { name: 'hour', remaining: 0, resetAt: T0 + 3_600_500 }, T0 + 700);
    expect(await b.take('k', limits, T0 + 800)).toMatchObject({ ok: false, window: 'provider' });
  });

  it('a 429 heard by one process holds back another that holds a reservation, at its next request', async () => {
    const { state, open } = sharedFile();
    const limits = { perHour: 1000 };
    const [a, b] = [open(), open()];
    // b reserves ahead: its next requests are counted in the file already.
    expect((await b.take('k', limits, T0)).ok).toBe(true);
    expect((await b.take('k', limits, T0 + 10)).ok).toBe(true);
    const writes = state.writes;
    expect((await a.take('k', limits, T0 + 20)).ok).toBe(true);
    await a.announce('k', { name: 'retry-after', remaining: 0, resetAt: T0 + 5000 }, T0 + 100);
    expect(await b.take('k', limits, T0 + 200)).toMatchObject({
      ok: false,
      window: 'provider',
      retryAt: T0 + 5000,
    });
    // The refusal wrote nothing, and the reservation is used once the pause is over.
    expect(state.writes).toBe(writes + 2);
    expect((await b.take('k', limits, T0 + 5001)).ok).toBe(true);
    expect(state.writes).toBe(writes + 2);
    await a.flush?.();
    await b.flush?.();
    expect(usageOfBook(state.books.k!, T0 + 6000).hour).toBe(4);
  });
});
