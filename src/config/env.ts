import { z } from 'zod';

/** Process-level settings that come from the environment rather than the config file. */
export const envSchema = z.object({
  FEED_SYNC_CONFIG: z.string().optional(),
  /** Set: the worker's queue and state live in this Redis (the container's default). */
  REDIS_URL: z.string().optional(),
  /** Set (and no REDIS_URL): they live in this Postgres (`postgres://…`). Neither: the embedded store. */
  DATABASE_URL: z.string().optional(),
  /** The worker's local folder: the embedded queue store is `<dir>/queue`. Default `.feed-sync`. */
  FEED_SYNC_STATE_DIR: z.string().default('.feed-sync'),
  /** Default: info for services (worker, ui), warn for one-shot commands, which print their own report. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  UI_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  UI_HOST: z.string().default('127.0.0.1'),
  UI_USER: z.string().optional(),
  UI_PASSWORD: z.string().optional(),
});
export type EnvSettings = z.infer<typeof envSchema>;

export function readEnv(env: NodeJS.ProcessEnv = process.env): EnvSettings {
  // Read once a process: zod's compiled fast path would cost more than it saves (`load.ts`).
  return envSchema.parse(env, { jitless: true });
}

/**
 * The proxy variables (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, either case), alone: read by every
 * command that makes requests, as they stand (src/http/proxy.ts judges them and names a bad one).
 */
export function readProxyEnv(env: NodeJS.ProcessEnv = process.env) {
  const { HTTPS_PROXY, https_proxy, HTTP_PROXY, http_proxy, NO_PROXY, no_proxy } = env;
  return { HTTPS_PROXY, https_proxy, HTTP_PROXY, http_proxy, NO_PROXY, no_proxy };
}

export const DEFAULT_CONFIG_FILE = 'feed-sync.yaml';
