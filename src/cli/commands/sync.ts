import type { Command } from 'commander';
import { clientFromConfig } from '../../api/index.ts';
import { type Config, DEFAULT_CONFIG_FILE, type FeedConfig, findFeed } from '../../config/index.ts';
import { emptyReport, goesOnNow, type RunReport, runAndSave, zeroCalls } from '../../reconcile/index.ts';
import { progressLine, renderReport } from '../../render/index.ts';
import {
  assertStateWritable,
  createFileStateStore,
  type HeldLock,
  heldReason,
  lockPathOf,
  takeRunLock,
} from '../../state/index.ts';
import {
  CliExit,
  cliLogger,
  cliMemo,
  clockOf,
  type GlobalOptions,
  loadCliConfig,
  withConfigInCommands,
  withConfigOption,
  withExamples,
  withJsonOption,
  withNowOption,
} from '../context.ts';
import { signalLine } from '../early-signals.ts';
import { EXIT, exitCodeOf } from '../exit-codes.ts';

interface SyncCommandOptions extends GlobalOptions {
  feed?: string;
  all?: boolean;
  allowMassDelete?: boolean;
  dryRun?: boolean;
  forceFull?: boolean;
  now?: Date;
  /** `--no-memo`: false. */
  memo?: boolean;
}

/** The feeds a command names: `--feed ID` (enabled or not) or `--all` (the enabled ones). */
export function selectFeeds(config: Config, options: { feed?: string; all?: boolean }): FeedConfig[] {
  // Usage errors end with the hint every other usage error has (commander's own, main.ts).
  if (options.feed && options.all)
    throw new CliExit('give --feed ID or --all, not both; see feed-sync sync --help', EXIT.usage);
  if (options.feed) return [findFeed(config, options.feed)];
  if (options.all) return config.feeds.filter((f) => f.enabled);
  throw new CliExit('give --feed ID or --all; see feed-sync sync --help', EXIT.usage);
}

/** What `sync --all` says when the config has no feed on (every one `enabled: false`, or none). */
export function noEnabledFeed(config: Config, file: string): string {
  const ids = config.feeds.map((f) => f.id);
  if (ids.length === 0) return `no feed in ${file} (its feeds: list is empty); nothing synced`;
  const off = ids.length === 1 ? `${ids[0]} is off` : `all ${ids.length} feeds are off (${ids.join(', ')})`;
  return `no enabled feed in ${file}: ${off} (enabled: false); nothing synced`;
}

export { exitCodeOf } from '../exit-codes.ts';

export function registerSync(program: Command): void {
  const command = withExamples(program.command('sync'), [
    'feed-sync sync --feed acme',
    'feed-sync sync --all --json',
    'feed-sync sync --feed acme --allow-mass-delete',
  ])
    .description('make the chatbot listings equal to the feed: ingest, snapshot, plan, apply (no Redis)')
    .option('--feed <id>', 'the feed to sync')
    .option('--all', 'every enabled feed, one after the other')
    .option('--allow-mass-delete', 'delete even above the feed’s maxDeleteShare')
    .option('--dry-run', 'plan and report, write nothing')
    .option('--force-full', 'ignore validators and watermarks: fetch and compare everything')
    .option(
      '--no-memo',
      'map every record and decode every page: neither read nor write the record and page memos',
    );
  withNowOption(withJsonOption(withConfigOption(command))).action(async (options: SyncCommandOptions) => {
    const config = await loadCliConfig(options);
    const feeds = selectFeeds(config, options);
    // Nothing to do is said, not left to an empty report (a cron job's log would show nothing).
    if (options.all && feeds.length === 0)
      process.stderr.write(`feed-sync: ${noEnabledFeed(config, options.config ?? DEFAULT_CONFIG_FILE)}\n`);
    // Named, a feed runs enabled or not (a manual run of a paused feed); said, so it is no surprise.
    for (const feed of feeds)
      if (!feed.enabled)
        process.stderr.write(
          `feed-sync: ${feed.id} is disabled (enabled: false): running it because --feed names it; the worker does not run it\n`,
        );
    // Before any write to the platform: a run whose state cannot be saved must not start.
    if (!options.dryRun) assertStateWritable(config.stateFile);
    const logger = cliLogger();
    const deps = {
      client: clientFromConfig(config),
      state: createFileStateStore(config.stateFile, { historyRuns: config.worker.historyRuns }),
      logger,
      now: clockOf(options),
      ...(options.memo === false ? {} : { memo: cliMemo(config.stateFile, logger) }),
    };
    // Ctrl-C stops issuing calls and lets the ones in flight finish (the run ends `cancelled` with
    // what it applied, exit 130); a second Ctrl-C exits at once.
    const controller = new AbortController();
    const onSignal = () => {
      if (controller.signal.aborted) process.exit(EXIT.interrupted);
      process.stderr.write(
        signalLine('stopping: no new calls; the ones in flight finish (Ctrl-C again to quit now)'),
      );
      controller.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const reports: RunReport[] = [];
    try {
      // A feed appears again while its long RESO replication goes on in parts (`reso.recordsPerRun`).
      const queue = [...feeds];
      /** The lock of the feed whose parts run one after another (a RESO replication): kept between them. */
      let kept: { feedId: string; lock: HeldLock } | undefined;
      for (let i = 0; i < queue.length; i++) {
        const feed = queue[i]!;
        if (controller.signal.aborted) break;
        // One run of a feed at a time (run-lock.ts); a dry run writes nothing and takes no lock.
        const lock =
          kept?.feedId === feed.id
            ? { lock: kept.lock }
            : options.dryRun
              ? undefined
              : takeRunLock(config.stateFile, feed.id, (message) => logger.warn(message));
        kept = undefined;
        if (lock && 'heldBy' in lock) {
          const at = new Date();
          const meta = { feedId: feed.id, chatbot: feed.chatbot, startedAt: at, finishedAt: at };
          const skipped = emptyReport(
            { ...meta, apiCalls: zeroCalls(), dryRun: false, trigger: 'manual' },
            'skipped',
          );
          skipped.reason = heldReason(feed.id, lock.heldBy, lockPathOf(config.stateFile, feed.id));
          reports.push(skipped);
          if (!options.json) process.stdout.write(`${renderReport(skipped)}\n`);
          continue;
        }
        const progress = progressLine(feed.id);
        let report: RunReport;
        let goesOn = false;
        try {
          ({ report } = await runAndSave(
            config,
            feed,
            { ...deps, signal: controller.signal, onProgress: progress.onProgress },
            {
              allowMassDelete: options.allowMassDelete ?? false,
              dryRun: options.dryRun ?? false,
              forceFull: options.forceFull ?? false,
              trigger: 'manual',
              // A run at a clock of the user's keeps its grace clock, not the time of its compare.
              ...(options.now ? { recordCompare: false } : {}),
            },
          ));
          // A part that read nothing new would go on forever: the next scheduled run takes it up.
          goesOn = goesOnNow(report);
        } finally {
          // Kept for the feed's next part, so no other run takes the feed between two parts.
          if (goesOn && lock) kept = { feedId: feed.id, lock: lock.lock };
          else lock?.lock.release();
        }
        progress.clear();
        reports.push(report);
        if (!options.json)
          process.stdout.write(`${withConfigInCommands(renderReport(report), options.config)}\n`);
        if (goesOn) queue.splice(i + 1, 0, feed);
      }
      kept?.lock.release();
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      // A RESO feed's requests were counted ahead in the state file: what was not sent is given back,
      // whatever ended the runs.
      await deps.state.budgets?.flush?.();
    }
    if (options.json)
      process.stdout.write(
        `${JSON.stringify(options.feed && reports.length === 1 ? reports[0] : reports, null, 2)}\n`,
      );
    const code = exitCodeOf(reports);
    const reasons = options.dryRun ? DRY_RUN_REASONS : EXIT_REASONS;
    if (code !== EXIT.ok)
      throw new CliExit(
        code !== EXIT.guarded
          ? (reasons[code] ?? 'the sync did not complete')
          : options.dryRun
            ? `dry run: nothing written; ${guardedReason(reports)}`
            : guardedReason(reports),
        code,
      );
  });
}

/**
 * The exit line of a run a guard stopped: the guards that tripped, and what they held (a tester read
 * "deletes (or replaces) were held back" where every record was rejected and nothing was to delete).
 */
export function guardedReason(reports: readonly RunReport[]): string {
  const guarded = reports.filter((r) => (r.guards ?? []).some((g) => g.tripped));
  const said = (r: RunReport) => {
    const tripped = [...new Set((r.guards ?? []).filter((g) => g.tripped).map((g) => g.guard))];
    const parts = [
      // Deletes, or marks Sold (`gone.action: markSold`): the guards count both.
      ...(r.heldDeletes > 0 ? [`${r.heldDeletes} listing(s) kept that it would delete or mark Sold`] : []),
      ...(tripped.includes('mass-replace') ? ['its replaces held back'] : []),
    ];
    return `${tripped.join(', ')}: ${parts.length > 0 ? parts.join(' and ') : 'no delete held back'}`;
  };
  // Several feeds (`--all`): each named, even where one tripped (a tester).
  const what =
    reports.length === 1 && guarded[0]
      ? `a guard tripped (${said(guarded[0])})`
      : `${guarded.length === 1 ? 'a guard' : 'guards'} tripped (${guarded.map((r) => `${r.feedId}: ${said(r)}`).join('; ')})`;
  return `${what}; the report says why and what to do`;
}

/** A dry run writes nothing: each exit says what a sync would do, never what was written. */
const DRY_RUN_REASONS: Record<number, string> = {
  [EXIT.failed]: 'dry run: nothing written; the run failed (see the report)',
  [EXIT.partial]:
    'dry run: nothing written; some feed records are rejected or held, or skipped for a feed id the config does not have (see the report)',
  [EXIT.paused]: "dry run: nothing written; the provider's request budget is spent (see resumes at)",
  [EXIT.interrupted]: 'dry run: interrupted; nothing was written',
};

/** The one line on stderr that goes with a non-zero exit code; the report above says the rest. */
const EXIT_REASONS: Record<number, string> = {
  [EXIT.failed]: 'the sync failed (see the report)',
  [EXIT.partial]:
    'synced, but some feed records were rejected or held, or skipped for a feed id the config does not have (see the report)',
  [EXIT.paused]:
    "paused: the provider's request budget is spent; the next run goes on from where this one stopped (see resumes at)",
  [EXIT.interrupted]: 'interrupted: what was applied is above; the next run repairs the rest',
};
