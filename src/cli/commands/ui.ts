import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { readEnv } from '../../config/env.ts';
import { DEFAULT_PREFIX } from '../../queue/names.ts';
import { storeChoiceOf } from '../../queue/store.ts';
import { startStandaloneUi } from '../../ui/index.ts';
import { cliLogger, type GlobalOptions, loadCliConfig, withConfigOption, withExamples } from '../context.ts';

/** `feed-sync ui`: the queue UI on its own (UI_HOST, UI_PORT default 3000, UI_USER/UI_PASSWORD). */
export function registerUi(program: Command): void {
  const command = withExamples(program.command('ui'), [
    'UI_USER=operator UI_PASSWORD=… feed-sync ui --port 3000',
  ])
    .description('serve the feed dashboard (/) and the queue UI (/queues) with /healthz and /metrics')
    .option('--port <port>', 'port (default UI_PORT or 3000)');
  withConfigOption(command)
    .addHelpText('after', "\nThe queue prefix is the config's worker.prefix when the config file exists.\n")
    .action(async (options: GlobalOptions & { port?: string }) => {
      const env = readEnv();
      const logger = cliLogger('service');
      const port = options.port ? Number(options.port) : env.UI_PORT;
      // Same queue as the worker: its prefix comes from the same config file.
      const config = options.config && existsSync(options.config) ? await loadCliConfig(options) : undefined;
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
    });
}
