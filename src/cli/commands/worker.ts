import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE, readEnv } from '../../config/env.ts';
import { reloadOnChange } from '../../queue/config-watch.ts';
import { startWorkerService } from '../../queue/worker-service.ts';
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
    .description('run scheduled syncs and settings pushes (BullMQ on Redis)')
    .option(
      '--health-file <file>',
      'where the heartbeat for `feed-sync healthcheck` is written',
      DEFAULT_HEALTH_FILE,
    );
  withConfigOption(command).action(async (options: GlobalOptions & { healthFile: string }) => {
    const env = readEnv();
    const logger = cliLogger('service');
    const config = await loadCliConfig(options);
    const problem = workerStartProblem(config, env);
    if (problem) throw new CliExit(problem, EXIT.usage);
    // Refused before anything starts: a worker running without its UI would look healthy to no one.
    if (env.UI_PORT !== undefined) checkUiExposure(env.UI_HOST, credentialsOf(env));
    const metrics = createMetrics();
    const service = await startWorkerService({
      config,
      redisUrl: env.REDIS_URL,
      prefix: config.worker.prefix,
      logger,
      sync: syncFeed,
      metrics,
    });
    let stopWatching: (() => void) | undefined;
    let ui: UiServer | undefined;
    try {
      stopWatching = reloadOnChange(options.config ?? DEFAULT_CONFIG_FILE, service, logger);
      if (env.UI_PORT !== undefined) ui = await startUi({ service, env, logger, metrics });
    } catch (error) {
      // Without this, the open Redis connections keep a half-started worker alive after the error.
      stopWatching?.();
      await service.close();
      throw error;
    }
    const heartbeat = startHeartbeat(options.healthFile, () => service.healthy());
    logger.info({ feeds: config.feeds.length, ui: ui?.url }, 'worker started');

    await new Promise<void>((resolve) => {
      const stop = (signal: NodeJS.Signals) => {
        logger.info({ signal }, 'stopping: no new jobs, running ones finish');
        resolve();
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    stopWatching();
    await heartbeat.stop();
    await service.close();
    await ui?.close();
    logger.info('worker stopped');
  });
}
