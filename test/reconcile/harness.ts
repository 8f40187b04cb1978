import { clientFromConfig, type PlatformClient } from '../../src/api/index.ts';
import type { Config, FeedConfig } from '../../src/config/schema.ts';
import { silentLogger } from '../../src/logger.ts';
import type { Listing } from '../../src/normalize/listing-schema.ts';
import {
  type RunReport,
  type SyncDeps,
  type SyncOptions,
  saveRun,
  syncFeed,
} from '../../src/reconcile/index.ts';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.ts';
import type { FeedOpener } from '../../src/sources/index.ts';
import { createMemoryStateStore, type StateStore } from '../../src/state/state-store.ts';
import { recordsFeed } from '../../src/testing/records-feed.ts';
import { type FeedInput, makeConfig } from './fixtures.ts';

export interface Harness {
  sandbox: Sandbox;
  config: Config;
  client: PlatformClient;
  state: StateStore;
  feed(id?: string): FeedConfig;
  /**
   * Sync `feed` as if its source had yielded `items` (listings, read with the feed's mapping), or
   * what a reader opens (`recordsFeed(…)`); without either, the feed's own source (a fixture file).
   */
  sync(
    feed: FeedConfig,
    items?: Listing[] | FeedOpener,
    options?: SyncOptions,
    deps?: Partial<SyncDeps>,
  ): Promise<RunReport>;
  /** MLS numbers stored on the sandbox for the chatbot, sorted. */
  keys(serial?: string): string[];
  close(): Promise<void>;
}

/** A sandbox on a random port and a client wired like production (one limiter), with fast retries. */
export async function startHarness(
  feeds: FeedInput[] = [{}],
  sandboxOptions: SandboxOptions = {},
  api: Record<string, unknown> = {},
): Promise<Harness> {
  const sandbox = await startSandbox({ latencyMs: 1, ...sandboxOptions });
  const config = makeConfig(feeds, { baseUrl: sandbox.url, ...api });
  // As users get it: the limiter from api.concurrency / api.requestsPerSecond; only the backoff is shortened.
  const client = clientFromConfig(config, { backoff: { baseMs: 5, maxMs: 50 } });
  const state = createMemoryStateStore();
  return {
    sandbox,
    config,
    client,
    state,
    feed: (id = 'feed1') => config.feeds.find((f) => f.id === id) as FeedConfig,
    sync: async (feed, items, options, deps) => {
      const result = await syncFeed(
        config,
        feed,
        {
          client,
          state,
          logger: silentLogger,
          ...(items === undefined ? {} : { open: typeof items === 'function' ? items : recordsFeed(items) }),
          ...deps,
        },
        options,
      );
      await saveRun(state, result);
      return result.report;
    },
    keys: (serial = 'SN-1') =>
      sandbox
        .listings(serial)
        .map((l) => l.MLSNumber)
        .sort(),
    close: () => sandbox.close(),
  };
}

/** The writes a run made (create, update and delete calls): 0 for a run that changed nothing. */
export const writes = (report: RunReport): number =>
  report.apiCalls.create + report.apiCalls.update + report.apiCalls.delete;
