import { describe, expect, it } from 'vitest';
import { Budget, HOUR, SECOND } from './budget.ts';

describe('Budget', () => {
  const limits = () =>
    new Budget([
      { name: 'second', windowMs: SECOND, limit: 2, unit: 'requests' },
      { name: 'hour', windowMs: HOUR, limit: 5, unit: 'requests' },
      { name: 'bytesPerHour', windowMs: HOUR, limit: 100, unit: 'bytes' },
    ]);

  it('admits up to the limit in a sliding window and names the limit the next request exceeds', () => {
    const budget = limits();
    budget.admit('k', 0);
    budget.admit('k', 500);
    expect(budget.exceeded('k', 999)?.limit.name).toBe('second');
    // The first request leaves the window 1000 ms after it was admitted.
    expect(budget.exceeded('k', 1000)).toBeUndefined();
  });

  it('keeps keys apart and reports remaining and reset', () => {
    const budget = limits();
    budget.admit('a', 10);
    const hour = budget.usage('a', 20).find((u) => u.limit.name === 'hour')!;
    expect(hour).toMatchObject({ used: 1, remaining: 4, resetAt: 10 + HOUR });
    expect(budget.usage('b', 20).every((u) => u.used === 0)).toBe(true);
  });

  it('counts the hour across seconds, and bytes after the fact', () => {
    const budget = limits();
    for (let n = 0; n < 5; n++) budget.admit('k', n * 2000);
    expect(budget.exceeded('k', 10_000)?.limit.name).toBe('hour');
    budget.addBytes('k', 10_000, 150);
    const bytes = budget.usage('k', 10_001).find((u) => u.limit.name === 'bytesPerHour')!;
    expect(bytes.used).toBe(150);
    expect(bytes.remaining).toBe(0);
    expect(budget.exceeded('k', HOUR + 10_001)).toBeUndefined();
  });
});
