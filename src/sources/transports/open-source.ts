import { basename } from 'node:path';
import type { Logger } from '../../logger.ts';
import type { FeedState } from '../../state/index.ts';
import { FeedError, isFeedError, safeUrl } from '../feed-error.ts';
import type { SourceConfig } from '../source-schema.ts';
import { capBytes } from './bounds.ts';
import { decodeText } from './decode-text.ts';
import { openHttp, type Progress } from './fetch-http.ts';
import { gunzipIfNeeded } from './gunzip.ts';
import { hashing, openFile, type SourceDigest } from './read-file.ts';

export type OpenedSource =
  | { notModified: true; validators: Partial<FeedState> }
  | {
      notModified: false;
      validators: Partial<FeedState>;
      text: AsyncIterable<string>;
      /** Lines read as Windows-1252 (`encoding: auto`), ascending; filled as `text` is read. */
      linesAs1252: readonly number[];
      /**
       * The feed's bytes digested, once `text` was read to its end: a `path:` feed's file
       * (`OpenedFile.digest`), a `url:` feed's body as the transport gave it (its Content-Encoding
       * undone, a `.gz` file not yet unzipped).
       */
      digest?: () => SourceDigest | undefined;
      /** A `url:` body read to the connection's close, with no length or chunks (`HttpOpen.framed`). */
      unframed?: true;
    };

export interface OpenOptions {
  feedId: string;
  source: SourceConfig;
  state: FeedState;
  forceFull?: boolean;
  signal?: AbortSignal;
  logger?: Logger;
}

/** Open a `url:` or `path:` feed as decoded text chunks: transport, then gzip, then charset. */
export async function openSource(options: OpenOptions): Promise<OpenedSource> {
  const { source, feedId } = options;
  let bytes: AsyncIterable<Uint8Array>;
  let validators: Partial<FeedState> = {};
  let digest: () => SourceDigest | undefined;
  // How far the feed's bytes came, for the message of a read that breaks off: a download's as got
  // counted them on the wire, a file's as read.
  let progress: (() => Progress) | undefined;
  let unframed = false;
  if (source.url) {
    const opened = await openHttp({
      feedId,
      source,
      ...(options.forceFull ? {} : { state: options.state }),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    if (opened.notModified) return opened;
    const hashed = hashing(opened.body);
    bytes = hashed.bytes;
    digest = hashed.digest;
    validators = opened.validators;
    progress = opened.progress;
    unframed = !opened.framed;
  } else {
    const file = await openFile(feedId, source.path!, options.signal);
    validators = { etag: file.etag };
    // A local file unchanged since the last successful run (same size and mtime): skip, like a 304.
    if (source.conditional && !options.forceFull && options.state.etag === file.etag) {
      await file.close();
      return { notModified: true, validators };
    }
    bytes = file.bytes;
    digest = file.digest;
  }
  const linesAs1252: number[] = [];
  const onLineAs1252 = (line: number) => {
    if (linesAs1252.length === 0)
      options.logger?.warn(
        { feedId, line },
        'a line of the feed is not valid UTF-8: reading it as Windows-1252',
      );
    linesAs1252.push(line);
  };
  if (progress === undefined) {
    const read = { bytes: 0 };
    bytes = counted(bytes, read);
    progress = () => ({ received: read.bytes });
  }
  const decoded = capBytes(feedId, source.maxBytes, gunzipIfNeeded(bytes));
  const where = source.url ? safeUrl(source.url) : (source.path as string);
  const text = decodeText(guard(feedId, where, progress, decoded), source.encoding, onLineAs1252);
  return {
    notModified: false,
    validators,
    text,
    linesAs1252,
    digest,
    ...(unframed ? { unframed: true } : {}),
  };
}

/** Name of the feed's file in messages: `Row 812 of acme.csv`. */
export function sourceName(source: SourceConfig, feedId: string): string {
  if (source.name) return source.name;
  if (source.path) return basename(source.path);
  try {
    const url = new URL(source.url!);
    // A RESO endpoint's last segment (`v2`, `odata`) names nothing: its host and path do (no query:
    // a token may be in it).
    if (source.format === 'reso') return `${url.host}${url.pathname.replace(/\/+$/, '')}`;
    const name = basename(url.pathname);
    return name || feedId;
  } catch {
    return feedId;
  }
}

/** `chunks` as they come, their bytes added up in `read`. */
async function* counted(
  chunks: AsyncIterable<Uint8Array>,
  read: { bytes: number },
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    read.bytes += chunk.length;
    yield chunk;
  }
}

/**
 * Errors while streaming the body (connection reset, corrupt gzip) fail the feed with a code, and
 * say where and how far: `reading the feed failed after 131,814 of 263,629 bytes of
 * https://…/listings.csv: the server closed the connection before the end its Content-Length
 * announced`. Not retried within the run (its first records are read already): the next run reads
 * the feed again.
 */
async function* guard(
  feedId: string,
  where: string,
  progress: () => Progress,
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks;
  } catch (error) {
    if (isFeedError(error) || (error as Error).name === 'AbortError') throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') {
      throw new FeedError('E_FEED_PARSE', feedId, 'the gzip data is corrupt or truncated', { cause: error });
    }
    const { received, total, decoded } = progress();
    const of = total === undefined ? '' : ` of ${total.toLocaleString('en-US')}`;
    const undone = decoded ? ` (its ${decoded} Content-Encoding undone)` : '';
    const far = `${received.toLocaleString('en-US')}${of} bytes${undone} of ${where}`;
    throw new FeedError('E_FEED_FETCH', feedId, `reading the feed failed after ${far}: ${breakOf(error)}`, {
      cause: error,
      retryable: true,
    });
  }
}

/** How a body's read broke off, in words, with the code a search finds. */
function breakOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ERR_HTTP_CONTENT_LENGTH_MISMATCH:
      'the server closed the connection before the end its Content-Length announced',
    ERR_STREAM_PREMATURE_CLOSE: 'the connection closed before the end of the body',
    ECONNRESET: 'the connection was reset',
    ETIMEDOUT: 'no data within the timeout',
  };
  const said = code === undefined ? undefined : words[code];
  if (said) return `${said} (${code})`;
  return code ?? (error as Error).message;
}
