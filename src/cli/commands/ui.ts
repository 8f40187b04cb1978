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
    .addHelpText(
      'after',
      "\nThe queue prefix is the config's worker.prefix: a config named by -c or FEED_SYNC_CONFIG must exist; without either, feed-sync.yaml is read when it exists.\n",
    )
    .action(async (options: GlobalOptions & { port?: string }, cmd: Command) => {
      const { runUi } = await import('../services.ts');
      // A config the user named is read or refused, never passed over for the default prefix.
      await runUi({ ...options, configNamed: cmd.getOptionValueSource('config') !== 'default' });
    });
}
