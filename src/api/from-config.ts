import type { Config } from '../config/schema.ts';
import { createLocalLimiter, type Limiter } from '../http/limiter.ts';
import { type CallEvent, createClient, type PlatformClient } from './client.ts';

export interface PlatformOptions {
  /** Default: a local limiter from `api.concurrency` / `api.requestsPerSecond`; the worker passes its Redis-backed one. */
  limiter?: Limiter;
  onCall?: (event: CallEvent) => void;
}

/** The platform client as the config's `api` section describes it: keys, timeout, retries, limits. */
export function clientFromConfig(config: Pick<Config, 'api'>, options: PlatformOptions = {}): PlatformClient {
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
  });
}
