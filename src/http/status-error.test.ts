import { describe, expect, it } from 'vitest';
import { isFeedSyncError } from '../errors.ts';
import { HttpStatusError } from './status-error.ts';

describe('HttpStatusError', () => {
  it.each([
    [400, false, false],
    [401, false, false],
    [404, false, false],
    [408, true, false],
    [429, true, true],
    [500, true, false],
    [503, true, false],
  ])('HTTP %i: retryable %s, rate limited %s', (status, retryable, rateLimited) => {
    const error = new HttpStatusError(status, `HTTP ${status} from feeds.example/acme.csv`, {
      kind: 'FEED_FETCH',
      code: 'E_FEED_HTTP',
      retryAfterMs: 2_000,
    });
    expect(isFeedSyncError(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'HttpStatusError',
      kind: 'FEED_FETCH',
      code: 'E_FEED_HTTP',
      status,
      retryable,
      rateLimited,
      retryAfterMs: 2_000,
      requestSent: true,
      message: `HTTP ${status} from feeds.example/acme.csv`,
    });
  });
});
