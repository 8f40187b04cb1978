/**
 * `npm run bench -- aimd [--listings 608] [--rate 20] [--latency 50,100,200] [--retry-after 1,none,5]
 * [--store local,redis,postgres,embedded]`: a platform limit found by itself. The sandbox admits
 * `rate` requests per second and answers 429 beyond it (with Retry-After until a slot frees, with
 * none, or with a longer fixed one); feed-sync, configured with `concurrency: 8` and no
 * requestsPerSecond, creates `listings` new listings. The bound is requests ÷ rate seconds: the
 * time the platform's limit allows for the calls made. Goal (issue 23 §3): ≤ 1.25× the bound,
 * ≤ 5% of requests answered 429, at every latency and whatever the 429 looks like.
 *
 * `local` runs `feed-sync sync` (the built CLI, as the image runs it) as a whole process (the CLI's limiter, as a user meets it: start-up
 * included). `redis`, `postgres`, `embedded` run the sync in this process on the shared limiter of
 * a worker's queue store, each on a store of its own so every run starts from full concurrency. A
 * store whose service does not answer is skipped.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { clientFromConfig } from '../src/api/index.ts';
import { configSchema } from '../src/config/schema.ts';
import type { Limiter } from '../src/http/limiter.ts';
import { silentLogger } from '../src/logger.ts';
import type { StoreChoice } from '../src/queue/store.ts';
import { syncFeed } from '../src/reconcile/index.ts';
import { startSandbox } from '../src/sandbox/index.ts';
import { createMemoryStateStore } from '../src/state/state-store.ts';
import { LISTING_MAPPING, recordsFeed } from '../src/testing/records-feed.ts';
import { runChild } from './lib/child.ts';
import { BUILT_CLI, buildCli, imageEnv } from './lib/cli.ts';
import { feedEntry, generateFeed } from './lib/feeds.ts';
import { openFreshStore, storeAvailable } from './lib/stores.ts';
import { fmtMs, machine, out, printTable, ratio } from './lib/table.ts';
import { initialFeed } from './sync-scenarios.ts';

const TIME_GOAL = 1.25;
const REFUSED_GOAL = 0.05;

type LimiterKind = 'local' | StoreChoice['kind'];
const KINDS: readonly LimiterKind[] = ['local', 'redis', 'postgres', 'embedded'];
const CONCURRENCY = 8;

/** How the platform's 429 looks: Retry-After until a slot frees, none, or a fixed number of seconds. */
type Answer = 'slot' | 'none' | number;
const answerOf = (text: string): Answer => (text === '1' ? 'slot' : text === 'none' ? 'none' : Number(text));
const describe = (a: Answer) =>
  a === 'slot'
    ? '429 + Retry-After (slot)'
    : a === 'none'
      ? '429, no Retry-After'
      : `429 + Retry-After ${a} s`;

interface Measured {
  ms: number;
  requests: number;
  refused: number;
  peak: number;
}

async function startLimitedSandbox(rate: number, latencyMs: number, answer: Answer) {
  return startSandbox({
    latencyMs,
    rateLimitPerSecond: rate,
    rateLimitRetryAfter: answer !== 'none',
    rateLimitRetryAfterSeconds: typeof answer === 'number' ? answer : 0,
  });
}

/** `feed-sync sync` of a generated CSV of `listings` new listings, as a whole process. */
async function viaCli(listings: number, rate: number, latencyMs: number, answer: Answer): Promise<Measured> {
  const sandbox = await startLimitedSandbox(rate, latencyMs, answer);
  const dir = mkdtempSync(join(tmpdir(), 'feed-sync-bench-aimd-'));
  try {
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        api: { baseUrl: sandbox.url, concurrency: CONCURRENCY, pageSize: 1000, retries: 8 },
        stateFile: join(dir, 'state.json'),
        feeds: [feedEntry('csv', await generateFeed('csv', listings), 'bench', 'AIMD')],
      }),
    );
    const child = await runChild([BUILT_CLI, 'sync', '-c', config, '--feed', 'bench', '--json'], {
      env: imageEnv(),
    });
    const report = JSON.parse(child.stdout || '{}') as { outcome?: string; created?: number };
    if (child.code !== 0 || report.outcome !== 'ok' || report.created !== listings)
      throw new Error(`unexpected run: exit ${child.code} ${child.stdout.slice(0, 300)} ${child.stderr}`);
    const stats = sandbox.stats();
    return {
      ms: child.ms,
      requests: stats.totalRequests,
      refused: stats.rateLimited,
      peak: stats.peakInFlight,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}

/** The sync in this process on a worker's shared limiter. */
async function inProcess(
  listings: number,
  rate: number,
  latencyMs: number,
  answer: Answer,
  limiter: Limiter,
): Promise<Measured> {
  const sandbox = await startLimitedSandbox(rate, latencyMs, answer);
  try {
    const config = configSchema.parse({
      api: { baseUrl: sandbox.url, concurrency: CONCURRENCY, pageSize: 1000, retries: 8 },
      feeds: [
        {
          id: 'bench',
          chatbot: 'AIMD',
          source: { format: 'csv', path: 'unused.csv' },
          mapping: LISTING_MAPPING,
        },
      ],
    });
    const feed = config.feeds[0]!;
    const desired = initialFeed(listings);
    const started = performance.now();
    const { report } = await syncFeed(config, feed, {
      client: clientFromConfig(config, { limiter }),
      state: createMemoryStateStore(),
      logger: silentLogger,
      open: recordsFeed(desired),
    });
    const ms = performance.now() - started;
    if (report.outcome !== 'ok' || report.created !== listings)
      throw new Error(
        `unexpected report: ${report.outcome} ${report.reason ?? ''} created ${report.created}`,
      );
    const stats = sandbox.stats();
    return { ms, requests: stats.totalRequests, refused: stats.rateLimited, peak: stats.peakInFlight };
  } finally {
    await sandbox.close();
  }
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      listings: { type: 'string', default: '608' },
      rate: { type: 'string', default: '20' },
      latency: { type: 'string', default: '50,100,200' },
      'retry-after': { type: 'string', default: '1,none,5' },
      store: { type: 'string', default: 'local' },
    },
  });
  const kinds = values.store.split(',').map((k) => k.trim()) as LimiterKind[];
  const unknown = kinds.filter((k) => !KINDS.includes(k));
  if (unknown.length > 0) throw new Error(`--store: unknown ${unknown.join(', ')} (${KINDS.join(', ')})`);
  const listings = Number(values.listings);
  const rate = Number(values.rate);
  const latencies = values.latency.split(',').map(Number);
  const answers = values['retry-after'].split(',').map((a) => answerOf(a.trim()));
  if (kinds.includes('local')) buildCli();
  out(
    `aimd bench: ${listings} new listings; the sandbox admits ${rate} requests/s (429 beyond), latency ${latencies.join('/')} ms;`,
  );
  out(`feed-sync at concurrency ${CONCURRENCY}, no requestsPerSecond set (${machine()})`);
  out("local = `feed-sync sync` as a whole process; redis/postgres/embedded = a worker's shared limiter");
  out(
    `bound = requests ÷ ${rate} s; goals: ≤ ${TIME_GOAL}× the bound, ≤ ${REFUSED_GOAL * 100}% of requests answered 429\n`,
  );
  const rows: string[][] = [];
  for (const kind of kinds) {
    if (kind !== 'local' && !(await storeAvailable(kind))) {
      process.stderr.write(`${kind}: its service does not answer, skipped\n`);
      continue;
    }
    for (const latency of latencies)
      for (const answer of answers) {
        let m: Measured;
        if (kind === 'local') m = await viaCli(listings, rate, latency, answer);
        else {
          // A store of its own per run: the adapted limit of the previous run is not inherited.
          const opened = await openFreshStore(kind, 'aimd');
          const limiter = opened.store.createLimiter({ concurrency: CONCURRENCY });
          m = await inProcess(listings, rate, latency, answer, limiter).finally(() => opened.dispose());
        }
        const bound = (m.requests / rate) * 1000;
        const share = m.refused / m.requests;
        const met = m.ms / bound <= TIME_GOAL && share <= REFUSED_GOAL;
        const row = [
          kind,
          `${latency} ms`,
          describe(answer),
          fmtMs(m.ms),
          String(m.requests),
          fmtMs(bound),
          ratio(m.ms, bound),
          `${m.refused} (${(share * 100).toFixed(1)}%)`,
          String(m.peak),
          met ? 'met' : 'NOT met',
        ];
        process.stderr.write(`${row.join('  ')}\n`);
        rows.push(row);
      }
  }
  printTable(
    [
      'limiter',
      'latency',
      'platform answers',
      'wall',
      'requests',
      'bound',
      'ratio',
      'answered 429',
      'peak in flight',
      'goal',
    ],
    rows,
  );
}
