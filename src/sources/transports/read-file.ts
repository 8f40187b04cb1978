import { open } from 'node:fs/promises';
import { FeedError } from '../feed-error.ts';

/** Bytes read from a file at a time (see `openFile`). */
const CHUNK_BYTES = 32 * 1024;

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
      // 32 KiB a chunk: its text stays below V8's large-object size (128 KiB), so a chunk and the
      // records cut from it die young. At 256 KiB each chunk's text went straight to the old
      // generation: a full collection every ~150 ms, ~1 s of GC threads' CPU at 100k rows.
      bytes: handle.createReadStream({ highWaterMark: CHUNK_BYTES, ...(signal ? { signal } : {}) }),
      etag: `file:${stat.size}-${stat.mtimeNs}`,
      close: () => handle.close(),
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'file not found' : `cannot read the file (${code ?? 'unknown error'})`;
    throw new FeedError('E_FEED_FETCH', feedId, `${reason}: ${path}`, { cause: error });
  }
}
