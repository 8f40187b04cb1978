import { createFileStateStore } from './file-store.ts';
import type { FeedState, StateStore } from './state-store.ts';

/** What a store answers when it is only read. */
export type StateReads = Pick<StateStore, 'getFeed' | 'listRuns' | 'budgets'>;

/** A run `withCliHistory` read from the command line's state file carries this, true. */
export const FROM_STATE_FILE = 'fromStateFile';

/** Whether `withCliHistory` read this run from the command line's state file (`FROM_STATE_FILE`). */
export function isFromStateFile(run: unknown): boolean {
  return (
    typeof run === 'object' && run !== null && (run as Record<string, unknown>)[FROM_STATE_FILE] === true
  );
}

/**
 * The worker's state store, read with the runs `feed-sync sync` made from the command line beside
 * it (its state file, `stateFile()`): an operator who synced by hand, then opened the dashboard,
 * read "never run", and once a worker had run the feed, the runs made by hand before (or since)
 * were gone from its history. The runs are both stores', newest first, each from the state file
 * marked (`FROM_STATE_FILE`); the feed's state is the store's whose last run is the newer. Writes go
 * to the worker's store. A state file that cannot be read is passed over (the worker's store
 * answers as it would alone).
 */
export function withCliHistory(primary: StateStore, stateFile: () => string | undefined): StateStore {
  return {
    ...readsWithCliHistory(primary, stateFile),
    updateFeed: (feedId, patch) => primary.updateFeed(feedId, patch),
    getSettingsFingerprint: (chatbot) => primary.getSettingsFingerprint(chatbot),
    setSettingsFingerprint: (chatbot, fingerprint) => primary.setSettingsFingerprint(chatbot, fingerprint),
    recordRun: (feedId, report) => primary.recordRun(feedId, report),
  };
}

/** The reads of `withCliHistory`, of a store only read (`feed-sync explain`'s). */
export function readsWithCliHistory(primary: StateReads, stateFile: () => string | undefined): StateReads {
  let cli: { path: string; store: StateStore } | undefined;
  const cliStore = (): StateStore | undefined => {
    const path = stateFile();
    if (path === undefined) return undefined;
    if (cli?.path !== path) cli = { path, store: createFileStateStore(path) };
    return cli.store;
  };
  const fallback = async <T>(read: (store: StateStore) => Promise<T>): Promise<T | undefined> => {
    const store = cliStore();
    if (store === undefined) return undefined;
    try {
      return await read(store);
    } catch {
      return undefined;
    }
  };
  return {
    ...(primary.budgets ? { budgets: primary.budgets } : {}),
    async getFeed(feedId): Promise<FeedState> {
      const state = await primary.getFeed(feedId);
      const fromCli = await fallback((store) => store.getFeed(feedId));
      return startedAt(fromCli?.lastReport) > startedAt(state.lastReport) && fromCli ? fromCli : state;
    },
    async listRuns(feedId, limit) {
      const runs = await primary.listRuns(feedId, limit);
      const fromCli = await fallback((store) => store.listRuns(feedId, limit));
      if (fromCli === undefined || fromCli.length === 0) return runs;
      // Each marked, so a page can say where it comes from.
      const marked = fromCli.map((run) => ({ ...(run as object), [FROM_STATE_FILE]: true }));
      const both = [...runs, ...marked].sort((a, b) => startedAt(b) - startedAt(a));
      return limit === undefined ? both : both.slice(0, limit);
    },
  };
}

/** A run's start (ms), from its report's `startedAt`; -Infinity for none. */
function startedAt(run: unknown): number {
  const at = (run as { startedAt?: unknown } | undefined)?.startedAt;
  const ms = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  return Number.isFinite(ms) ? ms : Number.NEGATIVE_INFINITY;
}
