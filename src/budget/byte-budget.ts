import type { BudgetLimits } from './budget-types.ts';

/**
 * A provider's bytes-per-hour limit (MLS Grid: 4 GB downloaded per hour) as the request limits the
 * stores enforce. A request's size is known only once it is answered, so the hour may hold
 * `floor(bytesPerHour / largest) - 1` requests, `largest` being the largest answer seen: every answer
 * counted at the largest size, and one answer's size kept in reserve for an answer larger than any
 * before. At least one request an hour. Before any answer is seen, the bytes bound nothing. Pure.
 */
export function limitsForBytes(limits: BudgetLimits, largestAnswerBytes: number): BudgetLimits {
  const { bytesPerHour } = limits;
  if (!bytesPerHour || !(largestAnswerBytes > 0)) return limits;
  const byBytes = Math.max(1, Math.floor(bytesPerHour / largestAnswerBytes) - 1);
  if (limits.perHour !== undefined && limits.perHour <= byBytes) return limits;
  return { ...limits, perHour: byBytes };
}

/** Whether the hourly request limit in force is the one the bytes set. */
export const hourIsBytes = (limits: BudgetLimits, inForce: BudgetLimits) =>
  inForce.perHour !== limits.perHour;

/**
 * The bytes an answer cost: its `Content-Length` as sent (the bytes on the wire, compressed when it
 * was; raw headers, because got drops the header once it has decompressed the body), else the
 * body's own length (more than a compressed transfer, never less).
 */
export function answerBytes(rawHeaders: readonly string[], body: string): number {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== 'content-length') continue;
    const length = Number(rawHeaders[i + 1]);
    if (Number.isSafeInteger(length) && length > 0) return length;
  }
  return Buffer.byteLength(body);
}
