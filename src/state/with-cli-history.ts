import { createFileStateStore } from './file-store.ts';
import type { FeedState, StateStore } from './state-store.ts';

/** A run `withCliHistory` read from the command line's state file carries this, true. */
export const FROM_STATE_FILE = 'fromStateFile';

/**
 * The worker's state store, read with the runs `feed-sync sync` made from the command line beside
 * it (its state file, `stateFile()`): a feed no worker has run shows the command line's runs, where
 * an operator who synced by hand, then opened the dashboard, read "never run". A feed the worker has
 * run shows the worker's runs only. Writes go to the worker's store. A state file that cannot be read
 * is passed over (the worker's store answers as it would alone).
 */
export function withCliHistory(primary: StateStore, stateFile: () => string | undefined): StateStore {
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
      if (state.lastReport !== undefined) return state;
      const fromCli = await fallback((store) => store.getFeed(feedId));
      return fromCli?.lastReport !== undefined ? fromCli : state;
    },
    async listRuns(feedId, limit) {
      const runs = await primary.listRuns(feedId, limit);
      if (runs.length > 0) return runs;
      const fromCli = await fallback((store) => store.listRuns(feedId, limit));
      // Each marked, so a page can say where it comes from.
      return fromCli?.map((run) => ({ ...(run as object), [FROM_STATE_FILE]: true })) ?? runs;
    },
    updateFeed: (feedId, patch) => primary.updateFeed(feedId, patch),
    getSettingsFingerprint: (chatbot) => primary.getSettingsFingerprint(chatbot),
    setSettingsFingerprint: (chatbot, fingerprint) => primary.setSettingsFingerprint(chatbot, fingerprint),
    recordRun: (feedId, report) => primary.recordRun(feedId, report),
  };
}
