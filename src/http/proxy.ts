import { type ClientRequestArgs, Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
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
 * The platform's calls to a host a proxy serves leave its own wire (`wire.ts`, which speaks to the
 * server directly) for `node:http` on these agents: ~90–140 µs of client CPU a call instead of
 * ~20–30 (docs/performance.md); those to a host it does not serve stay on the wire.
 */

/**
 * The variables a proxy is read from: the URLs by the scheme of the request they serve, the lower
 * case first (Node's and curl's precedence).
 */
const URL_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;
const LIST_VARIABLES = ['NO_PROXY', 'no_proxy'] as const;
/** Hosts reached directly whatever NO_PROXY says: no proxy could reach this machine's loopback. */
const LOOPBACK = ['localhost', '127.0.0.1', '::1'];
/** How long a tunnel may take to open when the request names no timeout of its own. */
const TUNNEL_DEFAULT_MS = 30_000;
/** A connection to the proxy idle this long is closed, as the wire closes its own (wire.ts). */
const IDLE_MS = 4000;

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
  /** The hosts reached directly: NO_PROXY's entries as Node matches them, lower case. */
  readonly bypass: readonly string[];
  /**
   * NO_PROXY's IPv6 entries (an address, `[address]:port`, a `/prefix` block), which Node's agents
   * do not read: a request whose host is one goes direct by this verdict alone (`create-http.ts`
   * gives got's requests their agents by it).
   */
  readonly direct6: Ipv6Bypass;
  readonly agents: Map<number, ProxyAgents>;
  /**
   * Agents that never proxy, for the requests this verdict sends direct: Node's global agents
   * proxy by Node's own reading of the environment when `NODE_USE_ENV_PROXY` is set (no IPv6 entry,
   * no bare domain's subdomains).
   */
  direct?: ProxyAgents;
  /** `proxyVariableFor`'s verdicts by URL: a run asks it once a call, of a few URLs. */
  readonly verdicts: Map<string, string | undefined>;
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
    // `proxy.corp:3128` without a scheme is `http://proxy.corp:3128`, as curl and Go read it.
    const url = URL.parse(/^[^\s/]+$/.test(value) && !value.includes('://') ? `http://${value}` : value);
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
  const bypass = noProxyList(direct);
  for (const name of LIST_VARIABLES) proxyEnv[name] = bypass.join(',');
  stopProxy();
  if (names['http:'] === undefined && names['https:'] === undefined) return;
  proxy = {
    env: proxyEnv,
    names,
    bypass: bypass.map((entry) => entry.toLowerCase()),
    direct6: ipv6Bypass(direct),
    agents: new Map(),
    verdicts: new Map(),
  };
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
      const base = ipValue(cidr[1] as string);
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
  for (const agents of [...(proxy?.agents.values() ?? []), ...(proxy?.direct ? [proxy.direct] : [])]) {
    agents.http.destroy();
    agents.https.destroy();
  }
  proxy = undefined;
}

/**
 * The agents requests go through while a proxy is set, else undefined (direct). `tunnelMs`: how
 * long an `https:` request's tunnel may take to open (got's timers start only once it is open).
 */
export function proxyAgents(tunnelMs = TUNNEL_DEFAULT_MS): ProxyAgents | undefined {
  if (proxy === undefined) return undefined;
  let agents = proxy.agents.get(tunnelMs);
  if (agents === undefined) {
    // `timeout`: a pooled connection idle this long is closed (sooner when the server's
    // `Keep-Alive` says so), as the wire closes its own: without one Node keeps it for ever, and a
    // create sent on a connection the proxy, the platform or a NAT has dropped meanwhile fails as sent.
    const options = { keepAlive: true, proxyEnv: proxy.env, timeout: IDLE_MS };
    agents = { http: new HttpAgent(options), https: new TunnelAgent(options, tunnelMs) };
    proxy.agents.set(tunnelMs, agents);
  }
  return agents;
}

/**
 * The variable whose proxy a request to `url` goes through, or undefined when it goes direct (no
 * proxy for its scheme, or NO_PROXY or loopback names its host), judged as Node's agents judge it
 * (their `shouldUseProxy`, over the same list). The platform's calls that go direct stay on the
 * wire; a failure through a proxy says so (`HTTPS_PROXY is set`).
 */
export function proxyVariableFor(url: string): string | undefined {
  if (proxy === undefined) return undefined;
  const { verdicts } = proxy;
  if (verdicts.has(url)) return verdicts.get(url);
  const parsed = URL.parse(url);
  const scheme = parsed?.protocol;
  let name = scheme === 'http:' || scheme === 'https:' ? proxy.names[scheme] : undefined;
  if (parsed !== null && name !== undefined) {
    const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
    // An IPv6 entry with a port names it even where the URL leaves it to its scheme.
    const port = parsed.port || (scheme === 'https:' ? '443' : '80');
    if (bypasses(proxy.bypass, host.toLowerCase(), parsed.port) || proxy.direct6.covers(host, port))
      name = undefined;
  }
  if (verdicts.size >= 100) verdicts.clear();
  verdicts.set(url, name);
  return name;
}

/**
 * The agents a request to `url` goes through: the proxy's when one serves it (`proxyVariableFor`),
 * else undefined (direct). `tunnelMs` as for `proxyAgents`.
 */
export function proxyAgentsFor(url: string, tunnelMs?: number): ProxyAgents | undefined {
  return proxyVariableFor(url) === undefined ? undefined : proxyAgents(tunnelMs);
}

/**
 * The agents a `node:http` request to `url` (got's, a streamed answer) is sent on: the proxy's when
 * one serves it, agents that never proxy when a proxy is set and the verdict is direct, and none
 * (Node's global agents) when no proxy is set.
 */
export function agentsFor(url: string, tunnelMs?: number): ProxyAgents | undefined {
  if (proxy === undefined) return undefined;
  const proxied = proxyAgentsFor(url, tunnelMs);
  if (proxied !== undefined) return proxied;
  // Kept alive and closed when idle, as the proxy's own.
  const options = { keepAlive: true, timeout: IDLE_MS };
  proxy.direct ??= { http: new HttpAgent(options), https: new HttpsAgent(options) };
  return proxy.direct;
}

/** A failure's note when its request went through a proxy: `HTTPS_PROXY is set`. */
export function proxyNoteFor(url: string): string | undefined {
  const name = proxyVariableFor(url);
  return name === undefined ? undefined : `${name} is set`;
}

/** Node's NO_PROXY matching (`ProxyConfig.shouldUseProxy`, Node 24), inverted: whether `host` goes direct. */
function bypasses(list: readonly string[], host: string, port: string): boolean {
  const hostWithPort = port ? `${host}:${port}` : host;
  for (const entry of list) {
    if (entry === '*' || entry === host || entry === hostWithPort) return true;
    if (entry.startsWith('.')) {
      const suffix = entry.slice(1);
      if (host === suffix || (host.endsWith(suffix) && host[host.length - suffix.length - 1] === '.'))
        return true;
    }
    if (entry.startsWith('*.') && host.endsWith(entry.slice(1))) return true;
    if (entry.includes('-') && isIPv4(host)) {
      const [start = '', end = ''] = entry.split('-').map((part) => part.trim());
      if (isIPv4(start) && isIPv4(end)) {
        const at = ipValue(host);
        if (at >= ipValue(start) && at <= ipValue(end)) return true;
      }
    }
  }
  return false;
}

/** NO_PROXY's IPv6 entries: addresses and blocks on any port, and addresses on one port. */
export interface Ipv6Bypass {
  covers(host: string, port: string): boolean;
}

/**
 * The IPv6 entries of NO_PROXY: `fd00::1` (any spelling of the address) and `fd00::/8` (a block), as
 * curl and Go read them; and, read more tolerantly than either (curl reads no brackets, Go a port
 * only), `[fd00::1]`, `[fd00::]/8` and `[fd00::1]:8443` (that port alone), as one writes an address
 * in a URL. A zone (`%eth0`) is not read. The rest are left to the list Node matches (`noProxyList`).
 */
export function ipv6Bypass(entries: readonly string[]): Ipv6Bypass {
  const any = new BlockList();
  const byPort = new Map<string, BlockList>();
  for (const entry of entries) {
    const parts =
      /^\[([0-9a-f:.]+)\](?::(\d+))?(?:\/(\d{1,3}))?$/i.exec(entry) ??
      /^([0-9a-f:.]+)()(?:\/(\d{1,3}))?$/i.exec(entry);
    const address = parts?.[1];
    if (!parts || address === undefined || !isIPv6(address)) continue;
    const port = parts[2] || undefined;
    const prefix = parts[3];
    if (prefix !== undefined) {
      if (Number(prefix) <= 128 && port === undefined) any.addSubnet(address, Number(prefix), 'ipv6');
    } else if (port === undefined) any.addAddress(address, 'ipv6');
    else {
      const list = byPort.get(port) ?? new BlockList();
      byPort.set(port, list);
      list.addAddress(address, 'ipv6');
    }
  }
  return {
    covers(host, port) {
      if (!isIPv6(host)) return false;
      if (any.check(host, 'ipv6')) return true;
      const list = byPort.get(port);
      return list !== undefined && list.check(host, 'ipv6');
    },
  };
}

const ipValue = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);

/**
 * Node's https agent, its tunnels bounded: Node destroys a tunnel that has not opened within the
 * `timeout` its connection is made with and fails the request (`ERR_PROXY_TUNNEL`), but waits for
 * ever without one, keeping the socket and the process alive after the caller has given up on the
 * request. Bounded by `tunnelMs`: the platform's `api.timeoutMs`, a feed's connect timeout.
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
    // The agent's idle `timeout` is merged over the request's: the tunnel's bound is the agent's own.
    return super.createConnection({ ...options, timeout: this.#tunnelMs }, callback);
  }
}
