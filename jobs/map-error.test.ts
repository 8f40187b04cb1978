import { UnrecoverableError } from 'bullmq';
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  NetworkError,
  PlatformError,
  platformStatusError,
  SchemaError,
  TimeoutError,
} from '../src/api/index.ts';
import { ConfigError } from '../src/config/index.ts';
import { FeedSyncError } from '../src/errors.ts';
import { RedisUnavailableError } from '../src/queue/index.ts';
import { SnapshotError } from '../src/reconcile/index.ts';
import { FeedError } from '../src/sources/index.ts';
import { DEFAULT_RATE_LIMIT_MS, mapJobError, PayloadError } from './map-error.ts';

type Meaning = 'unrecoverable' | 'rate-limited' | 'retry';

async function meaningOf(error: unknown): Promise<{ meaning: Meaning; waitedMs?: number; message: string }> {
  let waitedMs: number | undefined;
  const mapped = await mapJobError(error, async (ms) => {
    waitedMs = ms;
  });
  const meaning: Meaning =
    mapped instanceof UnrecoverableError
      ? 'unrecoverable'
      : mapped.message === 'bullmq:rateLimitExceeded'
        ? 'rate-limited'
        : 'retry';
  return { meaning, message: mapped.message, ...(waitedMs === undefined ? {} : { waitedMs }) };
}

describe('mapJobError', () => {
  it.each<[string, unknown, Meaning]>([
    ['bad config', new ConfigError('feed-sync.yaml', ['feeds[0].id: required']), 'unrecoverable'],
    ['bad payload', new PayloadError('invalid job data: feedId'), 'unrecoverable'],
    ['HTTP 400', platformStatusError('create', 400), 'unrecoverable'],
    ['HTTP 401', platformStatusError('list', 401), 'unrecoverable'],
    ['HTTP 404', platformStatusError('update', 404), 'unrecoverable'],
    ['platform refusal', new PlatformError('create', 400, 'bad field'), 'unrecoverable'],
    ['unexpected response shape', new SchemaError('list', 'Data', 'expected array'), 'unrecoverable'],
    ['HTTP 500', platformStatusError('list', 500), 'retry'],
    ['HTTP 503', platformStatusError('list', 503), 'retry'],
    ['platform Code 500', new PlatformError('list', 500, 'busy'), 'retry'],
    ['timeout', new TimeoutError('list', 30_000), 'retry'],
    ['network', new NetworkError('list', 'ECONNRESET'), 'retry'],
    ['aborted (shutdown)', new AbortedError('list'), 'retry'],
    ['feed fetch failed', new FeedError('E_FEED_FETCH', 'acme', 'HTTP 503', { retryable: true }), 'retry'],
    ['feed parse failed', new FeedError('E_FEED_PARSE', 'acme', 'row 3: bad quote'), 'unrecoverable'],
    ['feed empty', new FeedError('E_FEED_EMPTY', 'acme', 'no records'), 'unrecoverable'],
    ['a refused partial snapshot', new SnapshotError('page limit reached'), 'unrecoverable'],
    ['Redis unavailable', new RedisUnavailableError('redis://x:6379', 'ECONNREFUSED'), 'retry'],
    ['unknown error', new Error('boom'), 'retry'],
    ['not an Error', 'boom', 'retry'],
  ])('%s → %s', async (_name, error, meaning) => {
    expect((await meaningOf(error)).meaning).toBe(meaning);
  });

  it('a 429 sets the worker rate limit to Retry-After, or a default without it', async () => {
    expect(await meaningOf(platformStatusError('list', 429, { retryAfterMs: 7_000 }))).toMatchObject({
      meaning: 'rate-limited',
      waitedMs: 7_000,
    });
    expect(await meaningOf(platformStatusError('create', 429))).toMatchObject({
      meaning: 'rate-limited',
      waitedMs: DEFAULT_RATE_LIMIT_MS,
    });
    expect(await meaningOf(new PlatformError('create', 429, 'slow down'))).toMatchObject({
      meaning: 'rate-limited',
    });
  });

  it('an unrecoverable error keeps the code and the cause', async () => {
    const cause = platformStatusError('list', 401);
    const mapped = await mapJobError(cause, async () => {});
    expect(mapped.message).toBe('E_HTTP: list: HTTP 401');
    expect(mapped.cause).toBe(cause);
  });
});

describe('the error base', () => {
  it('every error class a run can meet extends FeedSyncError with a kind and a stable code', () => {
    const errors = [
      new ConfigError('x.yaml', ['a: b']),
      new PayloadError('bad'),
      platformStatusError('list', 500),
      new PlatformError('create', 400, 'no'),
      new FeedError('E_FEED_FETCH', 'acme', 'down'),
      new SnapshotError('partial'),
      new RedisUnavailableError('redis://h:1', 'down'),
    ];
    expect(errors.map((e) => [e instanceof FeedSyncError, e.kind, e.code])).toEqual([
      [true, 'CONFIG_INVALID', 'E_CONFIG'],
      [true, 'CONFIG_INVALID', 'E_PAYLOAD'],
      [true, 'API_TRANSPORT', 'E_HTTP'],
      [true, 'API_BUSINESS', 'E_PLATFORM'],
      [true, 'FEED_FETCH', 'E_FEED_FETCH'],
      [true, 'SNAPSHOT', 'E_SNAPSHOT'],
      [true, 'SERVICE_UNAVAILABLE', 'E_REDIS'],
    ]);
  });
});
