import type { MemoStore } from '../reconcile/index.ts';

/** Record memos held in memory (tests): as `memoFiles` keeps them, without the files. */
export function memoryMemo(stamp = 'test'): MemoStore & { files: Map<string, Buffer> } {
  const files = new Map<string, Buffer>();
  return {
    files,
    stamp,
    read: (feedId) => files.get(feedId),
    write: (feedId, fill) => {
      const chunks: Buffer[] = [];
      const header = fill((chunk) => chunks.push(Buffer.from(chunk)));
      files.set(feedId, Buffer.concat([header, ...chunks]));
    },
    remove: (feedId) => {
      files.delete(feedId);
    },
  };
}
