import type { Config } from '../config/index.ts';
import { isLoopbackHost } from '../config/index.ts';
import { EXAMPLE_PASSWORD } from '../ui/index.ts';

/** `UI_PASSWORD` as shipped in .env.example: a worker started with it was never configured. */
export const EXAMPLE_UI_PASSWORD = EXAMPLE_PASSWORD;

/**
 * Why the worker must not start, in one line, or undefined. Pure. A worker without the platform key
 * would fail every run while looking healthy; the example password would guard the dashboard with
 * a password everyone can read. A worker on a local sandbox (api.baseUrl on loopback) needs no key.
 */
export function workerStartProblem(
  config: Config,
  env: { UI_PASSWORD?: string | undefined },
): string | undefined {
  if (env.UI_PASSWORD === EXAMPLE_UI_PASSWORD)
    return `refusing to start: UI_PASSWORD is still the example from .env.example ("${EXAMPLE_UI_PASSWORD}"); set a password of your own in .env`;
  const host = new URL(config.api.baseUrl).hostname.replace(/^\[|\]$/g, '');
  if (!config.api.secretKey && !isLoopbackHost(host))
    return `refusing to start: api.secretKey is empty for ${host}; set CHATBOT_SECRET_KEY in .env (or the environment)`;
  return undefined;
}
