import type { BeforeRequestHook, Delays, Got, Hooks, Request, RequestError } from 'got';
import { agentsFor } from './proxy.ts';

/**
 * The project's one HTTP client (got), for feed downloads, RESO and its token
 * endpoint, and the alert webhook. This is the only file that imports got, and it imports it when
 * the first instance is made: a run that reads a file feed and talks to the platform (whose POSTs
 * go through post.ts) never loads it, ~35 ms of every start (docs/performance.md, "Start-up").
 */
export type Http = Got;
export type HttpStream = Request;
/** got's per-phase timeouts, in ms (`request` bounds a whole attempt). */
export type HttpTimeouts = Partial<Delays>;

let loaded: Promise<typeof import('got')> | undefined;
/** got's RequestError once got is loaded: before that, no error can be one. */
let requestErrorClass: typeof RequestError | undefined;

function loadGot(): Promise<typeof import('got')> {
  loaded ??= import('got').then((got) => {
    requestErrorClass = got.RequestError;
    return got;
  });
  return loaded;
}

/** Whether `error` is got's: a request that got no answer. */
export function isGotRequestError(error: unknown): boolean {
  return requestErrorClass !== undefined && error instanceof requestErrorClass;
}

/** What differs between uses. Everything else is the same for every instance. */
export interface HttpOptions {
  /** Follow 3xx answers. Default false: a key or token must not reach a host the caller did not name. */
  followRedirect?: boolean;
  /** Decompress gzip/deflate/br bodies. Default true. */
  decompress?: boolean;
  /** Default timeouts of every request of the instance; a request may pass its own. Default: none. */
  timeout?: HttpTimeouts;
  /** got hooks, e.g. one that signs each request or adds a fresh token. */
  hooks?: Partial<Hooks>;
}

/**
 * A got instance for one use. got's own retries are always off: the one retry policy
 * (`withRetries` in retry.ts) decides, with one list of retryable conditions (failure.ts). HTTP
 * error statuses are returned, not thrown, so the caller reads `Retry-After` and maps the status
 * onto its own error.
 */
export async function createHttp(options: HttpOptions = {}): Promise<Http> {
  const { default: got } = await loadGot();
  const { beforeRequest = [], ...hooks } = options.hooks ?? {};
  return got.extend({
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: options.followRedirect ?? false,
    decompress: options.decompress ?? true,
    ...(options.timeout ? { timeout: options.timeout } : {}),
    hooks: {
      ...hooks,
      // Last: a caller's hook may change the URL, and the verdict is the URL's it is sent to.
      beforeRequest: [...beforeRequest, throughProxy],
    },
  });
}

/**
 * Each request (and each redirect's) through the environment's proxy when one serves its URL
 * (`proxy.ts`), as the platform's calls go, else direct on agents that never proxy: the verdict is
 * `proxy.ts`'s, the one that reads NO_PROXY's IPv6 entries, not the agents' own. A tunnel is
 * bounded as the request's connection is (its own timeouts, else the instance's): got's own timers
 * start only once it is open.
 */
const throughProxy: BeforeRequestHook = (options) => {
  const url = options.url;
  const { connect, request } = options.timeout;
  const agents = url === undefined ? undefined : agentsFor(url.toString(), connect ?? request);
  options.agent = agents ? { http: agents.http, https: agents.https } : {};
};

/**
 * `createHttp(options)`, made on first use and then the same instance: what a module that sends
 * requests keeps, so that loading it loads no got.
 */
export function httpOnFirstUse(options: HttpOptions = {}): () => Promise<Http> {
  let http: Promise<Http> | undefined;
  return () => {
    http ??= createHttp(options);
    return http;
  };
}

/**
 * Every phase bounded by `ms` (DNS, connect, TLS, first byte, and the gap between two chunks), the
 * whole not: a large download may take longer than any one phase.
 */
export function phaseTimeouts(ms: number): HttpTimeouts {
  return { lookup: ms, connect: ms, secureConnect: ms, response: ms, socket: ms };
}
