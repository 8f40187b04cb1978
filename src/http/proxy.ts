import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { FeedSyncError } from '../errors.ts';

/**
 * An HTTP proxy from the environment (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, as curl and Node's
 * `NODE_USE_ENV_PROXY` read them): every request of the process goes through it, the platform's
 * calls, the feeds, RESO and its tokens, the alert webhook. Node's own agents do the proxying (an
 * `https:` URL through a `CONNECT` tunnel, so the proxy sees the host and never the request or its
 * keys; an `http:` URL as an absolute-form request; `user:password@` in the proxy's URL sent as
 * `Proxy-Authorization`; `NO_PROXY` judged per request). While a proxy is set, the platform's calls
 * leave its own wire (`wire.ts`, which speaks to the server directly) for `node:http` on these
 * agents: ~90–140 µs of client CPU a call instead of ~40 (docs/performance.md).
 */

/** The variables a proxy is read from: the URLs by the scheme of the request they serve. */
const URL_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;
const LIST_VARIABLES = ['NO_PROXY', 'no_proxy'] as const;
/** Hosts reached directly whatever NO_PROXY says. */
const LOOPBACK = 'localhost,127.0.0.1,::1';
type ProxyVariable = (typeof URL_VARIABLES)[number] | (typeof LIST_VARIABLES)[number];

export type ProxyEnv = Partial<Record<ProxyVariable, string | undefined>>;

export interface ProxyAgents {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
}

let agents: ProxyAgents | undefined;

/**
 * The proxy of `env` for every request from now on, or none (direct) when it names no proxy URL.
 * A value that is no `http://` or `https://` URL is a config error naming the variable (never its
 * value: a proxy URL may hold a password); an empty one is unset, as curl reads it.
 */
export function useProxy(env: ProxyEnv): void {
  const proxyEnv: Record<string, string> = {};
  for (const name of URL_VARIABLES) {
    const value = env[name]?.trim();
    if (!value) continue;
    const url = URL.parse(value);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
      throw new FeedSyncError(
        `${name} is not a proxy URL: expected http://host:port (or https://, with user:password@ when the proxy asks for it)`,
        { kind: 'CONFIG_INVALID', code: 'E_CONFIG' },
      );
    proxyEnv[name] = value;
  }
  // This machine's own loopback never through a proxy, which could not reach it (as Go's
  // ProxyFromEnvironment): the sandbox `demo` starts, a platform on this host.
  // Both spellings hold the same list: which one Node reads first is its own affair.
  const direct = LIST_VARIABLES.map((name) => env[name]?.trim()).filter(Boolean);
  for (const name of LIST_VARIABLES) proxyEnv[name] = [...direct, LOOPBACK].join(',');
  stopProxy();
  if (!URL_VARIABLES.some((name) => name in proxyEnv)) return;
  agents = {
    http: new HttpAgent({ keepAlive: true, proxyEnv }),
    https: new HttpsAgent({ keepAlive: true, proxyEnv }),
  };
}

/** Back to direct requests; the proxy's idle connections closed. */
export function stopProxy(): void {
  agents?.http.destroy();
  agents?.https.destroy();
  agents = undefined;
}

/** The agents requests go through while a proxy is set, else undefined (direct). */
export function proxyAgents(): ProxyAgents | undefined {
  return agents;
}
