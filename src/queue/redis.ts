import { Redis } from 'ioredis';
import { FeedSyncError } from '../errors.ts';
import { redactUrl } from './store.ts';

/** Redis could not be reached: one line naming the URL (without its password) and the reason. */
export class RedisUnavailableError extends FeedSyncError {
  constructor(url: string, reason: string) {
    super(`cannot reach Redis at ${redactUrl(url)}: ${reason}`, {
      kind: 'SERVICE_UNAVAILABLE',
      code: 'E_REDIS',
      retryable: true,
    });
  }
}

/**
 * A connection for the worker: `maxRetriesPerRequest: null` as BullMQ requires of worker
 * connections (a blocking command must wait through a reconnect instead of failing).
 */
export function connectRedis(url: string, name = 'feed-sync'): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectionName: name, lazyConnect: false });
}

/**
 * Try Redis once, before anything else, so an unreachable server is one clear error instead of
 * a stack of reconnect attempts.
 */
export async function checkRedis(url: string, timeoutMs = 3000): Promise<void> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    enableOfflineQueue: false,
  });
  // ioredis reports the socket's error here and rejects connect() with "Connection is closed".
  let socketError: NodeJS.ErrnoException | undefined;
  probe.on('error', (error: NodeJS.ErrnoException) => {
    socketError ??= error;
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    const cause = socketError ?? (error as NodeJS.ErrnoException);
    throw new RedisUnavailableError(url, cause.code ?? cause.message.split('\n')[0] ?? 'unknown error');
  } finally {
    probe.disconnect();
  }
}
