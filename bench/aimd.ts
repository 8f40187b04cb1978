/**
 * `npm run bench -- aimd [--listings 600] [--rate 20] [--latency 100] [--store local,redis,postgres,embedded]`:
 * a platform limit found by itself. The sandbox admits `rate` requests per second and answers 429
 * beyond it (with and without Retry-After); feed-sync, configured with `concurrency: 8` and no
 * requestsPerSecond, syncs `listings` new listings. The bound is requests ÷ rate seconds: the time
 * the platform's limit allows for the calls made. Goal (issue 13): ≤ 1.25× the bound, ≤ 5% of
 * requests answered 429.
 *
 * `--store` picks the limiter: `local` (in-process, the CLI's; the default) or the shared limiter
 * of a worker's queue store (`redis`, `postgres`, `embedded`), each run on a store of its own so
 * every run starts from full concurrency. A store whose service does not answer is skipped.
 */
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
import { openFreshStore, storeAvailable } from './lib/stores.ts';
import { fmtMs, machine, out, printTable, ratio } from './lib/table.ts';
import { initialFeed } from './sync-scenarios.ts';

const TIME_GOAL = 1.25;
const REFUSED_GOAL = 0.05;

type LimiterKind = 'local' | StoreChoice['kind'];
const KINDS: readonly LimiterKind[] = ['local', 'redis', 'postgres', 'embedded'];
const CONCURRENCY = 8;

async function once(
  listings: number,
  rate: number,
  latencyMs: number,
  retryAfter: boolean,
  limiter: Limiter | undefined,
) {
  const sandbox = await startSandbox({
    latencyMs,
    rateLimitPerSecond: rate,
    rateLimitRetryAfter: retryAfter,
  });
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
      client: clientFromConfig(config, limiter ? { limiter } : {}),
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
      listings: { type: 'string', default: '600' },
      rate: { type: 'string', default: '20' },
      latency: { type: 'string', default: '100' },
      store: { type: 'string', default: 'local' },
    },
  });
  const kinds = values.store.split(',').map((k) => k.trim()) as LimiterKind[];
  const unknown = kinds.filter((k) => !KINDS.includes(k));
  if (unknown.length > 0) throw new Error(`--store: unknown ${unknown.join(', ')} (${KINDS.join(', ')})`);
  const listings = Number(values.listings);
  const rate = Number(values.rate);
  const latency = Number(values.latency);
  out(
    `aimd bench: ${listings} new listings; the sandbox admits ${rate} requests/s (429 beyond), ${latency} ms latency;`,
  );
  out(`feed-sync at concurrency ${CONCURRENCY}, no requestsPerSecond set (${machine()})`);
  out(
    `bound = requests ÷ ${rate} s; goals: ≤ ${TIME_GOAL}× the bound, ≤ ${REFUSED_GOAL * 100}% of requests answered 429\n`,
  );
  const rows: string[][] = [];
  for (const kind of kinds) {
    if (!(await storeAvailable(kind === 'local' ? 'embedded' : kind))) {
      process.stderr.write(`${kind}: its service does not answer, skipped\n`);
      continue;
    }
    for (const retryAfter of [true, false]) {
      // A store of its own per run: the adapted limit of the previous run is not inherited.
      const opened = kind === 'local' ? undefined : await openFreshStore(kind, 'aimd');
      const limiter = opened?.store.createLimiter({ concurrency: CONCURRENCY });
      const m = await once(listings, rate, latency, retryAfter, limiter).finally(() => opened?.dispose());
      const bound = (m.requests / rate) * 1000;
      const share = m.refused / m.requests;
      const met = m.ms / bound <= TIME_GOAL && share <= REFUSED_GOAL;
      rows.push([
        kind,
        retryAfter ? '429 + Retry-After' : '429, no Retry-After',
        fmtMs(m.ms),
        String(m.requests),
        fmtMs(bound),
        ratio(m.ms, bound),
        `${m.refused} (${(share * 100).toFixed(1)}%)`,
        String(m.peak),
        met ? 'met' : 'NOT met',
      ]);
    }
  }
  printTable(
    [
      'limiter',
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
