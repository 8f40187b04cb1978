import { basename } from 'node:path';
import type { Logger } from '../../logger.ts';
import type { FeedState } from '../../state/index.ts';
import { FeedError, isFeedError } from '../feed-error.ts';
import type { SourceConfig } from '../source-schema.ts';
import { capBytes } from './bounds.ts';
import { decodeText } from './decode-text.ts';
import { openHttp } from './fetch-http.ts';
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
  const decoded = capBytes(feedId, source.maxBytes, gunzipIfNeeded(bytes));
  const text = decodeText(guard(feedId, decoded), source.encoding, onLineAs1252);
  return { notModified: false, validators, text, linesAs1252, digest };
}

/** Name of the feed's file in messages: `Row 812 of acme.csv`. */
export function sourceName(source: SourceConfig, feedId: string): string {
  if (source.name) return source.name;
  if (source.path) return basename(source.path);
  try {
    const name = basename(new URL(source.url!).pathname);
    return name || feedId;
  } catch {
    return feedId;
  }
}

/** Errors while streaming the body (connection reset, corrupt gzip) fail the feed with a code. */
async function* guard(feedId: string, chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks;
  } catch (error) {
    if (isFeedError(error) || (error as Error).name === 'AbortError') throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') {
      throw new FeedError('E_FEED_PARSE', feedId, 'the gzip data is corrupt or truncated', { cause: error });
    }
    throw new FeedError(
      'E_FEED_FETCH',
      feedId,
      `reading the feed failed: ${code ?? (error as Error).message}`,
      {
        cause: error,
        retryable: true,
      },
    );
  }
}
