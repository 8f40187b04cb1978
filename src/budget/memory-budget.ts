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

/** Budgets of one process (tests, a one-off `validate`): nothing shared, nothing kept. */
export function createMemoryBudget(): BudgetStore {
  const books = new Map<string, BudgetBook>();
  const bookOf = (key: string) => books.get(key) ?? emptyBook();
  return {
    async take(key, limits, now) {
      const { book, answer } = takeFromBook(bookOf(key), limits, now, randomUUID());
      books.set(key, book);
      return answer;
    },
    async done(key, ticket, now) {
      books.set(key, doneInBook(bookOf(key), ticket, now));
    },
    async announce(key, ceiling, now) {
      books.set(key, announcedTo(bookOf(key), ceiling, now));
    },
    async usage(key, now) {
      return usageOfBook(bookOf(key), now);
    },
  };
}

/** Requests reserved at once in the state file: one write per this many requests, at most. */
const RESERVE = 20;

/** Where a file-backed budget reads and writes its books (the CLI's state file, `budgets`). */
export interface BudgetFile {
  read(): Promise<Record<string, BudgetBook>>;
  write(books: Record<string, BudgetBook>): Promise<void>;
}

/**
 * The one-shot CLI's budgets, kept in its state file so that the next run, and a run after a crash,
 * counts what this one sent. Writing the file for every request would rewrite the run history twice
 * a second, so requests are reserved ahead: the file counts up to `RESERVE` requests before they are
 * sent, the process then uses them from memory, and `flush` writes the true count. A process killed
 * meanwhile leaves its unused reservation counted: too strict for an hour, never too loose.
 */
export function createFileBudget(file: BudgetFile): BudgetStore {
  let loaded: Promise<Map<string, BudgetBook>> | undefined;
  /** Requests reserved in the file and not used yet, per key, with the minute they are counted in. */
  const reserved = new Map<string, { n: number; minute: number }>();
  /** The latest clock reading seen: `flush` prunes by the run's clock, which tests inject. */
  let lastNow = 0;
  const load = () => {
    loaded ??= file.read().then((books) => new Map(Object.entries(books)));
    return loaded;
  };
  const save = async (books: Map<string, BudgetBook>, now: number) => {
    const out: Record<string, BudgetBook> = {};
    for (const [key, book] of books) {
      const r = reserved.get(key);
      // The file counts what was used and what is reserved, in the reservation's minute.
      out[key] = pruned(r && r.n > 0 ? counted(book, r.minute * MINUTE_MS, r.n) : book, now);
    }
    await file.write(out);
  };
  return {
    async take(key, limits, now) {
      lastNow = Math.max(lastNow, now);
      const books = await load();
      const { book, answer } = takeFromBook(books.get(key) ?? emptyBook(), limits, now, randomUUID());
      books.set(key, book);
      if (!answer.ok) return answer;
      const minute = Math.floor(now / MINUTE_MS);
      const r = reserved.get(key);
      if (r && r.n > 0 && r.minute === minute) {
        r.n--;
        return answer;
      }
      // A new reservation, no larger than what every window still allows after this request.
      reserved.set(key, { n: Math.min(RESERVE - 1, headroom(book, limits, now)), minute });
      await save(books, now);
      return answer;
    },
    async done(key, ticket, now) {
      const books = await load();
      const book = books.get(key);
      // The second lives in this process only: the file keeps the hour and the day.
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
      if (!loaded) return;
      reserved.clear();
      await save(await loaded, lastNow || Date.now());
    },
  };
}
