import { Command, CommanderError } from 'commander';
import { ConfigError, readProxyEnv, UnknownFeedError } from '../config/index.ts';
import { useProxy } from '../http/index.ts';
import { COMMANDS } from './commands/index.ts';
import { describeError, withExamples } from './context.ts';
import { commandStarted } from './early-signals.ts';
import { EXIT, exitCodeOfError } from './exit-codes.ts';
import { packageVersion } from './version.ts';

/** Commands that send no request: a proxy setting is not theirs to judge. */
const OFFLINE = new Set(['sandbox', 'healthcheck']);

/** The commands: what `feed-sync` is, loaded by the entry (`main.ts`) once the command is known. */
export function buildProgram(): Command {
  const program = new Command('feed-sync')
    .description("Keep a chatbot platform's real estate listings equal to their MLS, CSV and XML feeds.")
    .version(packageVersion(), '-V, --version', 'print the version')
    .option('--debug', 'print the stack trace of an unexpected error')
    .helpCommand(false)
    .exitOverride()
    // Usage errors are printed by main() as one line with a hint, not by commander with the help.
    .configureOutput({ outputError: () => {} })
    // Ctrl-C while starting was answered by the entry (early-signals.ts); from here, by the command.
    .hook('preAction', (_program, command) => {
      commandStarted();
      // Every request of the command through the environment's proxy, when it names one; the
      // sandbox and the health check make none.
      if (!OFFLINE.has(command.name())) useProxy(readProxyEnv());
    });
  withExamples(program, [
    'feed-sync validate -c feed-sync.yaml --feed acme',
    'feed-sync plan --feed acme',
    'feed-sync sync --all',
  ]);
  for (const register of COMMANDS) register(program);
  mandatoryAfterUnknown(program);
  return program;
}

/**
 * A command's required options, checked after its unknown ones: commander checks them first, so
 * `plan --fed acme` said `--feed` was missing where `sync --fed` says `--fed` is unknown, did you
 * mean `--feed`. The same message and code as commander's own, once the options are known good.
 */
function mandatoryAfterUnknown(command: Command): void {
  for (const sub of command.commands) {
    const mandatory = sub.options.filter((option) => option.mandatory);
    if (mandatory.length > 0) {
      for (const option of mandatory) option.makeOptionMandatory(false);
      sub.hook('preAction', (self) => {
        for (const option of mandatory)
          if (self.getOptionValue(option.attributeName()) === undefined)
            self.error(`error: required option '${option.flags}' not specified`, {
              code: 'commander.missingMandatoryOptionValue',
            });
      });
    }
    mandatoryAfterUnknown(sub);
  }
}

/** `feed-sync <cmd> --help` for the command named in argv, `feed-sync --help` when none is. */
function helpHint(program: Command, args: readonly string[], error: CommanderError): string {
  if (error.code === 'commander.unknownCommand') return 'feed-sync --help';
  const names = new Set(program.commands.flatMap((c) => [c.name(), ...c.aliases()]));
  const command = args.find((arg) => names.has(arg));
  return command ? `feed-sync ${command} --help` : 'feed-sync --help';
}

const oneLine = (text: string) =>
  text
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();

/** Runs the CLI and returns the exit code (README "Exit codes"). Never throws. */
export async function main(argv: string[] = process.argv): Promise<number> {
  quietWhenOutputCloses();
  const program = buildProgram();
  const args = argv.slice(2);
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0; `feed-sync` alone printed the help.
      if (error.exitCode === 0) return EXIT.ok;
      if (error.code === 'commander.help') return EXIT.usage;
      process.stderr.write(`feed-sync: ${oneLine(error.message)}; see ${helpHint(program, args, error)}\n`);
      return EXIT.usage;
    }
    const exitCode = exitCodeOfError(error);
    // `--json` promises one JSON document on stdout: an invalid config is one too (exit 2), for
    // every command. `issues` as printed (`file:line:column: path: message`); `problems` as fields.
    // An unknown feed id is the config's problem too: the same document, naming it.
    const config =
      error instanceof ConfigError
        ? { ok: false, file: error.source, issues: error.issues, problems: error.problems }
        : error instanceof UnknownFeedError
          ? { ok: false, issues: [error.message], problems: [{ path: '--feed', message: error.message }] }
          : undefined;
    if (config && args.includes('--json')) process.stdout.write(`${JSON.stringify({ config }, null, 2)}\n`);
    const debug = args.includes('--debug');
    // One line; a config with several problems gets a line per problem (describeError says so).
    const message = error instanceof ConfigError ? describeError(error) : oneLine(describeError(error));
    process.stderr.write(`feed-sync: ${message}\n`);
    if (debug && error instanceof Error) process.stderr.write(`${stackOf(error)}\n`);
    return exitCode;
  }
}

/** Marks stdout and stderr once their EPIPE is heard (`quietWhenOutputCloses`). */
const QUIET = Symbol('feed-sync: output quiet when closed');

/**
 * The reader of stdout or stderr went away (`… --json | head`, `sync 2>&1 | head -3`): what it
 * wanted is printed. Later writes go nowhere, and the command goes on to end with its own exit code,
 * quietly, where an unheard 'error' event ended the process with a stack trace (on stderr, a sync's
 * progress line: a tester's `2>&1 | head` left 1 of 40 listings written and no run recorded).
 */
function quietWhenOutputCloses(): void {
  // Once per process (main() runs many times in tests). Not judged by the streams' other 'error'
  // listeners: a worker thread's stdio pipe adds one (the decode thread, started before this runs),
  // and a pipe's listener rethrows an error no other listener hears.
  for (const stream of [process.stdout, process.stderr] as (NodeJS.WriteStream & { [QUIET]?: true })[]) {
    if (stream[QUIET]) continue;
    stream[QUIET] = true;
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}

/** The stack and the causes' stacks, for `--debug`. */
function stackOf(error: Error): string {
  const parts = [error.stack ?? String(error)];
  let cause = error.cause;
  while (cause instanceof Error) {
    parts.push(`caused by: ${cause.stack ?? String(cause)}`);
    cause = cause.cause;
  }
  return parts.join('\n');
}
