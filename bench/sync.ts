import { parseArgs } from 'node:util';
import { createClient } from '../src/api/index.ts';
import { type Config, configSchema } from '../src/config/schema.ts';
import { createLocalLimiter } from '../src/http/limiter.ts';
import { silentLogger } from '../src/logger.ts';
import type { Listing } from '../src/normalize/listing-schema.ts';
import { type RunReport, syncFeed } from '../src/reconcile/index.ts';
import { type Sandbox, startSandbox } from '../src/sandbox/index.ts';
import { createMemoryStateStore } from '../src/state/state-store.ts';
import { LISTING_MAPPING, recordsFeed } from '../src/testing/records-feed.ts';
import { fmtMs as fmt, printTable, ratio } from './lib/table.ts';
import { type CallCounts, changedFeed, initialFeed, minimumCalls } from './sync-scenarios.ts';

interface Settings {
  latency: number;
  concurrency: number;
  pageSize: number;
}

interface Measured {
  scenario: string;
  wallMs: number;
  calls: CallCounts;
  minimum: CallCounts;
}

const SCENARIOS = ['initial sync', 'no-op resync', 'resync, 5% changed'] as const;

function makeConfig(baseUrl: string, concurrency: number, pageSize: number, chatbot: string): Config {
  return configSchema.parse({
    api: { baseUrl, concurrency, pageSize, timeoutMs: 30_000 },
    feeds: [
      {
        id: 'bench',
        chatbot,
        source: { format: 'csv', path: 'bench.csv' },
        mapping: LISTING_MAPPING,
        maxDeleteShare: 0.2,
      },
    ],
  });
}

/** One sync of `listings` onto `chatbot`, with a client wired like production. */
async function sync(
  sandbox: Sandbox,
  listings: Listing[],
  concurrency: number,
  pageSize: number,
  chatbot: string,
) {
  const config = makeConfig(sandbox.url, concurrency, pageSize, chatbot);
  const limiter = createLocalLimiter({ concurrency });
  const client = createClient({ baseUrl: sandbox.url, timeoutMs: 30_000, limiter });
  const feed = config.feeds[0];
  if (!feed) throw new Error('no feed');
  const started = performance.now();
  const { report } = await syncFeed(config, feed, {
    client,
    state: createMemoryStateStore(),
    logger: silentLogger,
    open: recordsFeed(listings),
  });
  const wallMs = performance.now() - started;
  if (report.outcome !== 'ok')
    throw new Error(`${chatbot}: outcome ${report.outcome} (${report.reason ?? ''})`);
  return { report, wallMs };
}

/**
 * The three scenarios in order on one chatbot (each starts from the state the previous one left):
 * an initial sync onto an empty chatbot, a no-op resync, a resync with 5% changed.
 */
async function runScenarios(
  sandbox: Sandbox,
  count: number,
  concurrency: number,
  pageSize: number,
  chatbot: string,
): Promise<Measured[]> {
  const feeds: [string, Listing[], Listing[]][] = [
    [SCENARIOS[0], [], initialFeed(count)],
    [SCENARIOS[1], initialFeed(count), initialFeed(count)],
    [SCENARIOS[2], initialFeed(count), changedFeed(count)],
  ];
  const out: Measured[] = [];
  for (const [scenario, before, after] of feeds) {
    const { report, wallMs } = await sync(sandbox, after, concurrency, pageSize, chatbot);
    out.push({ scenario, wallMs, calls: callsOf(report), minimum: minimumCalls(before, after, pageSize) });
  }
  return out;
}

const callsOf = ({ apiCalls: c }: RunReport): CallCounts => ({
  list: c.list,
  create: c.create,
  update: c.update,
  delete: c.delete,
});
const total = (c: CallCounts) => c.list + c.create + c.update + c.delete;
const show = (c: CallCounts) => `${c.list}/${c.create}/${c.update}/${c.delete}`;

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      listings: { type: 'string', default: '10000' },
      'naive-listings': { type: 'string', default: '1000' },
      latency: { type: 'string', default: '50' },
      concurrency: { type: 'string', default: '8' },
      'page-size': { type: 'string', default: '1000' },
    },
  });
  const count = Number(values.listings);
  const sample = Math.min(count, Number(values['naive-listings']));
  const s: Settings = {
    latency: Number(values.latency),
    concurrency: Number(values.concurrency),
    pageSize: Number(values['page-size']),
  };
  const bound = (calls: CallCounts) => (total(calls) * s.latency) / s.concurrency;
  const sandbox = await startSandbox({ latencyMs: s.latency });
  const out = (text: string) => process.stdout.write(`${text}\n`);
  out(
    `sync bench: ${s.latency} ms per request, concurrency ${s.concurrency}, PageSize ${s.pageSize}, delete batch 100\n` +
      'bound  = the minimum calls the job needs × latency ÷ concurrency; the minimum is counted from the\n' +
      '         feeds (pages to read, new, changed and gone listings), not from our run\n' +
      'naive  = the same sync with pages read one by one and one call at a time (concurrency 1)\n' +
      'calls  = list/create/update/delete\n',
  );
  try {
    const ours = await runScenarios(sandbox, count, s.concurrency, s.pageSize, 'BENCH');
    out(`${count} listings: ours against the lower bound`);
    printTable(
      ['scenario', 'wall', 'calls', 'minimum', 'bound', 'ratio'],
      ours.map((m) => [
        m.scenario,
        fmt(m.wallMs),
        show(m.calls),
        show(m.minimum),
        fmt(bound(m.minimum)),
        ratio(m.wallMs, bound(m.minimum)),
      ]),
    );
    const peak = sandbox.stats().peakInFlight;

    // The naive baseline runs every call one after the other: at 10,000 listings that is over eight
    // minutes, so both are measured on a smaller feed instead, the same way, in this run.
    const small = await runScenarios(sandbox, sample, s.concurrency, s.pageSize, 'SAMPLE-OURS');
    const naive = await runScenarios(sandbox, sample, 1, s.pageSize, 'SAMPLE-NAIVE');
    out(`\n${sample} listings: ours against the naive baseline, both measured in this run`);
    printTable(
      ['scenario', 'ours', 'naive', 'speedup', 'calls (ours = naive)', 'ours / bound', 'naive / bound'],
      small.map((m, i) => {
        const n = naive[i] as Measured;
        return [
          m.scenario,
          fmt(m.wallMs),
          fmt(n.wallMs),
          ratio(n.wallMs, m.wallMs),
          show(m.calls) === show(n.calls) ? show(m.calls) : `${show(m.calls)} ≠ ${show(n.calls)}`,
          ratio(m.wallMs, bound(m.minimum)),
          ratio(n.wallMs, bound(m.minimum)),
        ];
      }),
    );
    out(
      `\npeak in flight at the sandbox: ${peak} during the ${count}-listing runs (concurrency ${s.concurrency})`,
    );
  } finally {
    await sandbox.close();
  }
}
