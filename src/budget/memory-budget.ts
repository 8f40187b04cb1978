import { randomUUID } from 'node:crypto';
import {
  announcedTo,
  type BudgetBook,
  doneInBook,
  emptyBook,
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
