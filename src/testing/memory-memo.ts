import type { MemoStore } from '../reconcile/index.ts';

/**
 * Record memos held in memory (tests): as `memoFiles` keeps them, without the files. `open` counts
 * the memos begun and neither committed nor aborted: 0 once a run has ended, whatever ended it.
 */
export function memoryMemo(stamp = 'test'): MemoStore & { files: Map<string, Buffer>; open: number } {
  const files = new Map<string, Buffer>();
  const memo = {
    files,
    stamp,
    open: 0,
    // A copy in a buffer of its own, as a large file's read is: the reader owns it (a record memo
    // frees its bytes once the feed is read).
    read: (feedId: string, maxBytes = Number.POSITIVE_INFINITY) => {
      const bytes = files.get(feedId);
      if (bytes === undefined || bytes.length > maxBytes) return undefined;
      const copy = Buffer.allocUnsafeSlow(bytes.length);
      bytes.copy(copy);
      return copy;
    },
    begin: (feedId: string) => {
      const chunks: Buffer[] = [];
      memo.open++;
      let done = false;
      const end = () => {
        if (!done) memo.open--;
        done = true;
      };
      return {
        write: (chunk: Uint8Array) => void chunks.push(Buffer.from(chunk)),
        commit: (header: Uint8Array) => {
          end();
          files.set(feedId, Buffer.concat([header, ...chunks]));
          return true;
        },
        abort: end,
      };
    },
    remove: (feedId: string) => {
      files.delete(feedId);
    },
  };
  return memo;
}
