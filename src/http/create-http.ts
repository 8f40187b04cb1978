import got, { type Delays, type Got, type Hooks, type Request, RequestError } from 'got';

/**
 * The project's one HTTP client (got), for feed downloads, RESO and its token
 * endpoint, and the alert webhook. This is the only file that imports got.
 */
export type Http = Got;
export type HttpStream = Request;
/** got's per-phase timeouts, in ms (`request` bounds a whole attempt). */
export type HttpTimeouts = Partial<Delays>;
export { RequestError };

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
export function createHttp(options: HttpOptions = {}): Http {
  return got.extend({
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: options.followRedirect ?? false,
    decompress: options.decompress ?? true,
    ...(options.timeout ? { timeout: options.timeout } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  });
}

/**
 * Every phase bounded by `ms` (DNS, connect, TLS, first byte, and the gap between two chunks), the
 * whole not: a large download may take longer than any one phase.
 */
export function phaseTimeouts(ms: number): HttpTimeouts {
  return { lookup: ms, connect: ms, secureConnect: ms, response: ms, socket: ms };
}
