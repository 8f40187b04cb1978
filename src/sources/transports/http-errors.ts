import {
  classifyRequestError,
  HttpStatusError,
  isRequestError,
  isRetryableStatus,
  parseRetryAfter,
} from '../../http/index.ts';

/**
 * A non-2xx answer from a feed server (`url` shown without credentials): retryable for 408, 429 and
 * 5xx. `body`, the answer's text, gives the server's reason (`errorReasonOf`).
 */
export function feedStatusError(
  status: number,
  url: string,
  retryAfter?: number | string,
  body?: string,
  secrets: readonly string[] = [],
): HttpStatusError {
  const reason = body === undefined ? undefined : errorReasonOf(body, secrets);
  return new HttpStatusError(
    status,
    `HTTP ${status} from ${url}${reason ? `: the server said "${reason}"` : ''}`,
    {
      kind: 'FEED_FETCH',
      code: 'E_FEED_HTTP',
      retryAfterMs: typeof retryAfter === 'string' ? parseRetryAfter(retryAfter) : retryAfter,
    },
  );
}

/** Longest reason quoted from an error body. */
const REASON_CHARS = 200;

/**
 * The reason an error answer gives, in one line: an OData error's `message` (`$top must be at most
 * 1000`), an OAuth error and its description (`invalid_client: …`), a JSON `message`, or a short
 * text body; undefined for an HTML page or nothing. Anything shaped like a credential is blanked.
 */
export function errorReasonOf(body: string, secrets: readonly string[] = []): string | undefined {
  const text = body.trim();
  if (text === '' || text.startsWith('<')) return undefined;
  let reason: string | undefined;
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const error = json.error;
    if (error && typeof error === 'object') {
      const { message, code } = error as { message?: unknown; code?: unknown };
      reason = typeof message === 'string' ? message : typeof code === 'string' ? code : undefined;
    } else if (typeof error === 'string') {
      const description = json.error_description;
      reason = typeof description === 'string' && description ? `${error}: ${description}` : error;
    } else if (typeof json.message === 'string') reason = json.message;
    else if (typeof json.Message === 'string') reason = json.Message;
  } catch {
    reason = text;
  }
  if (reason === undefined) return undefined;
  let said = reason;
  // The feed's own secrets, wherever a server echoes them; then what has the shape of one.
  for (const secret of secrets) said = said.split(secret).join('…');
  const line = said
    .replace(/\s+/g, ' ')
    .replace(/:\/\/[^\s/@]+@/g, '://…@')
    .replace(/\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, '…')
    .replace(/\b(basic|bearer)\s+[\w+/=.~-]+/gi, '$1 …')
    // `token=…`, `"secret": "…"`, and after a space a word that has a digit (`refresh token RT-9f…`,
    // not `token has been suspended`).
    .replace(
      /\b((?:client_)?secret|(?:access_|refresh_)?token|api[-_]?key|password|passwd|pwd)(["']?\s*[=:]\s*["']?)[^\s"'&,;]+/gi,
      '$1$2…',
    )
    .replace(
      /\b((?:client_)?secret|(?:access_|refresh_)?token|api[-_]?key|password|passwd|pwd)(\s+)(?=[^\s"'&,;]*\d)[^\s"'&,;]{6,}/gi,
      '$1$2…',
    )
    .trim();
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line || undefined;
}

/** The one list of retryable conditions (src/http/failure.ts), applied to a feed request's failure. */
export function isRetryableHttpError(error: unknown): boolean {
  if (error instanceof HttpStatusError) return isRetryableStatus(error.status);
  if (isRequestError(error)) return classifyRequestError(error).retryable;
  return false;
}

/** A 429: the server refused for our rate. */
export function isRateLimitedHttpError(error: unknown): boolean {
  return error instanceof HttpStatusError && error.status === 429;
}

/** The `Retry-After` an HTTP status error carried, in ms (the headers' own reader is `retryAfterOf` in src/http). */
export function retryAfterOfError(error: unknown): number | undefined {
  return error instanceof HttpStatusError ? error.retryAfterMs : undefined;
}

/** One line for a failed request: status or network code, never headers. */
export function describeHttpError(error: unknown): string {
  if (error instanceof HttpStatusError) return error.message;
  if (isRequestError(error)) {
    const failure = classifyRequestError(error);
    return `${failure.code}${failure.kind === 'timeout' ? ' (timeout)' : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
