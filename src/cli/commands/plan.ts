import { type Command, InvalidArgumentError } from 'commander';
import { clientFromConfig } from '../../api/index.ts';
import { type DesiredLoader, type Plan, planRun } from '../../reconcile/index.ts';
import { hintLines, PLAN_LIMIT, renderPlan, renderReport } from '../../render/index.ts';
import { createFileStateStore } from '../../state/index.ts';
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
import { EXIT } from '../exit-codes.ts';
import { indented, jsonValuePieces, type StreamedArray, writePieces } from '../json-stream.ts';
import { selectFeeds } from './sync.ts';

interface PlanCommandOptions extends GlobalOptions {
  feed?: string;
  allowMassDelete?: boolean;
  limit?: number;
  all?: boolean;
  now?: Date;
  /** `--no-memo`: false. */
  memo?: boolean;
}

function positive(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('expected a whole number ≥ 1');
  return Number(value);
}

export function registerPlan(program: Command): void {
  const command = withExamples(program.command('plan'), [
    'feed-sync plan --feed acme',
    'feed-sync plan --feed acme --limit 200',
    'feed-sync plan --feed acme --json > plan.json',
  ])
    .description('show what a sync would change, listing by listing, and write nothing')
    .requiredOption('--feed <id>', 'the feed to plan')
    .option('--allow-mass-delete', 'plan as if the delete-share override were given')
    .option('--limit <n>', `listings shown per kind of change (default ${PLAN_LIMIT})`, positive)
    .option('--all', 'show every listing')
    .option(
      '--no-memo',
      'map every record and decode every page: read neither the record memo nor the page memo',
    );
  withNowOption(withJsonOption(withConfigOption(command))).action(async (options: PlanCommandOptions) => {
    const config = await loadCliConfig(options);
    const [feed] = selectFeeds(config, { feed: options.feed ?? '' });
    if (!feed) throw new CliExit('give --feed ID', EXIT.usage);
    if (options.all && options.limit) throw new CliExit('give --limit N or --all, not both', EXIT.usage);
    const logger = cliLogger();
    const deps = {
      client: clientFromConfig(config),
      state: createFileStateStore(config.stateFile, { historyRuns: config.worker.historyRuns }),
      logger,
      now: clockOf(options),
      ...(options.memo === false ? {} : { memo: cliMemo(config.stateFile, logger, 'read') }),
    };
    // Ctrl-C: a plan writes nothing, so it stops at once, and says so (its records are files
    // already unlinked: nothing is left on disk).
    const onSignal = () => {
      process.stderr.write(
        signalLine('feed-sync: interrupted: a plan writes nothing, so nothing was changed'),
      );
      process.exit(EXIT.interrupted);
    };
    process.once('SIGINT', onSignal);
    try {
      // A plan compares the whole feed with the remote, whatever the validators say (a 304 would
      // leave nothing to show). A RESO feed is read as its next sync reads it: an incremental one
      // from its watermark, so the plan shows the deletes that sync makes (a full read took every
      // listing missing from it as gone) and spends its provider's budget as sync does.
      const run = await planRun(config, feed, deps, {
        dryRun: true,
        forceFull: feed.source.format !== 'reso',
        allowMassDelete: options.allowMassDelete ?? false,
        // The listings a plan shows in detail carry a brief; `--all` shows (and so describes) every one.
        ...(options.all ? { briefs: Number.POSITIVE_INFINITY } : {}),
      });
      const { prepared } = run;
      const plan = prepared.kind === 'planned' ? prepared.plan : undefined;
      // The records are readable until the run finishes: `--json` prints each write's whole record
      // now, one at a time (a plan of 300k creates is as large as the feed), and the report after.
      let text: string | undefined;
      try {
        if (plan && options.json && prepared.kind === 'planned') {
          const { shown, arrays } = shownPlan(plan, prepared.loader);
          await writePieces(
            process.stdout,
            (function* () {
              yield '{\n  "plan": ';
              yield* jsonValuePieces(shown, arrays, '  ');
            })(),
          );
        }
        // Rendered while the records are open too: an update's changes are read from them when shown.
        const limit = options.all ? Number.POSITIVE_INFINITY : (options.limit ?? PLAN_LIMIT);
        text = plan && !options.json ? renderPlan(plan, { limit }) : undefined;
      } catch (error) {
        // Printing failed (the reader went away): the run still finishes, and frees its records.
        await run.finish().catch(() => undefined);
        throw error;
      }
      const { report } = await run.finish();
      if (options.json) {
        // The document `JSON.stringify({ plan, report }, null, 2)` would print, its plan printed above.
        const shownReport = indented(JSON.stringify(report, null, 2), '  ');
        process.stdout.write(`${plan ? ',' : '{'}\n  "report": ${shownReport}\n}\n`);
      } else if (text !== undefined) {
        // The plan, then what the run says to fix in the config (a renamed feed, a CSV with no URL column).
        const hints = hintLines(report);
        const shown = `${text}\n${hints.length > 0 ? `${hints.join('\n')}\n` : ''}`;
        process.stdout.write(withConfigInCommands(shown, options.config));
      } else process.stdout.write(`${withConfigInCommands(renderReport(report), options.config)}\n`);
      if (!plan) throw new CliExit(report.reason ?? 'no plan could be made');
    } finally {
      process.off('SIGINT', onSignal);
      // A RESO feed's requests were counted ahead in the state file: what was not sent is given back.
      await deps.state.budgets?.flush?.();
    }
  });
}

/**
 * The plan as `--json` prints it: each create and update with the whole record it would send
 * (`listing`, tags included), not where the run kept it (`desired`, internal). The creates and
 * updates are generators: each record is read back from the run's records as it is printed. The
 * other lists that grow with the feed or the platform (deletes, held, foreign, skipped, unchanged…) are
 * printed an item at a time too, each made as it is printed: a feed of 300k records all rejected
 * made 300k held listings at once, and ran `plan --json` out of the image's heap.
 */
function shownPlan(plan: Plan, loader: DesiredLoader): { shown: unknown; arrays: StreamedArray[] } {
  const creates = (function* () {
    for (const { desired, ...create } of plan.creates) yield { ...create, listing: loader.load(desired) };
  })();
  const updates = (function* () {
    for (const { desired, ...update } of plan.updates) yield { ...update, listing: loader.load(desired) };
  })();
  const streamed = (list: Iterable<unknown>) =>
    (function* () {
      yield* list;
    })();
  const lists = {
    deletes: streamed(plan.deletes),
    heldDeletes: streamed(plan.heldDeletes),
    held: streamed(plan.held),
    grace: streamed(plan.grace),
    foreign: streamed(plan.foreign),
    skipped: streamed(plan.skipped),
    unchanged: streamed(plan.unchanged),
  };
  return {
    shown: { ...plan, creates, updates, ...lists },
    arrays: [creates, updates, ...Object.values(lists)],
  };
}
