import type { Command } from 'commander';
import { clientFromConfig } from '../../api/index.ts';
import { type Plan, type RunEvent, renderPlan, renderReport, syncFeed } from '../../reconcile/index.ts';
import { createFileStateStore } from '../../state/index.ts';
import {
  CliExit,
  cliLogger,
  type GlobalOptions,
  loadCliConfig,
  withConfigOption,
  withJsonOption,
} from '../context.ts';
import { selectFeeds } from './sync.ts';

interface PlanCommandOptions extends GlobalOptions {
  feed?: string;
  allowMassDelete?: boolean;
}

export function registerPlan(program: Command): void {
  const command = program
    .command('plan')
    .description('show what a sync would change, listing by listing, and write nothing')
    .requiredOption('--feed <id>', 'the feed to plan')
    .option('--allow-mass-delete', 'plan as if the delete-share override were given');
  withJsonOption(withConfigOption(command)).action(async (options: PlanCommandOptions) => {
    const config = await loadCliConfig(options);
    const [feed] = selectFeeds(config, { feed: options.feed ?? '' });
    if (!feed) throw new CliExit('give --feed ID');
    let plan: Plan | undefined;
    const deps = {
      client: clientFromConfig(config),
      state: createFileStateStore(config.stateFile, { historyRuns: config.worker.historyRuns }),
      logger: cliLogger(),
      onEvent: (event: RunEvent) => {
        if (event.type === 'plan') plan = event.plan;
      },
    };
    // A plan compares the whole feed with the remote, whatever the validators say.
    const { report } = await syncFeed(config, feed, deps, {
      dryRun: true,
      forceFull: true,
      allowMassDelete: options.allowMassDelete ?? false,
    });
    if (options.json)
      process.stdout.write(`${JSON.stringify(plan ? { plan, report } : { report }, null, 2)}\n`);
    else process.stdout.write(`${plan ? renderPlan(plan) : renderReport(report)}\n`);
    if (!plan) throw new CliExit(report.reason ?? 'no plan could be made');
  });
}
