import { createRequire } from 'node:module';
import type { CronExpressionParser as Parser } from 'cron-parser';

let parser: typeof Parser | undefined;

/**
 * cron-parser, required when a cron expression is first read: a config without a schedule (a
 * one-shot `sync`) never loads it, nor luxon under it. The one entry to it (config checks, the
 * dashboard's next runs).
 */
export function cronParser(): typeof Parser {
  parser ??= (createRequire(import.meta.url)('cron-parser') as typeof import('cron-parser'))
    .CronExpressionParser;
  return parser;
}

/**
 * Why a cron expression cannot schedule anything, or undefined when it can. The parser is the one
 * BullMQ's job schedulers use, so what passes here is what the worker runs. Five fields (minute
 * first) or six (seconds first), or a `@daily`-style alias; cron-parser alone would take four.
 */
export function cronProblem(expression: string): string | undefined {
  const text = expression.trim();
  const fields = text.split(/\s+/).length;
  if (!text.startsWith('@') && fields !== 5 && fields !== 6)
    return `"${expression}" has ${fields} field${fields === 1 ? '' : 's'}; a cron expression has 5 (minute hour day month weekday) or 6`;
  try {
    // `next()` too: an expression that parses but never matches (Feb 30) must fail here, not in the worker.
    cronParser()
      .parse(text, { tz: 'UTC', currentDate: new Date(0) })
      .next();
    return undefined;
  } catch (error) {
    return `"${expression}" is not a valid cron expression: ${(error as Error).message}`;
  }
}
