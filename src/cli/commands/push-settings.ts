import type { Command } from 'commander';
import { clientFromConfig } from '../../api/index.ts';
import { type PushResult, pushAllSettings } from '../../settings/index.ts';
import { createFileStateStore } from '../../state/index.ts';
import {
  CliExit,
  cliLogger,
  type GlobalOptions,
  loadCliConfig,
  print,
  withConfigOption,
  withExamples,
  withJsonOption,
} from '../context.ts';

interface PushSettingsOptions extends GlobalOptions {
  chatbot?: string;
  force?: boolean;
  dryRun?: boolean;
}

function render(results: PushResult[]): string {
  if (results.length === 0) return 'no chatbots in config';
  return results
    .map((r) => `${r.chatbot}: ${r.outcome}${r.fields.length ? ` (${r.fields.join(', ')})` : ''}`)
    .join('\n');
}

export function registerPushSettings(program: Command): void {
  const command = withExamples(program.command('push-settings'), [
    'feed-sync push-settings --dry-run',
    'feed-sync push-settings --chatbot 4f1c0d2e9a7b4c3d8e6f5a4b3c2d1e0f --force',
  ])
    .description('push chatbot settings from config (Edit) when they changed since the last push')
    .option('--chatbot <serial>', 'only this chatbot')
    .option('--force', 'push even when unchanged since the last push')
    .option('--dry-run', 'show what would be pushed, send nothing');
  withJsonOption(withConfigOption(command)).action(async (options: PushSettingsOptions) => {
    const config = await loadCliConfig(options);
    const logger = cliLogger();
    const deps = { client: clientFromConfig(config), state: createFileStateStore(config.stateFile), logger };
    let results: PushResult[];
    try {
      results = await pushAllSettings(config, deps, {
        ...(options.chatbot ? { chatbot: options.chatbot } : {}),
        force: options.force ?? false,
        dryRun: options.dryRun ?? false,
      });
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('no chatbot')) throw new CliExit(error.message);
      throw error;
    }
    print(options, results, () => render(results));
  });
}
