import { open } from 'node:fs/promises';
import { FeedError } from './feed-error.ts';

/** A local file as a byte stream. Opened first, so a missing file fails before anything is yielded. */
export async function openFile(
  feedId: string,
  path: string,
  signal?: AbortSignal,
): Promise<AsyncIterable<Buffer>> {
  try {
    const handle = await open(path, 'r');
    return handle.createReadStream({ highWaterMark: 256 * 1024, ...(signal ? { signal } : {}) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'file not found' : `cannot read the file (${code ?? 'unknown error'})`;
    throw new FeedError('E_FEED_FETCH', feedId, `${reason}: ${path}`, { cause: error });
  }
}
