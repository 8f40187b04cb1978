import { type Command, Option } from 'commander';
import { isApiError } from '../api/errors.ts';
import { DEFAULT_CONFIG_FILE, readEnv } from '../config/env.ts';
import { ConfigError, loadConfig } from '../config/load.ts';
import type { Config } from '../config/schema.ts';
import { FeedSyncError } from '../errors.ts';
import { createLogger, type Logger } from '../logger.ts';

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

/** `--json` on the reporting commands. */
export function withJsonOption(command: Command): Command {
  return command.option('--json', 'machine-readable output on stdout');
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
  return createLogger({ level });
}

/** Print a value: JSON when asked, else the text rendering. */
export function print(options: GlobalOptions, value: unknown, text: () => string): void {
  process.stdout.write(options.json ? `${JSON.stringify(value, null, 2)}\n` : `${text()}\n`);
}

/** A command failed: one line naming the reason on stderr, exit code 1. Never a stack, never a key. */
export class CliExit extends FeedSyncError {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message, { kind: exitCode === 2 ? 'CONFIG_INVALID' : 'INTERNAL', code: 'E_CLI' });
    this.exitCode = exitCode;
  }
}

export function describeError(error: unknown): string {
  if (error instanceof ConfigError) return describeConfigError(error);
  if (isApiError(error)) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** One problem: one line. Several: a line each, so a config with three typos shows three lines. */
function describeConfigError(error: ConfigError): string {
  if (error.issues.length <= 1) return `invalid config: ${error.message}`;
  return `invalid config ${error.source} (${error.issues.length} problems):\n  ${error.issues.join('\n  ')}`;
}
