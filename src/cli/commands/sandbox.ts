import { existsSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { loadConfig } from '../../config/index.ts';
import type { SandboxOptions } from '../../sandbox/index.ts';
import { withConfigOption, withExamples } from '../context.ts';
import { addResoOptions, type ResoCliOptions, runResoSandbox } from './sandbox-reso.ts';

/** Default port of `feed-sync sandbox`, so a config can point at it; `--port 0` picks a free one. */
export const DEFAULT_SANDBOX_PORT = 4010;

interface SandboxCliOptions extends ResoCliOptions {
  config?: string;
  port: number;
  host: string;
  latency?: number;
  maxPageSize?: number;
  rateLimit?: number;
  rateLimitRetryAfter?: boolean;
  rateLimitRetryAfterSeconds?: number;
  secretKey?: string;
  sessionKey?: string;
  seed?: number;
  fault500?: number;
  fault429?: number;
  retryAfter?: number;
  faultHang?: number;
  hangMs?: number;
  faultMalformed?: number;
  faultAmbiguous?: number;
  faultRefuse?: number;
  faultOperations?: string[];
  imagesFormat?: 'comma' | 'json';
  streamFraming?: 'sse' | 'ndjson';
  updateRequiresAll?: boolean;
}

function integer(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError('expected an integer');
  return Number(value);
}

function rate(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new InvalidArgumentError('expected a rate from 0 to 1');
  return n;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

export function registerSandbox(program: Command): void {
  const command = withExamples(program.command('sandbox'), ['feed-sync sandbox --port 4010 --latency 50']);
  addResoOptions(command);
  withConfigOption(command)
    .addHelpText(
      'before',
      "Keys the sandbox accepts: the flags, else the environment, else the config file's api keys when it exists.\n",
    )
    .description('run a local, in-memory stand-in for the chatbot platform (tests, benchmarks, the demo)')
    .addOption(
      new Option('-p, --port <n>', 'port; 0 picks a free one')
        .argParser(integer)
        .default(DEFAULT_SANDBOX_PORT),
    )
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--latency <ms>', 'delay before each answer', integer)
    .option('--max-page-size <n>', 'silent server cap on PageSize (default 1000)', integer)
    .option(
      '--rate-limit <n>',
      'requests per second admitted; beyond it HTTP 429 (default: no limit)',
      integer,
    )
    .option('--no-rate-limit-retry-after', 'answer the rate limit’s 429s without Retry-After')
    .option(
      '--rate-limit-retry-after-seconds <n>',
      'the Retry-After of those 429s (default: the seconds until a slot frees)',
      integer,
    )
    .addOption(new Option('--secret-key <key>', 'accepted Authorization value').env('CHATBOT_SECRET_KEY'))
    .addOption(
      new Option('--session-key <key>', 'accepted chatrobot-sessionkey value').env('CHATBOT_SESSION_KEY'),
    )
    .option('--seed <n>', 'seed of the fault PRNG (default 1)', integer)
    .option('--fault-500 <rate>', 'share of listing requests answered HTTP 500', rate)
    .option('--fault-429 <rate>', 'share answered HTTP 429 with Retry-After', rate)
    .option('--retry-after <seconds>', 'Retry-After of the 429s (default 1)', integer)
    .option('--fault-hang <rate>', 'share never answered (dropped after --hang-ms)', rate)
    .option('--hang-ms <ms>', 'how long a hung request stays open (default 60000)', integer)
    .option('--fault-malformed <rate>', 'share answered with truncated JSON', rate)
    .option('--fault-ambiguous <rate>', 'share of creates stored but answered HTTP 502', rate)
    .option('--fault-refuse <rate>', 'share of writes not done and answered Code 400', rate)
    .option(
      '--fault-operations <ops>',
      'operations faults apply to (default create,update,list,delete)',
      list,
    )
    .addOption(
      new Option('--images-format <format>', 'Images in list records (default comma)').choices([
        'comma',
        'json',
      ]),
    )
    .option(
      '--update-requires-all',
      "refuse (400) an update without every field required on create, as 4.4's table reads",
    )
    .addOption(
      new Option('--stream-framing <framing>', 'streamed answers (default sse)').choices(['sse', 'ndjson']),
    )
    .addHelpText(
      'after',
      '\nWith no key given (flag or environment), every request is accepted.\n' +
        'Inspection: GET /__sandbox/stats, POST /__sandbox/stats/reset, POST /__sandbox/configure,\n' +
        'GET /__sandbox/listings?serialNumber=…, GET /__sandbox/settings?serialNumber=…, POST /__sandbox/seed.\n',
    )
    .action(async (options: SandboxCliOptions) => {
      if (options.reso) return runResoSandbox({ ...options, reso: options.reso }, untilSignal);
      if (!options.secretKey && !options.sessionKey && options.config && existsSync(options.config)) {
        // Accept the keys the config sends, so `sync` against the sandbox works with the same file.
        // A key whose environment variable is unset is none (said on stderr), not a refusal to
        // start: that config sends no key either. Any other problem of the file is still an error.
        const notes: string[] = [];
        const { api } = await loadConfig(options.config, undefined, { keyNotes: notes });
        for (const note of notes) process.stderr.write(`sandbox: ${note}\n`);
        options.secretKey = api.secretKey;
        options.sessionKey = api.sessionKey;
      }
      // The sandbox's modules load only for this command, not with every command's start.
      const { startSandbox } = await import('../../sandbox/index.ts');
      const sandbox = await startSandbox(toSandboxOptions(options));
      process.stdout.write(`sandbox listening on ${sandbox.url}\n`);
      const auth =
        options.secretKey || options.sessionKey ? 'on' : 'off (no key configured: every request accepted)';
      process.stderr.write(`sandbox: auth ${auth}; stop with Ctrl-C\n`);
      await untilSignal();
      await sandbox.close();
    });
}

/** Map the flags onto `SandboxOptions`, leaving out what was not given so the sandbox defaults apply. */
export function toSandboxOptions(options: SandboxCliOptions): SandboxOptions {
  const faults = {
    error500Rate: options.fault500,
    rate429Rate: options.fault429,
    retryAfterSeconds: options.retryAfter,
    hangRate: options.faultHang,
    hangMs: options.hangMs,
    malformedJsonRate: options.faultMalformed,
    ambiguousCreateRate: options.faultAmbiguous,
    refuseRate: options.faultRefuse,
  };
  const all: SandboxOptions = {
    port: options.port,
    host: options.host,
    latencyMs: options.latency,
    maxPageSize: options.maxPageSize,
    rateLimitPerSecond: options.rateLimit,
    rateLimitRetryAfter: options.rateLimitRetryAfter,
    rateLimitRetryAfterSeconds: options.rateLimitRetryAfterSeconds,
    secretKey: options.secretKey,
    sessionKey: options.sessionKey,
    seed: options.seed,
    imagesFormat: options.imagesFormat,
    streamFraming: options.streamFraming,
    updateRequiresAll: options.updateRequiresAll,
    // Names are checked by startSandbox, which says which one is wrong.
    faultOperations: options.faultOperations as SandboxOptions['faultOperations'],
    faults: withoutUndefined(faults),
  };
  return withoutUndefined(all);
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
