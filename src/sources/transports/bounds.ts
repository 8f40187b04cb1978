import { FeedError, safeUrl } from '../feed-error.ts';

/** `1800000` → `30 min`, `2147483648` → `2 GiB`: limits in messages as a person sets them. */
export function formatMs(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const)
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  return `${bytes} bytes`;
}

/** The whole-download deadline of a URL feed, beside the caller's own (shutdown) signal. */
export interface Deadline {
  /** Aborts at the deadline or with the caller's signal. */
  signal: AbortSignal;
  /** An error seen while the deadline is past: the FeedError naming the feed and host; else the error. */
  failure(error: unknown): unknown;
  /** The records, with a deadline abort while reading them turned into that FeedError. */
  guard<T>(records: AsyncIterable<T>): AsyncGenerator<T>;
}

/**
 * Start the clock of a download: a server that drips a byte every few seconds never trips the
 * per-attempt idle timeout, so the whole fetch (retries, every page, the last byte) gets `ms`.
 * Only the deadline's own abort becomes a FeedError; the caller's abort stays an abort (shutdown).
 */
export function startDeadline(feedId: string, url: string, ms: number, outer?: AbortSignal): Deadline {
  const timer = AbortSignal.timeout(ms);
  const signal = outer ? AbortSignal.any([outer, timer]) : timer;
  const failure = (error: unknown): unknown => {
    if (!timer.aborted || outer?.aborted) return error;
    const host = URL.parse(url)?.host ?? safeUrl(url);
    return new FeedError(
      'E_FEED_FETCH',
      feedId,
      `the download from ${host} did not finish within source.deadlineMs (${formatMs(ms)}); nothing was changed`,
      { cause: error },
    );
  };
  return {
    signal,
    failure,
    async *guard(records) {
      try {
        yield* records;
      } catch (error) {
        throw failure(error);
      }
    },
  };
}

/**
 * Count the decoded (decompressed) bytes of a feed and stop at `max`: a small `.gz` that inflates
 * to terabytes fails here, having held one chunk at a time.
 */
export async function* capBytes(
  feedId: string,
  max: number,
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > max) {
      throw new FeedError(
        'E_FEED_UNSAFE',
        feedId,
        `the feed is larger than source.maxBytes (${formatBytes(max)}) once decompressed (a gzip bomb?); raise source.maxBytes if it is real`,
      );
    }
    yield chunk;
  }
}
