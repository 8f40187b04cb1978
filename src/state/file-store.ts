import { accessSync, constants, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type BudgetBook, createFileBudget } from '../budget/index.ts';
import { FeedSyncError } from '../errors.ts';
import { waitForLock } from './file-lock.ts';
import { appendRun, DEFAULT_HISTORY_RUNS, type HistoryOptions, type RunRecord } from './run-history.ts';
import { type FeedState, mergeFeedState, type StateStore } from './state-store.ts';

interface StateFile {
  feeds: Record<string, FeedState>;
  settingsFingerprints: Record<string, string>;
  /** Per feed, newest first. */
  runs: Record<string, RunRecord[]>;
  /** Request budgets of provider keys (src/budget), by key hash. */
  budgets?: Record<string, BudgetBook>;
}

/**
 * The state file as written: where a link points (a state file shared by two folders through a
 * link is one file, with one lock, and stays a link), else the file in its folder's real path.
 */
export function realStatePath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    try {
      return join(realpathSync(dirname(file)), basename(file));
    } catch {
      return file;
    }
  }
}

/**
 * Make sure the state file can be written before a run writes to the platform: a run whose state
 * cannot be saved would repeat its writes next time and leave no report. Creates the folder if
 * needed and writes a probe file beside the state file. Throws a one-line error naming the path.
 * Synchronous: four calls of a few microseconds each, at the start of a one-shot command, where
 * `fs/promises` took 5–20 ms (its first use, and the event loop's turns between them).
 */
export function assertStateWritable(given: string): void {
  const file = realStatePath(given);
  const probe = `${file}.${process.pid}.probe`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
    try {
      accessSync(file, constants.W_OK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new FeedSyncError(`the state file ${file} cannot be written (${code}): nothing was synced`, {
      kind: 'CONFIG_INVALID',
      code: 'E_STATE_NOT_WRITABLE',
      cause: error,
    });
  }
}

/**
 * Which file `path` is now: replaced whole on every write (a new inode), so its inode, size and
 * modification time name one version. Undefined when there is none.
 */
async function versionOf(path: string): Promise<string | undefined> {
  try {
    const { ino, size, mtimeMs } = await stat(path);
    return `${ino}:${size}:${mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** A state file's lock is held for one read, change and write: milliseconds. */
const STATE_LOCK_STALE_MS = 30_000;
/** How long a write waits for another process's: it holds the lock for milliseconds. */
const STATE_LOCK_WAIT_MS = 60_000;

/**
 * The one-shot CLI's state: one JSON file, read on every call and replaced atomically (write to a
 * temp file, rename) so a crash mid-write never leaves half a file. Each change is read, made and
 * written under the file's lock (`<file>.lock`, `file-lock.ts`), so CLI processes syncing other
 * feeds at once never lose each other's changes; within the process, writes are serialized. (A
 * feed's own runs are one at a time: `src/state/run-lock.ts`.)
 */
export function createFileStateStore(given: string, options: HistoryOptions = {}): StateStore {
  const file = realStatePath(given);
  const keep = options.historyRuns ?? DEFAULT_HISTORY_RUNS;
  let queue: Promise<unknown> = Promise.resolve();
  /** The budgets as last parsed, and the file they were parsed from (`versionOf`). */
  let budgetsRead: { version: string; budgets: Record<string, BudgetBook> } | undefined;

  async function read(): Promise<StateFile> {
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<StateFile>;
      return {
        feeds: parsed.feeds ?? {},
        settingsFingerprints: parsed.settingsFingerprints ?? {},
        runs: parsed.runs ?? {},
        ...(parsed.budgets ? { budgets: parsed.budgets } : {}),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return { feeds: {}, settingsFingerprints: {}, runs: {} };
      throw new Error(`state file ${file}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** The file as last parsed for a read, and its version (`versionOf`). */
  let parsed: { version: string; state: StateFile } | undefined;

  /**
   * The file for a read that changes nothing, parsed again only when it was replaced since: the
   * dashboard reads a feed's state and runs on every page (the command line's beside the worker's,
   * a reviewer), the whole file each time. What is returned from it is copied.
   */
  async function readShared(): Promise<StateFile> {
    await queue;
    const before = await versionOf(file);
    if (before !== undefined && parsed?.version === before) return parsed.state;
    const state = await read();
    const after = await versionOf(file);
    parsed = after !== undefined && after === before ? { version: after, state } : undefined;
    return state;
  }

  function update(change: (state: StateFile) => void): Promise<void> {
    const next = queue.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      // Read, changed and replaced under the file's lock: two CLI processes (two feeds synced at
      // once) never write over each other's change.
      const lock = await waitForLock(`${file}.lock`, {
        staleMs: STATE_LOCK_STALE_MS,
        timeoutMs: STATE_LOCK_WAIT_MS,
      });
      try {
        const state = await read();
        change(state);
        const temp = `${file}.${process.pid}.tmp`;
        await writeFile(temp, `${JSON.stringify(state, null, 2)}\n`);
        await rename(temp, file);
      } finally {
        lock.release();
      }
    });
    queue = next.catch(() => {});
    return next;
  }

  return {
    budgets: createFileBudget({
      // Read before every request of a provider key (a 429 another process heard holds this one back
      // at once): parsed again only when the file was replaced since, not the whole state file
      // (run history, a big feed's `goneSince`) a request.
      read: async () => {
        await queue;
        const before = await versionOf(file);
        if (before !== undefined && budgetsRead?.version === before)
          return structuredClone(budgetsRead.budgets);
        const budgets = (await read()).budgets ?? {};
        // Kept only when the file was the same before and after the read.
        const after = await versionOf(file);
        budgetsRead =
          after !== undefined && after === before
            ? { version: after, budgets: structuredClone(budgets) }
            : undefined;
        return budgets;
      },
      update: (change) =>
        update((state) => {
          state.budgets = change(state.budgets ?? {});
        }),
    }),
    async getFeed(feedId) {
      return structuredClone((await readShared()).feeds[feedId] ?? {});
    },
    updateFeed(feedId, patch) {
      return update((state) => {
        state.feeds[feedId] = mergeFeedState(state.feeds[feedId] ?? {}, patch);
      });
    },
    async getSettingsFingerprint(chatbot) {
      return (await readShared()).settingsFingerprints[chatbot];
    },
    setSettingsFingerprint(chatbot, fingerprint) {
      return update((state) => {
        state.settingsFingerprints[chatbot] = fingerprint;
      });
    },
    recordRun(feedId, report) {
      return update((state) => {
        state.feeds[feedId] = mergeFeedState(state.feeds[feedId] ?? {}, { lastReport: report });
        state.runs[feedId] = appendRun(state.runs[feedId] ?? [], report, keep);
      });
    },
    async listRuns(feedId, limit = keep) {
      return structuredClone(((await readShared()).runs[feedId] ?? []).slice(0, limit));
    },
  };
}
