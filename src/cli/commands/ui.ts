import type { Command } from 'commander';
import { type GlobalOptions, withConfigOption, withExamples } from '../context.ts';

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
      const { runUi } = await import('../services.ts');
      await runUi(options);
    });
}
