import { open } from 'node:fs/promises';
import { FeedError } from '../feed-error.ts';

/** A local feed file, opened; nothing read yet. */
export interface OpenedFile {
  bytes: AsyncIterable<Buffer>;
  /**
   * The file's validator, kept in the run state like an HTTP ETag: size and modification time (ns).
   * A file rewritten with other content changes it; an untouched file keeps it.
   */
  etag: string;
  close(): Promise<void>;
}

/** A local file as a byte stream. Opened first, so a missing file fails before anything is yielded. */
export async function openFile(feedId: string, path: string, signal?: AbortSignal): Promise<OpenedFile> {
  try {
    const handle = await open(path, 'r');
    const stat = await handle.stat({ bigint: true });
    return {
      bytes: handle.createReadStream({ highWaterMark: 256 * 1024, ...(signal ? { signal } : {}) }),
      etag: `file:${stat.size}-${stat.mtimeNs}`,
      close: () => handle.close(),
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'file not found' : `cannot read the file (${code ?? 'unknown error'})`;
    throw new FeedError('E_FEED_FETCH', feedId, `${reason}: ${path}`, { cause: error });
  }
}
