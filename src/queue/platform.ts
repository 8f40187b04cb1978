import { type CallEvent, createClient, type PlatformClient } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import { createLocalLimiter, type Limiter } from '../http/limiter.ts';

export interface PlatformOptions {
  /** Default: a local limiter from `api.concurrency` / `api.requestsPerSecond`. */
  limiter?: Limiter;
  onCall?: (event: CallEvent) => void;
}

/** The platform client as configured in `api`. */
export function clientFromConfig(config: Config, options: PlatformOptions = {}): PlatformClient {
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
