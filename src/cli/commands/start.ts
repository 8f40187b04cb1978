import type { Command } from 'commander';

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
      const { runStart } = await import('../services.ts');
      await runStart(options);
    });
}
