import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { readEnv } from '../../config/env.ts';
import { DEFAULT_PREFIX } from '../../queue/names.ts';
import { storeChoiceOf } from '../../queue/store.ts';
import { startStandaloneUi } from '../../ui/index.ts';
import { cliLogger, type GlobalOptions, loadCliConfig, withConfigOption } from '../context.ts';

/** `feed-sync ui`: the queue UI on its own (UI_HOST, UI_PORT default 3000, UI_USER/UI_PASSWORD). */
export function registerUi(program: Command): void {
  const command = program
    .command('ui')
    .description('serve the queue UI (bull-board) with /healthz and /metrics')
    .option('--port <port>', 'port (default UI_PORT or 3000)');
  withConfigOption(command)
    .addHelpText('after', "\nThe queue prefix is the config's worker.prefix when the config file exists.\n")
    .action(async (options: GlobalOptions & { port?: string }) => {
      const env = readEnv();
      const logger = cliLogger('service');
      const port = options.port ? Number(options.port) : env.UI_PORT;
      // Same queue as the worker: its prefix comes from the same config file.
      const prefix =
        options.config && existsSync(options.config)
          ? (await loadCliConfig(options)).worker.prefix
          : DEFAULT_PREFIX;
      const ui = await startStandaloneUi({
        store: storeChoiceOf(env, env.FEED_SYNC_STATE_DIR),
        prefix,
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
