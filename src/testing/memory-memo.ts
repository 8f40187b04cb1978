import type { MemoStore } from '../reconcile/index.ts';

/** Record memos held in memory (tests): as `memoFiles` keeps them, without the files. */
export function memoryMemo(stamp = 'test'): MemoStore & { files: Map<string, Buffer> } {
  const files = new Map<string, Buffer>();
  return {
    files,
    stamp,
    read: (feedId) => files.get(feedId),
    begin: (feedId) => {
      const chunks: Buffer[] = [];
      return {
        write: (chunk) => void chunks.push(Buffer.from(chunk)),
        commit: (header) => void files.set(feedId, Buffer.concat([header, ...chunks])),
        abort: () => {},
      };
    },
    remove: (feedId) => {
      files.delete(feedId);
    },
  };
}
