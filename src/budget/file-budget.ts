import { randomUUID } from 'node:crypto';
import {
  announcedTo,
  type BudgetBook,
  counted,
  doneInBook,
  emptyBook,
  headroom,
  MINUTE_MS,
  pruned,
  takeFromBook,
  usageOfBook,
} from './budget-book.ts';
import type { BudgetStore } from './budget-types.ts';

/** Requests reserved at once in the state file: one write per this many requests, at most. */
const RESERVE = 20;

/** Where a file-backed budget reads and changes its books (the CLI's state file, `budgets`). */
export interface BudgetFile {
  read(): Promise<Record<string, BudgetBook>>;
  /**
   * Change the books as the file holds them now, no other process writing meanwhile (the state
   * file's lock): `change` is given them and returns them changed.
   */
  update(change: (books: Record<string, BudgetBook>) => Record<string, BudgetBook>): Promise<void>;
}

/** What this process sent of one key, and what the file holds of it. */
interface Own {
  /** Requests it started, by minute number. */
  minutes: Record<string, number>;
  /** Its requests of the last second, by ticket (`BudgetBook.seconds`). */
  seconds: Record<string, number>;
  /** What the file holds of its requests, by minute (those started and those reserved), as last written. */
  written: Record<string, number>;
  /** Requests counted in the file and not started yet, in the minute they are counted in. */
  reserved: { n: number; minute: number };
}

/** `book` with `minutes` added (a negative count takes away; never below 0). Pure. */
function withMinutes(book: BudgetBook, minutes: Record<string, number>, sign: 1 | -1): BudgetBook {
  const out = { ...book.minutes };
  for (const [minute, n] of Object.entries(minutes)) {
    const total = (out[minute] ?? 0) + sign * n;
    if (total > 0) out[minute] = total;
    else delete out[minute];
  }
  return { ...book, minutes: out };
}

/**
 * The one-shot CLI's budgets, kept in its state file so that the next run, a run after a crash, and
 * a run at the same time in another process (two feeds of one MLS key, each by its own cron line)
 * count what this one sent. Writing the file for every request would rewrite the run history twice
 * a second, so requests are reserved ahead: the file counts up to `RESERVE` requests before they are
 * sent, the process then uses them from memory, and `flush` writes the true count. A process killed
 * meanwhile leaves its unused reservation counted: too strict for an hour, never too loose.
 *
 * Each write changes the books as the file holds them then (under the state file's lock): what this
 * process counted since its last write is added to what the others wrote meanwhile, never written
 * over it; and a reservation is sized, and its first request checked, against that fresh count. So
 * two processes on one key never count fewer requests than both sent.
 */
export function createFileBudget(file: BudgetFile): BudgetStore {
  /** The others' requests as the file last showed them, with this process's own: what `take` checks. */
  let views: Promise<Map<string, BudgetBook>> | undefined;
  const owns = new Map<string, Own>();
  /** The latest clock reading seen: `flush` prunes by the run's clock, which tests inject. */
  let lastNow = 0;
  const load = () => {
    views ??= file.read().then((books) => new Map(Object.entries(books)));
    return views;
  };
  const ownOf = (key: string) => {
    let own = owns.get(key);
    if (own === undefined) {
      own = { minutes: {}, seconds: {}, written: {}, reserved: { n: 0, minute: 0 } };
      owns.set(key, own);
    }
    return own;
  };
  /** What the file holds of `own` now: the requests it started and those it reserved, by minute. */
  const holding = (own: Own): Record<string, number> => {
    const held = { ...own.minutes };
    const { n, minute } = own.reserved;
    if (n > 0) held[minute] = (held[minute] ?? 0) + n;
    return held;
  };
  /**
   * In the file as it is now: the others' requests (the file's less what it holds of ours), `act` on
   * the view (theirs and ours), then ours written back. Returns what `act` returned.
   */
  const merge = async <T>(
    key: string,
    now: number,
    act: (view: BudgetBook) => { view: BudgetBook; value: T },
  ): Promise<T> => {
    const books = await load();
    const own = ownOf(key);
    let value: T | undefined;
    await file.update((inFile) => {
      const found = inFile[key] ?? emptyBook();
      const theirSeconds = Object.fromEntries(
        Object.entries(found.seconds ?? {}).filter(([ticket]) => own.seconds[ticket] === undefined),
      );
      const theirs = withMinutes({ ...found, seconds: theirSeconds }, own.written, -1);
      // Ours on theirs: the requests started, the second's entries, the ceilings this process was told.
      let view = withMinutes({ ...theirs, seconds: { ...theirSeconds, ...own.seconds } }, own.minutes, 1);
      for (const [name, c] of Object.entries(books.get(key)?.ceilings ?? {}))
        view = announcedTo(view, { name, remaining: c.remaining, resetAt: c.until }, now);
      const acted = act(pruned(view, now));
      value = acted.value;
      books.set(key, acted.view);
      // What no window sees any more is forgotten, here as in the file.
      const kept = pruned({ seconds: own.seconds, minutes: own.minutes, ceilings: {} }, now);
      own.seconds = kept.seconds;
      own.minutes = kept.minutes;
      own.written = holding(own);
      const { n, minute } = own.reserved;
      const written = n > 0 ? counted(acted.view, minute * MINUTE_MS, n) : acted.view;
      return { ...inFile, [key]: pruned(written, now) };
    });
    return value as T;
  };
  return {
    async take(key, limits, now) {
      lastNow = Math.max(lastNow, now);
      const books = await load();
      const own = ownOf(key);
      const minute = Math.floor(now / MINUTE_MS);
      const start = (book: BudgetBook) => {
        const taken = takeFromBook(book, limits, now, randomUUID());
        if (taken.answer.ok) {
          own.minutes[minute] = (own.minutes[minute] ?? 0) + 1;
          own.seconds[taken.answer.ticket] = taken.book.seconds[taken.answer.ticket] as number;
        }
        return taken;
      };
      if (own.reserved.n > 0 && own.reserved.minute === minute) {
        const taken = start(books.get(key) ?? emptyBook());
        books.set(key, taken.book);
        if (taken.answer.ok) own.reserved.n--;
        return taken.answer;
      }
      // A new reservation: the request is checked, and the reservation sized, against the file now.
      return merge(key, now, (view) => {
        const taken = start(view);
        own.reserved = {
          n: taken.answer.ok ? Math.min(RESERVE - 1, headroom(taken.book, limits, now)) : 0,
          minute,
        };
        return { view: taken.book, value: taken.answer };
      });
    },
    async done(key, ticket, now) {
      const books = await load();
      const book = books.get(key);
      const own = owns.get(key);
      if (own?.seconds[ticket] !== undefined) own.seconds[ticket] = now;
      if (book) books.set(key, doneInBook(book, ticket, now));
    },
    async announce(key, ceiling, now) {
      const books = await load();
      books.set(key, announcedTo(books.get(key) ?? emptyBook(), ceiling, now));
    },
    async usage(key, now) {
      return usageOfBook((await load()).get(key) ?? emptyBook(), now);
    },
    async flush() {
      if (!views) return;
      const now = lastNow || Date.now();
      for (const [key, own] of owns) {
        own.reserved = { n: 0, minute: own.reserved.minute };
        await merge(key, now, (view) => ({ view, value: undefined }));
      }
    },
  };
}
