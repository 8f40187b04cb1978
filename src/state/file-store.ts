import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type FeedState, mergeFeedState, type StateStore } from './state-store.ts';

interface StateFile {
  feeds: Record<string, FeedState>;
  settingsFingerprints: Record<string, string>;
}

/**
 * The one-shot CLI's state: one JSON file, read on every call and replaced atomically (write to a
 * temp file, rename) so a crash mid-write never leaves half a file. Writes are serialized within
 * the process; two CLI runs at once on the same file are not supported (the worker uses Redis).
 */
export function createFileStateStore(file: string): StateStore {
  let queue: Promise<unknown> = Promise.resolve();

  async function read(): Promise<StateFile> {
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<StateFile>;
      return { feeds: parsed.feeds ?? {}, settingsFingerprints: parsed.settingsFingerprints ?? {} };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { feeds: {}, settingsFingerprints: {} };
      throw new Error(`state file ${file}: ${(error as Error).message}`, { cause: error });
    }
  }

  function update(change: (state: StateFile) => void): Promise<void> {
    const next = queue.then(async () => {
      const state = await read();
      change(state);
      await mkdir(dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, `${JSON.stringify(state, null, 2)}\n`);
      await rename(temp, file);
    });
    queue = next.catch(() => {});
    return next;
  }

  return {
    async getFeed(feedId) {
      await queue;
      return { ...(await read()).feeds[feedId] };
    },
    updateFeed(feedId, patch) {
      return update((state) => {
        state.feeds[feedId] = mergeFeedState(state.feeds[feedId] ?? {}, patch);
      });
    },
    async getSettingsFingerprint(serial) {
      await queue;
      return (await read()).settingsFingerprints[serial];
    },
    setSettingsFingerprint(serial, fingerprint) {
      return update((state) => {
        state.settingsFingerprints[serial] = fingerprint;
      });
    },
  };
}
