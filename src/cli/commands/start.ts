import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { WorkerService } from '../../../jobs/worker-service.ts';
import { DEFAULT_CONFIG_FILE, readEnv } from '../../config/env.ts';
import type { Config } from '../../config/schema.ts';
import { enqueueFeedSync } from '../../queue/enqueue.ts';
import { startSandbox } from '../../sandbox/index.ts';
import { cliLogger, loadCliConfig } from '../context.ts';
import { loadDemoConfig } from './demo.ts';
import { runWorker } from './worker.ts';

/** How often the demo feeds run when `start` runs the demo. */
export const DEMO_CRON = '*/2 * * * *';

/**
 * `feed-sync start` (`npm start`): the worker with its dashboard on http://127.0.0.1:3000, on the
 * store the environment chooses (the embedded one when nothing is set). With no config file, the
 * demo: the bundled sandbox and demo feeds, run once at start and then every two minutes.
 */
export function registerStart(program: Command): void {
  program
    .command('start')
    .description('the worker and its dashboard on 127.0.0.1:3000; the demo feeds when there is no config')
    .option('-c, --config <file>', 'config file (default FEED_SYNC_CONFIG or feed-sync.yaml)')
    .action(async (options: { config?: string }) => {
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
        const demo = await loadDemoConfig(join(env.FEED_SYNC_STATE_DIR, 'demo'), sandbox.url, true);
        const config: Config = {
          ...demo,
          feeds: demo.feeds.map((feed) => ({ ...feed, schedule: { cron: DEMO_CRON, timezone: 'UTC' } })),
        };
        logger.info(
          {
            sandbox: sandbox.url,
            feeds: config.feeds.map((f) => f.id),
            files: join(env.FEED_SYNC_STATE_DIR, 'demo'),
          },
          `no ${file}: running the demo feeds every two minutes against a local sandbox`,
        );
        // A first run of each feed now, so the dashboard has something to show before the schedule fires.
        const onStarted = async (service: WorkerService) => {
          for (const feed of config.feeds)
            await enqueueFeedSync(service.queue, { feedId: feed.id, trigger: 'manual' });
        };
        await runWorker({ config, env: withUi, logger, onStarted });
      } finally {
        await sandbox.close();
      }
    });
}
