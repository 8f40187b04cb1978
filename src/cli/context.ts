import { dirname, join } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { isApiError } from '../api/index.ts';
import type { Config } from '../config/index.ts';
import { ConfigError, DEFAULT_CONFIG_FILE, loadConfig, readEnv } from '../config/index.ts';
import { isFeedSyncError } from '../errors.ts';
import { createLogger, type Logger } from '../logger.ts';
import { type MemoStore, memoFiles } from '../reconcile/index.ts';
import { realStatePath } from '../state/index.ts';
import { humanLogDestination } from './human-log.ts';

/** Options every command accepts. */
export interface GlobalOptions {
  config?: string;
  json?: boolean;
}

/** `--config FILE` (default `feed-sync.yaml` or `FEED_SYNC_CONFIG`) on every command. */
export function withConfigOption(command: Command): Command {
  return command.addOption(
    new Option('-c, --config <file>', 'config file (YAML or JSON)')
      .env('FEED_SYNC_CONFIG')
      .default(DEFAULT_CONFIG_FILE),
  );
}

/**
 * The commands a report suggests (`` `feed-sync validate --feed acme` ``) with the config file the
 * run was given, where another would be read without it (a tester ran the hint and got the default
 * file's feeds). Unchanged for the default file and for `FEED_SYNC_CONFIG`, which the command reads too.
 */
export function withConfigInCommands(
  text: string,
  config: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string {
  // What the suggested command reads without `-c`: FEED_SYNC_CONFIG, else the default file.
  if (config === undefined || config === (env.FEED_SYNC_CONFIG || DEFAULT_CONFIG_FILE)) return text;
  const file = /^[\w./@:+-]+$/.test(config) ? config : `'${config.replaceAll("'", "'\\''")}'`;
  // A function, not a replacement string: a `$` in the file's name is the name's.
  return text.replace(
    /`feed-sync (validate|plan|explain|sync)(?=[ `])/g,
    (_match, command: string) => `\`feed-sync ${command} -c ${file}`,
  );
}

/** `--json` on the reporting commands. */
export function withJsonOption(command: Command): Command {
  return command.option('--json', 'machine-readable output on stdout');
}

/**
 * `--now TIME`: the run's clock (ISO 8601, `2026-12-01` or `2026-12-01T09:00:00Z`). Listings gone
 * from a feed are kept for `gone.afterDays`: `plan --now` shows what a later run will delete, and
 * tests run the grace without waiting for it.
 */
export function withNowOption(command: Command): Command {
  return command.option(
    '--now <time>',
    'run as if the clock read this ISO time (previews a gone.afterDays grace)',
    (value) => {
      const at = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : new Date(Number.NaN);
      if (Number.isNaN(at.getTime()))
        throw new InvalidArgumentError('expected an ISO time, e.g. 2026-12-01 or 2026-12-01T09:00:00Z');
      return at;
    },
  );
}

/** The run's clock: `--now` when given (it stands still: the run happens at that instant), else the system's. */
export function clockOf(options: { now?: Date }): () => Date {
  const at = options.now;
  return at === undefined ? () => new Date() : () => new Date(at.getTime());
}

export async function loadCliConfig(options: GlobalOptions): Promise<Config> {
  return loadConfig(options.config ?? DEFAULT_CONFIG_FILE);
}

/**
 * The one logger, for commands. Services (`worker`, `ui`) log at `info` by default; one-shot
 * commands print their own report, so they log only warnings unless LOG_LEVEL says otherwise.
 */
export function cliLogger(kind: 'service' | 'command' = 'command'): Logger {
  const level = readEnv().LOG_LEVEL ?? (kind === 'service' ? 'info' : 'warn');
  // Human lines for a person at a terminal; JSON lines for files, pipes and log collectors.
  const destination = process.stderr.isTTY ? { destination: humanLogDestination() } : {};
  return createLogger({ level, ...(destination as { destination?: NodeJS.WritableStream }) });
}

/** `--help` ends with examples, so a reader can copy one and change it. */
export function withExamples(command: Command, examples: readonly string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}

/** Print a value: JSON when asked, else the text rendering. */
export function print(options: GlobalOptions, value: unknown, text: () => string): void {
  process.stdout.write(options.json ? `${JSON.stringify(value, null, 2)}\n` : `${text()}\n`);
}

export { CliExit } from './exit-codes.ts';

/**
 * One line a person can act on. Our errors (config, platform, feed, Redis) say what and where;
 * anything else is a bug, and `--debug` shows its stack.
 */
export function describeError(error: unknown): string {
  if (error instanceof ConfigError) return describeConfigError(error);
  if (isApiError(error)) return `${error.code}: ${error.message}`;
  if (isFeedSyncError(error)) return error.message;
  if (error instanceof Error) {
    const known = typeof (error as { code?: unknown }).code === 'string';
    return known ? error.message : `${error.message} (an unexpected error; --debug shows where)`;
  }
  return String(error);
}

/** One problem: one line. Several: a line each, so a config with three typos shows three lines. */
function describeConfigError(error: ConfigError): string {
  if (error.issues.length <= 1) return `invalid config: ${error.message}`;
  return `invalid config ${error.source} (${error.issues.length} problems):\n  ${error.issues.join('\n  ')}`;
}

/**
 * The record memos of a CLI run's feeds (src/ingest/record-memo.ts): `.feed-sync-memo/` beside the
 * state file. A cache: deleting it costs the next run time, never a result. `plan` reads it and
 * writes nothing.
 */
export function cliMemo(stateFile: string, logger: Logger, access: 'read' | 'write' = 'write'): MemoStore {
  // One line, no stack: a memo not kept costs time, never a result.
  const files = memoFiles(join(dirname(realStatePath(stateFile)), '.feed-sync-memo'), (error) =>
    logger.warn(`record memo: ${error.message}; the next run maps every record`),
  );
  return access === 'write' ? files : { ...files, begin: () => undefined, remove: () => {} };
}
