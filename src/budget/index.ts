/**
 * Request budgets of provider keys: rolling windows of a second, an hour and a day, and ceilings the
 * provider announces, kept where the run state is (memory, the CLI's state file, Redis, Postgres).
 */
export type { BudgetBook } from './budget-book.ts';
export type {
  BudgetAnswer,
  BudgetLimits,
  BudgetStore,
  BudgetUsage,
  BudgetWindow,
  Ceiling,
} from './budget-types.ts';
export { answerBytes, hourIsBytes, limitsForBytes } from './byte-budget.ts';
export { type BudgetFile, createFileBudget } from './file-budget.ts';
export { createMemoryBudget } from './memory-budget.ts';
export { createPostgresBudget } from './postgres-budget.ts';
export { createRedisBudget } from './redis-budget.ts';
