import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE, readEnv } from '../../config/index.ts';
import { type GlobalOptions, loadCliConfig, withConfigOption, withExamples } from '../context.ts';

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
      'where the heartbeat for `feed-sync healthcheck` is written (default: feed-sync-worker.<pid>.health in the temp folder)',
    );
  withConfigOption(command).action(async (options: GlobalOptions & { healthFile?: string }) => {
    const config = await loadCliConfig(options);
    const { runWorker } = await import('../services.ts');
    await runWorker({
      config,
      configFile: options.config ?? DEFAULT_CONFIG_FILE,
      env: readEnv(),
      ...(options.healthFile ? { healthFile: options.healthFile } : {}),
    });
  });
}
