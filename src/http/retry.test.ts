import { describe, expect, it } from 'vitest';
import { withRetries } from './retry.ts';

class Refused extends Error {
  readonly rateLimited: boolean;
  constructor(rateLimited: boolean) {
    super(rateLimited ? '429' : '503');
    this.rateLimited = rateLimited;
  }
}

describe('withRetries', () => {
  it('pauses the shared limiter for the retry delay on a rate-limited failure only', async () => {
    const pauses: number[] = [];
    const failures = [new Refused(true), new Refused(false)];
    let calls = 0;
    const result = await withRetries(
      async () => {
        const failure = failures[calls++];
        if (failure) throw failure;
        return 'ok';
      },
      {
        retries: 3,
        isRetryable: () => true,
        retryAfterMs: (error) => ((error as Refused).rateLimited ? 5 : undefined),
        isRateLimited: (error) => (error as Refused).rateLimited,
        limiter: { pause: (ms) => pauses.push(ms) },
        backoff: { baseMs: 1 },
      },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    expect(pauses).toEqual([5]);
  });

  it('gives up after the retries, and at once on a failure that is not retryable', async () => {
    let calls = 0;
    const fail = () => {
      calls++;
      return Promise.reject(new Refused(false));
    };
    await expect(
      withRetries(fail, { retries: 2, isRetryable: () => true, backoff: { baseMs: 1 } }),
    ).rejects.toThrow('503');
    expect(calls).toBe(3);
    calls = 0;
    await expect(withRetries(fail, { retries: 2, isRetryable: () => false })).rejects.toThrow('503');
    expect(calls).toBe(1);
  });

  it('backs a 429 without Retry-After off by its own backoff (a provider’s seconds), others by the usual', async () => {
    const delays: [string, number][] = [];
    const failures = [new Refused(true), new Refused(true), new Refused(false)];
    let calls = 0;
    await withRetries(
      async () => {
        const failure = failures[calls++];
        if (failure) throw failure;
        return 'ok';
      },
      {
        retries: 3,
        isRetryable: () => true,
        isRateLimited: (error) => (error as Refused).rateLimited,
        backoff: { baseMs: 1 },
        rateLimitedBackoff: { baseMs: 4 },
        random: () => 1,
        onRetry: (error, _n, ms) => delays.push([(error as Error).message, ms]),
      },
    );
    expect(delays).toEqual([
      ['429', 4],
      ['429', 8],
      ['503', 4],
    ]);
  });
});
