import type { ApiConfig } from '../config/schema.ts';
import { createLocalLimiter, type Limiter } from '../http/limiter.ts';
import { type ClientOptions, createClient, type PlatformClient } from './client.ts';

/**
 * The client as the config describes it: keys, timeout, retries, and a limiter holding
 * `api.concurrency` / `api.requestsPerSecond` (the worker passes its Redis-backed one instead).
 */
export function clientFromConfig(
  api: ApiConfig,
  extra: Omit<Partial<ClientOptions>, 'limiter'> & { limiter?: Limiter } = {},
): { client: PlatformClient; limiter: Limiter } {
  const limiter =
    extra.limiter ??
    createLocalLimiter({ concurrency: api.concurrency, requestsPerSecond: api.requestsPerSecond });
  const client = createClient({
    baseUrl: api.baseUrl,
    secretKey: api.secretKey,
    sessionKey: api.sessionKey,
    timeoutMs: api.timeoutMs,
    retries: api.retries,
    ...extra,
    limiter,
  });
  return { client, limiter };
}
