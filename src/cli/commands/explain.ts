import type { Command } from 'commander';
import { clientFromConfig } from '../../api/index.ts';
import { type Config, readEnv } from '../../config/index.ts';
import {
  type ExplainDeps,
  explainListing,
  isUnknownKey,
  renderExplanation,
  renderHistory,
  unknownKeyLine,
} from '../../explain/index.ts';
import {
  createFileStateStore,
  isFromStateFile,
  namespaceOf,
  readsWithCliHistory,
  type StateReads,
} from '../../state/index.ts';
import {
  CliExit,
  cliLogger,
  clockOf,
  type GlobalOptions,
  loadCliConfig,
  withConfigOption,
  withExamples,
  withJsonOption,
  withNowOption,
} from '../context.ts';
import { EXIT } from '../exit-codes.ts';
import { selectFeeds } from './sync.ts';

interface ExplainOptions extends GlobalOptions {
  feed?: string;
  now?: Date;
}

/**
 * `feed-sync explain --feed ID KEY`: one listing end to end (issue 22): its record in the feed,
 * each field and where it came from, the platform's listings with the key (read live, one or two
 * list calls), what a sync would do, and the runs that touched it. Writes nothing.
 */
export function registerExplain(program: Command): void {
  const command = withExamples(program.command('explain'), [
    'feed-sync explain --feed acme ML81332052',
    'feed-sync explain --feed city-rentals https://cityrentals.example/units/CR-510 --json',
  ])
    .description(
      "why a listing looks the way it does: its feed record, the mapping, the platform's copy, what a sync would do, its history",
    )
    .argument('<key>', "the listing's key (its MLSNumber, or its Url for a feed keyed by Url)")
    .requiredOption('--feed <id>', 'the feed the listing belongs to');
  withNowOption(withJsonOption(withConfigOption(command))).action(
    async (key: string, options: ExplainOptions) => {
      const config = await loadCliConfig(options);
      const [feed] = selectFeeds(config, { feed: options.feed ?? '' });
      if (!feed) throw new CliExit('give --feed ID', EXIT.usage);
      if (key.trim() === '')
        throw new CliExit('give the listing key (not empty); see feed-sync explain --help', EXIT.usage);
      const history = await historyOf(config, feed.id);
      try {
        const deps: ExplainDeps = {
          client: clientFromConfig(config),
          state: history.store,
          historyFrom: history.from,
          now: clockOf(options),
          logger: cliLogger(),
        };
        const explanation = await explainListing(config, feed, key, deps);
        if (isUnknownKey(explanation)) {
          if (options.json)
            process.stdout.write(`${JSON.stringify({ ...explanation, unknown: true }, null, 2)}\n`);
          // A listing a run deleted (or never wrote): what the runs did to it is still said.
          else if (explanation.history.entries.length > 0)
            process.stdout.write(`${renderHistory(explanation)}\n`);
          throw new CliExit(unknownKeyLine(explanation));
        }
        process.stdout.write(
          options.json ? `${JSON.stringify(explanation, null, 2)}\n` : `${renderExplanation(explanation)}\n`,
        );
        const failed = [
          explanation.source.found || !explanation.source.error ? '' : 'the feed',
          explanation.platform.lookedUp || !explanation.platform.error ? '' : 'the platform',
        ].filter(Boolean);
        if (failed.length > 0) throw new CliExit(`${failed.join(' and ')} could not be read (see above)`);
        // Read, but not whole or empty (a spent provider budget, no records): nothing to say of the key.
        // (A platform not looked up, as a feed keyed by Url without an MLSNumber, exits 0 as it did.)
        if (explanation.verdict.state === 'unknown' && explanation.platform.lookedUp)
          throw new CliExit(explanation.verdict.summary);
      } finally {
        await history.close();
      }
    },
  );
}

/**
 * Where the worker keeps its state (grace clocks, run history), read as its dashboard reads it: the
 * shared store the environment names (`REDIS_URL`, `DATABASE_URL`), else the embedded store in
 * `FEED_SYNC_STATE_DIR` (default `.feed-sync`) when a worker has used one (read through the worker
 * when it runs), else the state file `feed-sync sync` keeps. The History line says which.
 */
async function historyOf(
  config: Config,
  feedId: string,
): Promise<{
  store: ExplainDeps['state'];
  from: string;
  close(): Promise<void>;
}> {
  const env = readEnv();
  const { describeStore, openQueueStore, readEmbeddedState, storeChoiceOf } = await import(
    '../../queue/index.ts'
  );
  const choice = storeChoiceOf(env, env.FEED_SYNC_STATE_DIR);
  const history = { historyRuns: config.worker.historyRuns };
  if (choice.kind !== 'embedded') {
    const store = await openQueueStore(choice, config.worker.prefix, history);
    return {
      ...(await besideCli(store.state, `the worker's store (${describeStore(store)})`)),
      close: () => store.close(),
    };
  }
  let instead = '';
  try {
    const reader = await readEmbeddedState(choice.dir, namespaceOf(config.worker.prefix), history);
    // A store no worker ran this feed in (`feed-sync ui` made it, say) has none of its runs: the
    // CLI's, in the state file, are the feed's history (a tester saw them hidden).
    if (reader && (await reader.state.listRuns(feedId)).length === 0) await reader.close();
    else if (reader) return { ...(await besideCli(reader.state, reader.from)), close: () => reader.close() };
  } catch (error) {
    // The worker's store cannot be read from here: the state file, and why, in the History line.
    const reason = error instanceof Error ? error.message : String(error);
    instead = ` (the worker's embedded store could not be read: ${reason})`;
  }
  const store = createFileStateStore(config.stateFile, history);
  return { store, from: `the state file ${config.stateFile}${instead}`, close: async () => {} };

  /**
   * The worker's store with the runs `feed-sync sync` made from the command line beside it, as the
   * dashboard reads them (`withCliHistory`; a tester: explain and the dashboard told one listing's
   * history apart).
   */
  async function besideCli(store: StateReads, from: string) {
    const both = readsWithCliHistory(store, () => config.stateFile);
    const cliRuns = (await both.listRuns(feedId)).filter(isFromStateFile).length;
    return {
      store: both,
      from:
        cliRuns === 0
          ? from
          : // Counted apart (a tester read all of them as the worker's).
            `${from} and the state file ${config.stateFile}: ${cliRuns} of them made by feed-sync sync from the command line`,
    };
  }
}
