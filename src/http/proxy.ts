import { type ClientRequestArgs, Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIPv4 } from 'node:net';
import type { Duplex } from 'node:stream';
import { FeedSyncError } from '../errors.ts';

/**
 * An HTTP proxy from the environment (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, upper or lower case):
 * every request of the process goes through it, the platform's calls, the feeds, RESO and its
 * tokens, the alert webhook. Node's own proxy agents do the proxying (an `https:` URL through a
 * `CONNECT` tunnel, so the proxy sees the host and never the request or its keys; an `http:` URL as
 * an absolute-form request; `user:password@` in the proxy's URL sent as `Proxy-Authorization`;
 * `NO_PROXY` judged per request), with what Node leaves out: the tunnel bounded in time (Node's
 * waits for the proxy's answer as long as the request's `timeout` option says, and got's phase
 * timeouts start only once it is open), `NO_PROXY`'s entries as curl and Go read them (a bare
 * domain covers its subdomains, `10.0.0.0/8` a range), this machine's loopback always direct.
 * While a proxy is set, the platform's calls leave its own wire (`wire.ts`, which speaks to the
 * server directly) for `node:http` on these agents: ~90–140 µs of client CPU a call instead of ~40
 * (docs/performance.md).
 */

/** The variables a proxy is read from: the URLs by the scheme of the request they serve. */
const URL_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;
const LIST_VARIABLES = ['NO_PROXY', 'no_proxy'] as const;
/** Hosts reached directly whatever NO_PROXY says: no proxy could reach this machine's loopback. */
const LOOPBACK = ['localhost', '127.0.0.1', '::1'];
/** How long a tunnel may take to open when the request names no timeout of its own. */
const TUNNEL_DEFAULT_MS = 30_000;

type ProxyVariable = (typeof URL_VARIABLES)[number] | (typeof LIST_VARIABLES)[number];
export type ProxyEnv = Partial<Record<ProxyVariable, string | undefined>>;

export interface ProxyAgents {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
}

interface Proxy {
  /** Node's reading of the environment: the URLs as parsed, NO_PROXY as Node matches it. */
  readonly env: Record<string, string>;
  /** What the proxy is, for messages: the variables set, never their values. */
  readonly names: { readonly 'http:'?: string; readonly 'https:'?: string };
  /** Whether NO_PROXY names hosts of the user's. */
  readonly exempts: boolean;
  readonly agents: Map<number, ProxyAgents>;
}

let proxy: Proxy | undefined;

/**
 * The proxy of `env` for every request from now on, or none (direct) when it names no proxy URL.
 * A value that is no `http://` or `https://` URL is a config error naming the variable (never its
 * value: a proxy URL may hold a password); an empty one is unset, as curl reads it.
 */
export function useProxy(env: ProxyEnv): void {
  const proxyEnv: Record<string, string> = {};
  const names: { 'http:'?: string; 'https:'?: string } = {};
  for (const name of URL_VARIABLES) {
    const value = env[name]?.trim();
    if (!value) continue;
    const url = URL.parse(value);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
      throw new FeedSyncError(
        `${name} is not a proxy URL: expected http://host:port (or https://, with user:password@ when the proxy asks for it)`,
        { kind: 'CONFIG_INVALID', code: 'E_CONFIG' },
      );
    // As parsed (`HTTP://`, `http:/host` and a line break read as the URL they stand for): Node's
    // agent takes a value only as it starts, and reads one of another spelling as no proxy.
    proxyEnv[name] = url.href;
    const scheme = name.toLowerCase().startsWith('https') ? 'https:' : 'http:';
    names[scheme] ??= name;
  }
  // Both spellings hold the same list: which one Node reads first is its own affair.
  const direct = LIST_VARIABLES.flatMap((name) => (env[name] ?? '').split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const name of LIST_VARIABLES) proxyEnv[name] = noProxyList(direct).join(',');
  stopProxy();
  if (names['http:'] === undefined && names['https:'] === undefined) return;
  proxy = { env: proxyEnv, names, exempts: direct.length > 0, agents: new Map() };
}

/**
 * NO_PROXY's entries as Node matches them: each as given, a bare domain also as `.domain` (its
 * subdomains, as curl and Go read it), an IPv4 CIDR block as the range Node reads
 * (`10.0.0.0-10.255.255.255`), then this machine's loopback.
 */
export function noProxyList(entries: readonly string[]): string[] {
  const list: string[] = [];
  for (const entry of entries) {
    list.push(entry);
    const cidr = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(entry);
    if (cidr && isIPv4(cidr[1] as string) && Number(cidr[2]) <= 32) {
      const bits = Number(cidr[2]);
      const base = (cidr[1] as string).split('.').reduce((n, part) => n * 256 + Number(part), 0);
      const size = 2 ** (32 - bits);
      const first = base - (base % size);
      list.push(`${ipOf(first)}-${ipOf(first + size - 1)}`);
    } else if (/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(entry) && !isIPv4(entry)) list.push(`.${entry}`);
  }
  return [...list, ...LOOPBACK];
}

const ipOf = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');

/** Back to direct requests; the proxy's idle connections closed. */
export function stopProxy(): void {
  for (const agents of proxy?.agents.values() ?? []) {
    agents.http.destroy();
    agents.https.destroy();
  }
  proxy = undefined;
}

/**
 * The agents requests go through while a proxy is set, else undefined (direct). `tunnelMs`: how
 * long an `https:` request's tunnel may take to open when the request sets no `timeout` of its
 * own (got's, whose timers start only once it is open).
 */
export function proxyAgents(tunnelMs = TUNNEL_DEFAULT_MS): ProxyAgents | undefined {
  if (proxy === undefined) return undefined;
  let agents = proxy.agents.get(tunnelMs);
  if (agents === undefined) {
    const options = { keepAlive: true, proxyEnv: proxy.env };
    agents = { http: new HttpAgent(options), https: new TunnelAgent(options, tunnelMs) };
    proxy.agents.set(tunnelMs, agents);
  }
  return agents;
}

/** Which variable's proxy a request to `url` would take, for messages ("HTTPS_PROXY is set"). */
export function proxyNoteFor(url: string): string | undefined {
  const scheme = URL.parse(url)?.protocol;
  const name = scheme === 'http:' || scheme === 'https:' ? proxy?.names[scheme] : undefined;
  if (name === undefined) return undefined;
  return proxy?.exempts ? `${name} and NO_PROXY are set` : `${name} is set`;
}

/**
 * Node's https agent, its tunnels bounded: Node destroys a tunnel that has not opened within the
 * request's `timeout` and fails the request (`ERR_PROXY_TUNNEL`), but waits for ever without one,
 * keeping the socket and the process alive after the caller has given up on the request.
 */
class TunnelAgent extends HttpsAgent {
  readonly #tunnelMs: number;
  constructor(options: ConstructorParameters<typeof HttpsAgent>[0], tunnelMs: number) {
    super(options);
    this.#tunnelMs = tunnelMs;
  }
  override createConnection(
    options: ClientRequestArgs,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    return super.createConnection({ ...options, timeout: options.timeout ?? this.#tunnelMs }, callback);
  }
}
