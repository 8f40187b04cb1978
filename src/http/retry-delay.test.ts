import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelay } from './retry-delay.ts';

describe('retryDelay', () => {
  it('honours Retry-After, capped', () => {
    expect(retryDelay(1, 1500)).toBe(1500);
    expect(retryDelay(3, 0)).toBe(0);
    expect(retryDelay(1, 10 * 60_000)).toBe(120_000);
  });

  it('grows exponentially with jitter between half and the whole ceiling', () => {
    expect(retryDelay(1, undefined, () => 0)).toBe(125);
    expect(retryDelay(1, undefined, () => 1)).toBe(250);
    expect(retryDelay(3, undefined, () => 1)).toBe(1000);
    expect(retryDelay(20, undefined, () => 1)).toBe(30_000);
    expect(retryDelay(2, undefined, () => 0.5, { baseMs: 100 })).toBe(150);
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['2', 2000],
    ['0.5', 500],
    [' 10 ', 10_000],
    [undefined, undefined],
    ['soon', undefined],
  ])('%j → %j', (header, ms) => {
    expect(parseRetryAfter(header)).toBe(ms);
  });

  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  });
});
