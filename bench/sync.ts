import { parseArgs } from 'node:util';
import { createClient } from '../src/api/index.ts';
import type { Operation } from '../src/api/schemas.ts';
import { type Config, configSchema } from '../src/config/schema.ts';
import { createLocalLimiter } from '../src/http/limiter.ts';
import { silentLogger } from '../src/logger.ts';
import type { Listing } from '../src/normalize/listing-schema.ts';
import { ingestResultOf, type RunReport, syncFeed } from '../src/reconcile/index.ts';
import { type Sandbox, startSandbox } from '../src/sandbox/index.ts';
import { createMemoryStateStore } from '../src/state/state-store.ts';
import { changedFeed, initialFeed } from './sync-scenarios.ts';

interface Row {
  scenario: string;
  wallMs: number;
  calls: Record<Operation, number>;
  boundMs: number;
  naiveMs: number;
  naiveNote: string;
}

function makeConfig(baseUrl: string, concurrency: number, pageSize: number, chatbot: string): Config {
  return configSchema.parse({
    api: { baseUrl, concurrency, pageSize, timeoutMs: 30_000 },
    feeds: [{ id: 'bench', chatbot, source: { format: 'csv', path: 'bench.csv' }, maxDeleteShare: 0.2 }],
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
  const ingest = async () => ingestResultOf(feed.id, listings);
  const started = performance.now();
  const report = await syncFeed(config, feed, {
    client,
    state: createMemoryStateStore(),
    logger: silentLogger,
    ingest,
  });
  return { report, wallMs: performance.now() - started };
}

const totalCalls = (calls: Record<Operation, number>) => Object.values(calls).reduce((a, b) => a + b, 0);
const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

function check(report: RunReport, scenario: string) {
  if (report.outcome !== 'ok')
    throw new Error(`${scenario}: outcome ${report.outcome} (${report.reason ?? ''})`);
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      listings: { type: 'string', default: '10000' },
      latency: { type: 'string', default: '50' },
      concurrency: { type: 'string', default: '8' },
      'page-size': { type: 'string', default: '1000' },
      'naive-sample': { type: 'string', default: '200' },
      'naive-full': { type: 'boolean', default: false },
    },
  });
  const count = Number(values.listings);
  const latency = Number(values.latency);
  const concurrency = Number(values.concurrency);
  const pageSize = Number(values['page-size']);
  const sandbox = await startSandbox({ latencyMs: latency });
  const bound = (calls: Record<Operation, number>) => (totalCalls(calls) * latency) / concurrency;
  process.stdout.write(
    `sync bench: ${count} listings, ${latency} ms per request, concurrency ${concurrency}, PageSize ${pageSize}\n` +
      'bound = calls × latency ÷ concurrency; naive = pages one by one, one call at a time\n\n',
  );
  try {
    // The naive per-call cost, measured on a sample unless --naive-full runs every naive sync for real.
    const sample = Math.min(count, Number(values['naive-sample']));
    const naiveSample = await sync(sandbox, initialFeed(sample), 1, pageSize, 'NAIVE-SAMPLE');
    const perCall = naiveSample.wallMs / totalCalls(naiveSample.report.apiCalls);
    const naiveOf = async (listings: Listing[], calls: Record<Operation, number>, chatbot: string) => {
      if (!values['naive-full'])
        return { ms: totalCalls(calls) * perCall, note: `est. from a ${sample}-listing naive run` };
      const r = await sync(sandbox, listings, 1, pageSize, chatbot);
      return { ms: r.wallMs, note: 'measured' };
    };

    const rows: Row[] = [];
    const scenarios: [string, Listing[]][] = [
      ['initial sync', initialFeed(count)],
      ['no-op resync', initialFeed(count)],
      ['resync, 5% changed', changedFeed(count)],
    ];
    for (const [scenario, listings] of scenarios) {
      const { report, wallMs } = await sync(sandbox, listings, concurrency, pageSize, 'BENCH');
      check(report, scenario);
      // The naive run replays the same transition on its own chatbot, so both start from equal states.
      // A naive no-op costs only sequential page reads: cheap enough to measure for real.
      const naive =
        scenario === 'no-op resync'
          ? await sync(sandbox, listings, 1, pageSize, 'BENCH-NAIVE').then((r) => ({
              ms: r.wallMs,
              note: 'measured',
            }))
          : await naiveOf(listings, report.apiCalls, 'BENCH-NAIVE');
      if (scenario === 'initial sync' && !values['naive-full'])
        sandbox.seed('BENCH-NAIVE', sandbox.listings('BENCH'));
      rows.push({
        scenario,
        wallMs,
        calls: report.apiCalls,
        boundMs: bound(report.apiCalls),
        naiveMs: naive.ms,
        naiveNote: naive.note,
      });
    }
    printRows(rows);
    const stats = sandbox.stats();
    process.stdout.write(
      `\npeak in flight at the sandbox: ${stats.peakInFlight} (concurrency ${concurrency})\n`,
    );
  } finally {
    await sandbox.close();
  }
}

function printRows(rows: Row[]): void {
  const head = ['scenario', 'wall', 'calls list/create/update/delete', 'bound', 'ratio', 'naive', 'speedup'];
  const body = rows.map((r) => [
    r.scenario,
    fmt(r.wallMs),
    `${r.calls.list}/${r.calls.create}/${r.calls.update}/${r.calls.delete}`,
    fmt(r.boundMs),
    `${(r.wallMs / r.boundMs).toFixed(2)}×`,
    `${fmt(r.naiveMs)} (${r.naiveNote})`,
    `${(r.naiveMs / r.wallMs).toFixed(1)}×`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  for (const line of [head, ...body])
    process.stdout.write(`${line.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')}\n`);
}
