import { isGotRequestError } from './create-http.ts';
import { PostError } from './post.ts';
import { parseRetryAfter } from './retry-delay.ts';

/**
 * The one list of retryable conditions, shared by the platform client and the feed transports:
 * 408, 429 and 5xx answers, timeouts, and the network errors below.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Network failures that the same request cannot cure: the server's certificate or TLS setup, or a
 * URL that cannot be requested, a header that cannot be sent, an answer over its size bound, or a
 * redirect loop (got's `ERR_TOO_MANY_REDIRECTS`). Every other network failure (a reset, a malformed answer `HPE_*`,
 * `EPROTO`, a code we do not know) may pass on another try, so it is retried: a create whose answer
 * was lost that way is then looked up as ambiguous rather than reported failed.
 */
const PERMANENT =
  /CERT|TLS|SSL|SIGNATURE|ERR_INVALID_URL|ERR_INVALID_PROTOCOL|ERR_INVALID_CHAR|ERR_INVALID_HTTP_TOKEN|ERR_RESPONSE_TOO_LARGE|ERR_TOO_MANY_REDIRECTS/;

/** Codes that mean the request never reached the server, so even a non-idempotent one may be sent again. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // The proxy would not open a tunnel to the server (a 407, a 403, a 502 of its own).
  'ERR_PROXY_TUNNEL',
  // A header Node refused to send (a key with a line break): the request never started.
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
]);

/** A request that got no answer, classified once for every caller. */
export interface RequestFailure {
  kind: 'aborted' | 'timeout' | 'network';
  /** The system or got code (`ECONNRESET`), or the message when there is none. */
  code: string;
  retryable: boolean;
  /** False only when the request provably never reached the server. */
  requestSent: boolean;
}

export function classifyRequestError(error: unknown, signal?: AbortSignal): RequestFailure {
  const code = (error as { code?: unknown }).code;
  const name = (error as { name?: unknown }).name;
  const known = typeof code === 'string' && code ? code : String((error as Error).message ?? error);
  // What the proxy answered, or that it did not (Node's message, the proxy's credentials left out).
  const text = code === 'ERR_PROXY_TUNNEL' ? `${code} (${(error as Error).message})` : known;
  if (signal?.aborted || code === 'ERR_ABORTED' || name === 'AbortError')
    return { kind: 'aborted', code: text, retryable: false, requestSent: true };
  if (name === 'TimeoutError' || code === 'ETIMEDOUT')
    return { kind: 'timeout', code: text, retryable: true, requestSent: true };
  // A proxy that refused us (407: its credentials, 403: not allowed) says so again on every try.
  const refusedByProxy = code === 'ERR_PROXY_TUNNEL' && [403, 407].includes(proxyStatusOf(error));
  return {
    kind: 'network',
    code: text,
    retryable: !refusedByProxy && !PERMANENT.test(known),
    requestSent: !NOT_SENT_CODES.has(known),
  };
}

/** The status a proxy refused a tunnel with (Node's `ERR_PROXY_TUNNEL`, as thrown or as a wrapped cause), or 0. */
function proxyStatusOf(error: unknown): number {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const status = (e as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number') return status;
  }
  return 0;
}

/** Whether `error` is a request that got no answer (as opposed to one of our own errors). */
export function isRequestError(error: unknown): boolean {
  return isGotRequestError(error) || error instanceof PostError;
}

/** The `Retry-After` of an answer, in ms, or undefined. */
export function retryAfterOf(headers: Record<string, string | string[] | undefined>): number | undefined {
  const header = headers['retry-after'];
  return parseRetryAfter(Array.isArray(header) ? header[0] : header);
}
