import type { Command } from 'commander';
import { clientFromConfig } from '../../api/index.ts';
import type { Config, FeedConfig } from '../../config/schema.ts';
import { type RunReport, renderReport, saveRun, syncFeed } from '../../reconcile/index.ts';
import { progressLine } from '../../reconcile/progress-line.ts';
import { assertStateWritable, createFileStateStore } from '../../state/index.ts';
import {
  CliExit,
  cliLogger,
  type GlobalOptions,
  loadCliConfig,
  withConfigOption,
  withJsonOption,
} from '../context.ts';

interface SyncCommandOptions extends GlobalOptions {
  feed?: string;
  all?: boolean;
  allowMassDelete?: boolean;
  dryRun?: boolean;
  forceFull?: boolean;
}

/** The feeds a command names: `--feed ID` (enabled or not) or `--all` (the enabled ones). */
export function selectFeeds(config: Config, options: { feed?: string; all?: boolean }): FeedConfig[] {
  if (options.feed && options.all) throw new CliExit('give --feed ID or --all, not both');
  if (options.feed) {
    const feed = config.feeds.find((f) => f.id === options.feed);
    if (!feed)
      throw new CliExit(
        `no feed "${options.feed}" in config (feeds: ${config.feeds.map((f) => f.id).join(', ') || 'none'})`,
      );
    return [feed];
  }
  if (options.all) return config.feeds.filter((f) => f.enabled);
  throw new CliExit('give --feed ID or --all');
}

/**
 * Exit code of a set of runs: 0 all ok or skipped, 2 a guard held deletes back, 1 anything failed,
 * 130 interrupted (Ctrl-C, SIGTERM: what was applied is reported, the next run repairs the rest).
 */
export function exitCodeOf(reports: readonly RunReport[]): number {
  if (reports.some((r) => r.outcome === 'cancelled')) return 130;
  if (reports.some((r) => r.outcome === 'failed')) return 1;
  if (reports.some((r) => r.outcome === 'guarded')) return 2;
  return 0;
}

export function registerSync(program: Command): void {
  const command = program
    .command('sync')
    .description('make the chatbot listings equal to the feed: ingest, snapshot, plan, apply (no Redis)')
    .option('--feed <id>', 'the feed to sync')
    .option('--all', 'every enabled feed, one after the other')
    .option('--allow-mass-delete', 'delete even above the feed’s maxDeleteShare')
    .option('--dry-run', 'plan and report, write nothing')
    .option('--force-full', 'ignore validators and watermarks: fetch and compare everything');
  withJsonOption(withConfigOption(command)).action(async (options: SyncCommandOptions) => {
    const config = await loadCliConfig(options);
    const feeds = selectFeeds(config, options);
    // Before any write to the platform: a run whose state cannot be saved must not start.
    if (!options.dryRun) await assertStateWritable(config.stateFile);
    const deps = {
      client: clientFromConfig(config),
      state: createFileStateStore(config.stateFile, { historyRuns: config.worker.historyRuns }),
      logger: cliLogger(),
    };
    // Ctrl-C stops issuing calls and lets the ones in flight finish; a second one exits at once.
    const controller = new AbortController();
    const onSignal = () => (controller.signal.aborted ? process.exit(130) : controller.abort());
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const reports: RunReport[] = [];
    try {
      for (const feed of feeds) {
        if (controller.signal.aborted) break;
        const progress = progressLine(feed.id);
        const result = await syncFeed(
          config,
          feed,
          {
            ...deps,
            signal: controller.signal,
            onEvent: (event) => (event.type === 'progress' ? progress.onProgress(event) : undefined),
          },
          {
            allowMassDelete: options.allowMassDelete ?? false,
            dryRun: options.dryRun ?? false,
            forceFull: options.forceFull ?? false,
            trigger: 'manual',
          },
        );
        progress.clear();
        await saveRun(deps.state, result);
        const { report } = result;
        reports.push(report);
        if (!options.json) process.stdout.write(`${renderReport(report)}\n`);
      }
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    if (options.json)
      process.stdout.write(`${JSON.stringify(options.feed ? reports[0] : reports, null, 2)}\n`);
    const code = exitCodeOf(reports);
    if (code !== 0)
      throw new CliExit(
        code === 130
          ? 'interrupted: what was applied is above; the next run repairs the rest'
          : code === 2
            ? 'a delete guard tripped (see above)'
            : 'the sync did not complete (see above)',
        code,
      );
  });
}
