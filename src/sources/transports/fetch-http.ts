import { type HttpStream, httpOnFirstUse, phaseTimeouts, retryAfterOf } from '../../http/index.ts';
import type { Logger } from '../../logger.ts';
import type { FeedState } from '../../state/index.ts';
import { safeUrl } from '../feed-error.ts';
import type { SourceConfig } from '../source-schema.ts';
import { withFeedRetries } from './feed-http.ts';
import { feedAuthHeaders } from './http-auth.ts';
import { feedStatusError } from './http-errors.ts';

export type HttpOpen =
  | { notModified: true; validators: Partial<FeedState> }
  | {
      notModified: false;
      validators: Partial<FeedState>;
      body: AsyncIterable<Uint8Array>;
      /**
       * The body's bytes so far, and how many its Content-Length announced; a body with a
       * Content-Encoding (gzip…) counted decoded, as got counts it, and named (`decoded`).
       */
      progress: () => Progress;
      /**
       * Whether the body's end is known when it comes: a Content-Length, chunks, or a
       * Content-Encoding (gzip ends with its size and checksum). A body read to the connection's
       * close has none: cut at a line end, it cannot be told from a whole one.
       */
      framed: boolean;
    };

/** How far a body came (`HttpOpen.progress`). */
export interface Progress {
  received: number;
  total?: number;
  /** The Content-Encoding undone before `received` was counted (no `total` then). */
  decoded?: string;
}

export interface HttpOpenOptions {
  feedId: string;
  source: SourceConfig;
  /** Validators of the last successful run; omit to fetch unconditionally. */
  state?: FeedState;
  signal?: AbortSignal;
  logger?: Logger;
}

/** Feed downloads follow redirects (a CDN moving a file is normal); static auth is the feed's own. */
const http = httpOnFirstUse({ followRedirect: true });

/**
 * GET a feed as a byte stream through got: gzip/deflate, redirects, per-phase timeouts, the one retry
 * policy, static auth, and conditional GET. Resolves once the status is known, so a 4xx/5xx fails
 * (after retries) before any record is read.
 */
export async function openHttp(options: HttpOpenOptions): Promise<HttpOpen> {
  const { source, signal } = options;
  const url = source.url!;
  const headers: Record<string, string> = { ...source.headers, ...feedAuthHeaders(source.auth) };
  if (source.conditional && options.state?.etag) headers['if-none-match'] = options.state.etag;
  if (source.conditional && options.state?.lastModified)
    headers['if-modified-since'] = options.state.lastModified;
  return withFeedRetries(options, url, () => attempt(url, headers, source.timeoutMs, signal), {
    retryMessage: 'feed fetch retry',
  });
}

async function attempt(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<HttpOpen> {
  const stream: HttpStream = (await http()).stream(url, {
    headers,
    timeout: phaseTimeouts(timeoutMs),
    ...(signal ? { signal } : {}),
  });
  const response = await new Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | undefined>;
    rawHeaders?: string[];
  }>((resolve, reject) => {
    stream.once('response', resolve);
    stream.once('error', reject);
  });
  const validators: Partial<FeedState> = {};
  const etag = response.headers.etag;
  const lastModified = response.headers['last-modified'];
  if (typeof etag === 'string') validators.etag = etag;
  if (typeof lastModified === 'string') validators.lastModified = lastModified;
  if (response.statusCode === 304) {
    stream.destroy();
    return { notModified: true, validators };
  }
  if (response.statusCode < 200 || response.statusCode > 299) {
    stream.destroy();
    throw feedStatusError(response.statusCode, safeUrl(url), retryAfterOf(response.headers));
  }
  // got drops Content-Encoding (and Content-Length) from the headers of a body it decodes: the raw
  // headers keep them.
  const decoded = contentEncodingOf(response.rawHeaders);
  const progress = (): Progress => {
    const { transferred, total } = stream.downloadProgress;
    if (decoded) return { received: transferred, decoded };
    return { received: transferred, ...(total === undefined ? {} : { total }) };
  };
  const framed =
    decoded !== undefined || stream.downloadProgress.total !== undefined || chunked(response.rawHeaders);
  return { notModified: false, validators, body: stream, progress, framed };
}

/** A header's value from a response's raw headers (got drops some from `headers`), lowercased. */
function rawHeader(rawHeaders: readonly string[] | undefined, name: string): string | undefined {
  for (let i = 0; rawHeaders && i + 1 < rawHeaders.length; i += 2)
    if ((rawHeaders[i] as string).toLowerCase() === name)
      return (rawHeaders[i + 1] as string).trim().toLowerCase();
  return undefined;
}

/** Whether the body comes in chunks (`Transfer-Encoding: chunked`), whose last one says it ended. */
function chunked(rawHeaders: readonly string[] | undefined): boolean {
  return rawHeader(rawHeaders, 'transfer-encoding')?.includes('chunked') ?? false;
}

/** The Content-Encoding the server named (`gzip`…), from a response's raw headers; undefined for none or identity. */
function contentEncodingOf(rawHeaders: readonly string[] | undefined): string | undefined {
  const value = rawHeader(rawHeaders, 'content-encoding');
  return value === '' || value === 'identity' ? undefined : value;
}
