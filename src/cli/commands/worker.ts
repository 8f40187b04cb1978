import type { Command } from 'commander';
import { startWorkerService, type WorkerService } from '../../../jobs/worker-service.ts';
import { DEFAULT_CONFIG_FILE, type EnvSettings, readEnv } from '../../config/env.ts';
import type { Config } from '../../config/schema.ts';
import type { Logger } from '../../logger.ts';
import { reloadOnChange } from '../../queue/config-watch.ts';
import { describeStore, storeChoiceOf } from '../../queue/store.ts';
import { syncFeed } from '../../reconcile/index.ts';
import { checkUiExposure, createMetrics, credentialsOf, startUi, type UiServer } from '../../ui/index.ts';
import {
  CliExit,
  cliLogger,
  type GlobalOptions,
  loadCliConfig,
  withConfigOption,
  withExamples,
} from '../context.ts';
import { EXIT } from '../exit-codes.ts';
import { DEFAULT_HEALTH_FILE, startHeartbeat } from '../heartbeat.ts';
import { workerStartProblem } from '../worker-preflight.ts';

/**
 * `feed-sync worker`: runs every feed on its schedule and pushes chatbot settings, until SIGTERM or
 * SIGINT. Serves the queue UI too when UI_PORT is set. Exits 0 after a clean shutdown.
 */
export function registerWorker(program: Command): void {
  const command = withExamples(program.command('worker'), [
    'REDIS_URL=redis://127.0.0.1:6379 UI_PORT=3000 feed-sync worker -c feed-sync.yaml',
  ])
    .description('run scheduled syncs and settings pushes (BullMQ on Redis, Postgres or the embedded store)')
    .option(
      '--health-file <file>',
      'where the heartbeat for `feed-sync healthcheck` is written',
      DEFAULT_HEALTH_FILE,
    );
  withConfigOption(command).action(async (options: GlobalOptions & { healthFile: string }) => {
    const config = await loadCliConfig(options);
    await runWorker({
      config,
      configFile: options.config ?? DEFAULT_CONFIG_FILE,
      env: readEnv(),
      healthFile: options.healthFile,
    });
  });
}

export interface RunWorkerOptions {
  config: Config;
  /** Watched and reloaded on change; unset: the config is fixed (the demo's, built in memory). */
  configFile?: string;
  env: EnvSettings;
  logger?: Logger;
  /** Runs once the worker has started (the demo queues its first runs here). */
  onStarted?: (service: WorkerService) => Promise<void>;
  /** Where the heartbeat for `feed-sync healthcheck` is written. Default `DEFAULT_HEALTH_FILE`. */
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
  });
  let stopWatching: (() => void) | undefined;
  let ui: UiServer | undefined;
  try {
    if (options.configFile) stopWatching = reloadOnChange(options.configFile, service, logger);
    if (env.UI_PORT !== undefined) ui = await startUi({ service, env, logger, metrics });
    await options.onStarted?.(service);
  } catch (error) {
    // Without this, the open store connections keep a half-started worker alive after the error.
    stopWatching?.();
    await service.close();
    throw error;
  }
  const heartbeat = startHeartbeat(options.healthFile ?? DEFAULT_HEALTH_FILE, () => service.healthy());
  logger.info(
    { feeds: config.feeds.length, ui: ui?.url, store: describeStore(service.store) },
    'worker started',
  );

  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'stopping: no new jobs, running ones finish');
      resolve();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  stopWatching?.();
  await heartbeat.stop();
  await service.close();
  await ui?.close();
  logger.info('worker stopped');
}
