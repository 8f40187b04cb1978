/**
 * `npm run bench -- fleet [--feeds 120] [--listings 50] [--workers 1,3] [--latency 50]
 * [--concurrency 8] [--old 2]`: a fleet as its operators run it (issue 23). N feeds on one cron, all
 * due at the same second, on K worker processes (the built CLI's `feed-sync worker` under the image's
 * heap bound) sharing one Redis prefix, against the sandbox in this process with latency, so the
 * platform is the bottleneck. Each round starts from an empty platform (every listing a create).
 *
 * Printed against the goals: round ≤ 1.2× the platform bound (total calls ÷ api.concurrency ×
 * latency), peak in-flight ≤ api.concurrency, 0 duplicates, no feed starting later than 60% of the
 * round, peak RSS ≤ 300 MB per worker; the speed-up of the most workers over one; the old default
 * (`worker.concurrency: 2`) on the most workers for comparison; what Redis keeps per feed.
 * Writes bench/results/fleet.{json,md,svg}.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildCli, BUILT_CLI as CLI, imageNodeArgs } from './lib/cli.ts';
import { type RoundResult, runRound } from './lib/fleet-round.ts';
import { REDIS_URL, reachable } from './lib/stores.ts';
import { lineChart, type Series } from './lib/svg-chart.ts';
import { fmtMs, machine, markdownTable, out, printTable, ratio } from './lib/table.ts';

const RESULTS = resolve(import.meta.dirname, 'results');
const TIME_BOUND = 1.2;
const WAIT_BOUND = 0.6;
const RSS_BOUND_MB = 300;

/** The q-quantile of ascending values. */
const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
const pct = (x: number) => `${Math.round(x * 100)}%`;
const waitShare = (r: RoundResult, q: number) => quantile(r.delaysMs, q) / r.roundMs;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MB`;

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      feeds: { type: 'string', default: '120' },
      listings: { type: 'string', default: '50' },
      workers: { type: 'string', default: '1,3' },
      latency: { type: 'string', default: '50' },
      concurrency: { type: 'string', default: '8' },
      /** The old default worker concurrency, run on the most workers for comparison; 0 skips it. */
      old: { type: 'string', default: '2' },
      /** Write each worker's CPU profile (`--cpu-prof`) to this folder. */
      profile: { type: 'string' },
    },
  });
  if (!(await reachable(REDIS_URL, 6379))) throw new Error(`fleet bench: no Redis at ${REDIS_URL}`);
  const base = {
    cli: CLI,
    nodeOptions: [
      ...imageNodeArgs(),
      ...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(values.profile)}`] : []),
    ],
    feeds: Number(values.feeds),
    listings: Number(values.listings),
    concurrency: Number(values.concurrency),
    latencyMs: Number(values.latency),
  };
  const counts = values.workers.split(',').map(Number);
  const most = Math.max(...counts);
  const scenarios = [
    ...counts.map((workers) => ({ workers, workerConcurrency: undefined as number | undefined })),
    ...(Number(values.old) > 0 ? [{ workers: most, workerConcurrency: Number(values.old) }] : []),
  ];
  buildCli();
  const where = machine();
  out(
    `fleet bench: ${base.feeds} feeds × ${base.listings} listings on one cron, built CLI workers (${where})`,
  );
  out(
    `node ${base.nodeOptions.join(' ')} (as the image starts node: its NODE_OPTIONS and entrypoint); sandbox in this process, ${base.latencyMs} ms latency, api.concurrency ${base.concurrency}; Redis ${REDIS_URL}\n`,
  );
  const rounds: RoundResult[] = [];
  for (const [i, scenario] of scenarios.entries()) {
    const r = await runRound({ ...base, ...scenario }, String(i));
    rounds.push(r);
    const commands = Object.entries(r.redisCommands);
    const total = commands.reduce((n, [, c]) => n + c, 0);
    out(
      `    Redis: ${(total / r.calls).toFixed(1)} commands per platform call (${commands
        .slice(0, 6)
        .map(([name, c]) => `${name} ${(c / r.calls).toFixed(2)}`)
        .join(', ')})`,
    );
    out(
      `    calls in flight, mean by tenth of the round: ${r.inFlightByTenth.map((n) => n.toFixed(1)).join(' ')}`,
    );
    out(
      `  ${r.workers} worker(s), concurrency ${r.setting} (${r.feedsAtOnce} at once): round ${fmtMs(r.roundMs)} = ${ratio(r.roundMs, r.boundMs)} the bound, last start at ${pct(waitShare(r, 1))}`,
    );
  }
  const { head, body } = tableOf(rounds, base.concurrency);
  out('');
  printTable(head, body);
  const verdicts = verdictsOf(rounds, base.concurrency, most);
  const store = storeLines(rounds, base.feeds, base.listings);
  out('');
  for (const line of [...verdicts, ...store]) out(line);
  save(rounds, head, body, verdicts, store, base, where);
}

function tableOf(rounds: readonly RoundResult[], concurrency: number) {
  const head = [
    'workers',
    'worker.concurrency',
    'round',
    'bound',
    '÷ bound',
    'peak in flight',
    'slots busy',
    'ms/call',
    'CPU ms/call',
    'dup',
    'wait p50',
    'p90',
    'max',
    'peak RSS/worker',
  ];
  const body = rounds.map((r) => [
    String(r.workers),
    `${r.setting} (${r.feedsAtOnce})`,
    fmtMs(r.roundMs),
    fmtMs(r.boundMs),
    ratio(r.roundMs, r.boundMs),
    String(r.peakInFlight),
    pct(r.busyMs / (r.roundMs * concurrency)),
    (r.busyMs / r.calls).toFixed(0),
    `${(r.workerCpuMs / r.calls).toFixed(1)} + ${(r.sandboxCpuMs / r.calls).toFixed(1)}`,
    String(r.duplicates),
    pct(waitShare(r, 0.5)),
    pct(waitShare(r, 0.9)),
    pct(waitShare(r, 1)),
    `${Math.max(...r.peakMb).toFixed(0)} MB`,
  ]);
  return { head, body };
}

const met = (ok: boolean) => (ok ? '(met)' : '(NOT met)');

function verdictsOf(rounds: readonly RoundResult[], concurrency: number, most: number): string[] {
  const lines: string[] = [];
  for (const r of rounds) {
    const name = `${r.workers} worker(s), concurrency ${r.setting}`;
    const time = r.roundMs / r.boundMs;
    const wait = waitShare(r, 1);
    const rss = Math.max(...r.peakMb);
    lines.push(
      `${name}: round ${time.toFixed(2)}× the platform bound (goal ≤ ${TIME_BOUND}×) ${met(time <= TIME_BOUND)}; ` +
        `peak in flight ${r.peakInFlight} of api.concurrency ${concurrency} ${met(r.peakInFlight <= concurrency)}; ` +
        `${r.duplicates} duplicates ${met(r.duplicates === 0)}; last start at ${pct(wait)} of the round (goal ≤ ${pct(WAIT_BOUND)}) ${met(wait <= WAIT_BOUND)}; ` +
        `peak RSS ${rss.toFixed(0)} MB per worker (goal ≤ ${RSS_BOUND_MB}) ${met(rss <= RSS_BOUND_MB)}`,
    );
  }
  const one = rounds.find((r) => r.workers === 1 && r.setting === 'auto');
  const many = rounds.find((r) => r.workers === most && r.setting === 'auto');
  if (one && many && many !== one)
    lines.push(
      `speed-up of ${most} workers over 1: ${(one.roundMs / many.roundMs).toFixed(2)}× (the platform is the bottleneck: ~1× is the expected figure, both at the bound)`,
    );
  return lines;
}

/** What Redis keeps for a fleet: bytes per feed by kind, after one round. */
function storeLines(rounds: readonly RoundResult[], feeds: number, listings: number): string[] {
  const r = rounds.at(-1);
  if (!r) return [];
  const total = Object.values(r.redis.bytes).reduce((a, b) => a + b, 0);
  const kinds = Object.entries(r.redis.bytes)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, bytes]) => `${kind} ${(bytes / feeds / 1024).toFixed(1)} KB`);
  return [
    `Redis after one round of ${feeds} feeds × ${listings} listings: ${r.redis.keys} keys, ${mb(total)} (MEMORY USAGE), ` +
      `used_memory +${mb(r.redis.usedDelta)}; per feed ${(total / feeds / 1024).toFixed(1)} KB (${kinds.join(', ')}), ` +
      `per listing ${(total / feeds / listings).toFixed(0)} B`,
  ];
}

const COLORS = ['#1f77b4', '#2ca02c', '#d62728', '#9467bd'];

function save(
  rounds: readonly RoundResult[],
  head: string[],
  body: string[][],
  verdicts: string[],
  store: string[],
  base: {
    feeds: number;
    listings: number;
    concurrency: number;
    latencyMs: number;
    nodeOptions: readonly string[];
  },
  where: string,
) {
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const command = `npm run bench -- fleet --feeds ${base.feeds} --listings ${base.listings}`;
  writeFileSync(
    join(RESULTS, 'fleet.json'),
    `${JSON.stringify({ when, machine: where, command, ...base, rounds }, null, 2)}\n`,
  );
  writeFileSync(
    join(RESULTS, 'fleet.md'),
    `Fleet, ${when} UTC, ${where} (\`${command}\`): ${base.feeds} feeds × ${base.listings} listings on one cron, ` +
      `workers of the built CLI under \`${base.nodeOptions.join(' ')}\` (the image's), one Redis, sandbox at ${base.latencyMs} ms, ` +
      `api.concurrency ${base.concurrency}. Wait = a feed's run start − the cron's due time, as a share of the round.\n\n` +
      `${markdownTable(head, body)}\n${[...verdicts, ...store].map((v) => `- ${v}`).join('\n')}\n`,
  );
  const series: Series[] = rounds.map((r, i) => ({
    name: `${r.workers} worker${r.workers > 1 ? 's' : ''}, ${r.setting === 'auto' ? `auto (${r.feedsAtOnce})` : `${r.setting} at once`}`,
    color: COLORS[i % COLORS.length] ?? '#333',
    points: r.delaysMs.map((d, k) => [((k + 1) / r.delaysMs.length) * 100, (d / r.roundMs) * 100] as const),
  }));
  const svg = lineChart(
    [
      {
        title: `Start delay of ${base.feeds} feeds due at once`,
        yLabel: '% of the round',
        series,
        yMax: 100,
        bound: { y: WAIT_BOUND * 100, label: `goal ≤ ${pct(WAIT_BOUND)}` },
        x: { label: '% of the feeds started (by start)', linear: true },
      },
      {
        title: 'Platform calls in flight, by tenth of the round',
        yLabel: 'mean calls in flight',
        yMax: base.concurrency * 1.25,
        series: rounds.map((r, i) => ({
          name: series[i]?.name ?? '',
          color: COLORS[i % COLORS.length] ?? '#333',
          points: r.inFlightByTenth.map((n, k) => [(k + 1) * 10, n] as const),
        })),
        bound: { y: base.concurrency, label: `api.concurrency ${base.concurrency}` },
        x: { label: '% of the round (end of each tenth)', linear: true },
      },
    ],
    `${base.feeds} feeds × ${base.listings} listings, sandbox ${base.latencyMs} ms, api.concurrency ${base.concurrency}, built CLI workers under the image's heap bound. ${when} UTC, ${where}.`,
  );
  writeFileSync(join(RESULTS, 'fleet.svg'), svg);
  out(`\nwritten: bench/results/fleet.{json,md,svg}`);
}
