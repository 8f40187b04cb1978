import { type Command, InvalidArgumentError, Option } from 'commander';
import type { ProviderName, ResoProviderOptions } from '../../sandbox/index.ts';
import { RESO_PROVIDERS } from '../../sources/index.ts';

/**
 * The providers the sandbox plays: every named RESO provider of the feeds' `reso.provider` (the
 * sandbox's own list is the same, a test says so; not imported here, so the sandbox's modules load
 * only when it runs).
 */
export const SANDBOX_PROVIDERS = RESO_PROVIDERS.filter(
  (provider): provider is ProviderName => provider !== 'generic',
);

/** The flags of `feed-sync sandbox --reso PROVIDER` (the platform sandbox's own flags are in sandbox.ts). */
export interface ResoCliOptions {
  reso?: ProviderName;
  listings?: number;
  token?: string;
  clientId?: string;
  clientSecret?: string;
  originatingSystem?: string;
  dataset?: string;
  limit?: Record<string, number | null>;
  sendRetryAfter?: boolean;
  replicationIdleMs?: number;
  markerRetentionMs?: number;
}

function count(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a non-negative integer');
  return Number(value);
}

/** `--limit hour=100` (repeatable); `--limit second=none` removes a limit. */
function limitEntry(
  value: string,
  previous: Record<string, number | null> = {},
): Record<string, number | null> {
  const match = /^([A-Za-z]+)=(\d+|none)$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError('expected NAME=N or NAME=none, e.g. hour=100');
  return { ...previous, [match[1]!]: match[2] === 'none' ? null : Number(match[2]) };
}

export function addResoOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--reso <provider>', 'play a RESO Web API provider instead of the platform').choices(
        SANDBOX_PROVIDERS,
      ),
    )
    .option('--listings <n>', 'with --reso: generated listings (default 1000)', count)
    .addOption(
      new Option('--token <token>', 'with --reso: the accepted bearer token').env('RESO_SANDBOX_TOKEN'),
    )
    .option('--client-id <id>', 'with --reso trestle: the OAuth2 client id')
    .addOption(
      new Option('--client-secret <secret>', 'with --reso trestle: the OAuth2 client secret').env(
        'RESO_SANDBOX_CLIENT_SECRET',
      ),
    )
    .option('--originating-system <name>', 'with --reso mlsgrid: the OriginatingSystemName (default actris)')
    .option('--dataset <code>', 'with --reso bridge: the dataset in the path (default actris_ref)')
    .option('--limit <name=n>', 'with --reso: replace a limit (repeatable; NAME=none removes it)', limitEntry)
    .option('--send-retry-after', 'with --reso: add Retry-After to 429s (no provider documents it)')
    .option(
      '--replication-idle-ms <ms>',
      'with --reso trestle: replication link expiry (default 300000)',
      count,
    )
    .option(
      '--marker-retention-ms <ms>',
      'with --reso: how long deletion markers stay (MLS Grid: 7 days)',
      count,
    )
    .addHelpText(
      'after',
      '\nWith --reso PROVIDER (mlsgrid, trestle, bridge, spark) it plays that provider from its published\n' +
        'documentation over a generated feed; --port and --seed apply. Controls: GET /__reso/state,\n' +
        '/__reso/requests, /__reso/emails; POST /__reso/reset, /__reso/clock/advance, /__reso/configure,\n' +
        '/__reso/listings/{modify,bump,delete,close,add}. See docs/reso-providers.md.\n',
    );
}

/** Start the provider server, print its API URL, and serve until Ctrl-C. */
export async function runResoSandbox(
  options: ResoCliOptions & { reso: ProviderName; port: number; host: string; seed?: number },
  untilSignal: () => Promise<void>,
): Promise<void> {
  const all: ResoProviderOptions = {
    provider: options.reso,
    port: options.port,
    host: options.host,
    listings: options.listings,
    seed: options.seed,
    token: options.token,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    originatingSystem: options.originatingSystem,
    dataset: options.dataset,
    limits: options.limit,
    retryAfter: options.sendRetryAfter,
    replicationIdleMs: options.replicationIdleMs,
    markerRetentionMs: options.markerRetentionMs,
  };
  const { startResoProvider } = await import('../../sandbox/index.ts');
  const provider = await startResoProvider(
    // An empty environment variable counts as not given.
    Object.fromEntries(
      Object.entries(all).filter(([, v]) => v !== undefined && v !== ''),
    ) as ResoProviderOptions,
  );
  process.stdout.write(`sandbox (${provider.provider}) listening on ${provider.apiUrl}\n`);
  const credentials =
    provider.provider === 'trestle'
      ? `token URL ${provider.tokenUrl}; client ${options.clientId ?? 'sandbox-client'}, secret ${options.clientSecret ? 'as given' : 'sandbox-secret'}`
      : `bearer token ${options.token ? 'as given' : 'sandbox-token'}`;
  process.stderr.write(`sandbox: ${credentials}; controls at ${provider.url}/__reso; stop with Ctrl-C\n`);
  await untilSignal();
  await provider.close();
}
