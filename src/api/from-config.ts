import type { BackoffOptions } from '../http/index.ts';
import { createLocalLimiter, type Limiter } from '../http/index.ts';
import { type CallEvent, type ClientOptions, createClient, type PlatformClient } from './client.ts';

/**
 * The part of the config's `api:` section the client reads (src/config validates the section and
 * fills in its defaults; see there for units and defaults).
 */
export interface ApiConfig {
  baseUrl: string;
  secretKey?: string | undefined;
  sessionKey?: string | undefined;
  timeoutMs: number;
  retries: number;
  concurrency: number;
  requestsPerSecond?: number | undefined;
}

export interface PlatformOptions {
  /** Default: a local limiter from `api.concurrency` / `api.requestsPerSecond`; the worker passes its Redis-backed one. */
  limiter?: Limiter;
  onCall?: (event: CallEvent) => void;
  /** Called before every retry wait. */
  onRetry?: ClientOptions['onRetry'];
  /** Retry backoff; default 250 ms doubling to 30 s (tests shorten it). */
  backoff?: BackoffOptions;
}

/** The platform client as the config's `api` section describes it: keys, timeout, retries, limits. */
export function clientFromConfig(config: { api: ApiConfig }, options: PlatformOptions = {}): PlatformClient {
  const { api } = config;
  return createClient({
    baseUrl: api.baseUrl,
    secretKey: api.secretKey,
    sessionKey: api.sessionKey,
    timeoutMs: api.timeoutMs,
    retries: api.retries,
    limiter:
      options.limiter ??
      createLocalLimiter({ concurrency: api.concurrency, requestsPerSecond: api.requestsPerSecond }),
    ...(options.onCall ? { onCall: options.onCall } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    ...(options.backoff ? { backoff: options.backoff } : {}),
  });
}
