/**
 * The long-running commands (`worker`, `start`, `ui`): the only code that loads BullMQ, the queue
 * stores, express and bull-board. Their commands import this module when they run, so every other
 * command (`sync`, `validate`, `--version`…) starts without those dependencies (issue 13).
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startWorkerService, type WorkerService } from '../../jobs/index.ts';
import type { Config } from '../config/index.ts';
import { DEFAULT_CONFIG_FILE, type EnvSettings, feedsAtOnce, readEnv } from '../config/index.ts';
import type { Logger } from '../logger.ts';
import { DEFAULT_PREFIX, describeStore, enqueueFeedSync, storeChoiceOf } from '../queue/index.ts';
import { syncFeed } from '../reconcile/index.ts';
import { startSandbox } from '../sandbox/index.ts';
import { reloadOnChange } from '../schedule/index.ts';
import {
  checkUiExposure,
  createMetrics,
  credentialsOf,
  startStandaloneUi,
  startUi,
  type UiServer,
} from '../ui/index.ts';
import { CliExit, cliLogger, type GlobalOptions, loadCliConfig } from './context.ts';
import { loadDemoConfig } from './demo-config.ts';
import { EXIT } from './exit-codes.ts';
import { healthFileOf, removeDeadHeartbeats, startHeartbeat } from './heartbeat.ts';
import { workerStartProblem } from './worker-preflight.ts';

export interface RunWorkerOptions {
  config: Config;
  /** Watched and reloaded on change; unset: the config is fixed. */
  configFile?: string;
  /** The running config made from the watched file (the demo's: its sandbox, its schedule). */
  adaptConfig?: (config: Config) => Config;
  env: EnvSettings;
  logger?: Logger;
  /** Runs once the worker has started (the demo queues its first runs here). */
  onStarted?: (service: WorkerService) => Promise<void>;
  /** Where the heartbeat for `feed-sync healthcheck` is written. Default: this process's own, `healthFileOf()`. */
  healthFile?: string;
}

/** The worker service, its config watch and its UI, until SIGTERM or SIGINT. */
export async function runWorker(options: RunWorkerOptions): Promise<void> {
  const { config, env } = options;
  const logger = options.logger ?? cliLogger('service');
  const problem = workerStartProblem(config, env);
  if (problem) throw new CliExit(problem, EXIT.usage);
  // Refused before anything starts: a worker running without its UI would look healthy to no one.
  if (env.UI_PORT !== undefined) checkUiExposure(env.UI_HOST, credentialsOf(env));
  const metrics = createMetrics();
  const service = await startWorkerService({
    config,
    store: storeChoiceOf(env, env.FEED_SYNC_STATE_DIR),
    prefix: config.worker.prefix,
    logger,
    sync: syncFeed,
    metrics,
    // A `feed-sync sync` by hand of a feed this worker runs is skipped meanwhile, and the other way round.
    runLocks: true,
  });
  let stopWatching: (() => void) | undefined;
  let ui: UiServer | undefined;
  try {
    if (options.configFile)
      stopWatching = reloadOnChange(options.configFile, service, logger, {
        ...(options.adaptConfig ? { adapt: options.adaptConfig } : {}),
      });
    if (env.UI_PORT !== undefined) ui = await startUi({ service, env, logger, metrics });
    await options.onStarted?.(service);
  } catch (error) {
    // Without this, the open store connections keep a half-started worker alive after the error.
    stopWatching?.();
    await service.close();
    throw error;
  }
  // Files that workers killed outright left in the temp folder (the check skips them; this clears them).
  if (options.healthFile === undefined) await removeDeadHeartbeats().catch(() => 0);
  const heartbeat = startHeartbeat(options.healthFile ?? healthFileOf(), () => service.healthy());
  logger.info(
    {
      feeds: config.feeds.length,
      feedsAtOnce: feedsAtOnce(config.worker, config.api),
      ui: ui?.url,
      store: describeStore(service.store),
    },
    'worker started',
  );

  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      logger.info({ signal }, 'stopping: no new jobs, running ones finish (again to stop them now)');
      // A second signal stops the running runs at once, each recorded as cancelled (a tester's
      // second Ctrl-C left no report and no line); a third leaves at once.
      let signals = 1;
      const again = (next: NodeJS.Signals) => {
        signals++;
        if (signals === 2) {
          logger.warn(
            { signal: next },
            'stopping the running runs now: each ends cancelled, its report saved; the next run writes the rest',
          );
          service.stopNow();
          return;
        }
        logger.warn({ signal: next }, 'leaving at once: a running run is taken up by the next worker');
        process.exit(130);
      };
      process.on('SIGTERM', again);
      process.on('SIGINT', again);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  stopWatching?.();
  // It beats on while the running jobs finish (`stopping`), and is removed once they have.
  heartbeat.stopping();
  try {
    await service.close();
  } finally {
    await heartbeat.stop();
  }
  await ui?.close();
  logger.info('worker stopped');
}

/** How often the demo feeds run when `start` runs the demo. */
export const DEMO_CRON = '*/2 * * * *';

/** `feed-sync start`: the worker with its dashboard; the demo when there is no config file. */
export async function runStart(options: { config?: string }): Promise<void> {
  const env = readEnv();
  const logger = cliLogger('service');
  const file = options.config ?? env.FEED_SYNC_CONFIG ?? DEFAULT_CONFIG_FILE;
  const withUi = { ...env, UI_PORT: env.UI_PORT ?? 3000 };
  if (options.config || env.FEED_SYNC_CONFIG || existsSync(file)) {
    await runWorker({
      config: await loadCliConfig({ config: file }),
      configFile: file,
      env: withUi,
      logger,
    });
    return;
  }
  const sandbox = await startSandbox({ latencyMs: 20 });
  try {
    const dir = join(env.FEED_SYNC_STATE_DIR, 'demo');
    // The demo's copied config runs against this sandbox on its own schedule, edited or not.
    const adaptConfig = (loaded: Config): Config => ({
      ...loaded,
      api: { ...loaded.api, baseUrl: sandbox.url },
      feeds: loaded.feeds.map((feed) => ({ ...feed, schedule: { cron: DEMO_CRON, timezone: 'UTC' } })),
    });
    const config = adaptConfig(await loadDemoConfig(dir, sandbox.url, true));
    logger.info(
      {
        sandbox: sandbox.url,
        feeds: config.feeds.map((f) => f.id),
        files: dir,
      },
      `no ${file}: running the demo feeds every two minutes against a local sandbox; edit ${join(dir, 'feed-sync.yaml')} and a change runs the feeds it touches at once (trigger config)`,
    );
    // A first run of each feed now, so the dashboard has something to show before the schedule fires.
    const onStarted = async (service: WorkerService) => {
      for (const feed of config.feeds)
        await enqueueFeedSync(service.queue, { feedId: feed.id, trigger: 'manual' });
    };
    await runWorker({
      config,
      configFile: join(dir, 'feed-sync.yaml'),
      adaptConfig,
      env: withUi,
      logger,
      onStarted,
    });
  } finally {
    await sandbox.close();
  }
}

/** `feed-sync ui`: the dashboard and the queue UI on their own, until SIGTERM or SIGINT. */
export async function runUi(
  options: GlobalOptions & { port?: string; configNamed?: boolean },
): Promise<void> {
  const env = readEnv();
  const port = options.port ? Number(options.port) : env.UI_PORT;
  // Refused before anything else, a config read included: an address it must not listen on.
  checkUiExposure(env.UI_HOST, credentialsOf(env));
  // Same queue as the worker: its prefix comes from the same config file. One the user named (-c,
  // FEED_SYNC_CONFIG) must load: a typo in its path would show an empty dashboard of another
  // prefix's queue, "all healthy". The default file is read only when it exists.
  const config =
    options.config && (options.configNamed || existsSync(options.config))
      ? await loadCliConfig(options)
      : undefined;
  const logger = cliLogger('service');
  const prefix = config?.worker.prefix ?? DEFAULT_PREFIX;
  const ui = await startStandaloneUi({
    store: storeChoiceOf(env, env.FEED_SYNC_STATE_DIR),
    prefix,
    ...(config ? { config } : {}),
    env: { ...env, UI_PORT: port },
    logger,
  });
  process.stderr.write(`queue UI on ${ui.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await ui.close();
}
