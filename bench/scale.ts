/**
 * `npm run bench -- scale [--large] [--sizes 1000,10000] [--formats csv]`: the scale curve of a
 * whole sync through the real CLI (`feed-sync sync`), one child process per run so its peak RSS
 * (VmHWM) is that run's alone. For each format and size: an initial sync onto an empty chatbot, a
 * no-op resync forced to compare (`--force-full`), and `feed-sync validate --feed` (ingest alone). The sandbox runs in this
 * process, so its memory is not counted.
 *
 * Printed against the goals of issue 13: peak RSS ≤ 250 MB at 100k, 300k within 1.3× of 100k.
 * Writes bench/results/scale.{json,md,svg}.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startSandbox } from '../src/sandbox/index.ts';
import { imageNodeOptions } from '../test/helpers/image-env.ts';
import { runChild } from './lib/child.ts';
import { FORMATS, type Format, feedEntry, generateFeed } from './lib/feeds.ts';
import { lineChart, type Series } from './lib/svg-chart.ts';
import { fmtMs, machine, markdownTable, out, printTable, ratio } from './lib/table.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** The built CLI, as the image runs it (`npm run build` first). */
const CLI = resolve(ROOT, 'dist/src/cli/main.js');

function build(): void {
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error(`npm run build failed (${built.status})`);
}
const RESULTS = resolve(import.meta.dirname, 'results');
/** Peak RSS goal of a 100k sync (issue 13, goal 1). */
const RSS_BOUND_MB = 250;
/** 300k may cost at most this much more memory than 100k. */
const GROWTH_BOUND = 1.3;

/** `validate`: `feed-sync validate --feed`, which reads and normalizes the feed (ingest alone). */
type Scenario = 'initial' | 'no-op' | 'validate';
const SCENARIOS: readonly Scenario[] = ['initial', 'no-op', 'validate'];

interface Row {
  format: Format;
  listings: number;
  scenario: Scenario;
  ms: number;
  peakMb: number;
  writes: number;
}

interface Report {
  outcome: string;
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
  reason?: string;
}

async function runSize(
  format: Format,
  listings: number,
  workDir: string,
  nodeOptions: readonly string[],
): Promise<Row[]> {
  const file = await generateFeed(format, listings);
  const sandbox = await startSandbox({});
  try {
    const config = join(workDir, `${format}-${listings}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        api: { baseUrl: sandbox.url, concurrency: 8, pageSize: 1000 },
        stateFile: join(workDir, `${format}-${listings}.state.json`),
        feeds: [feedEntry(format, file, 'bench', `SCALE-${format}-${listings}`)],
      }),
    );
    const rows: Row[] = [];
    for (const scenario of SCENARIOS) {
      const extra = scenario === 'no-op' ? ['--force-full'] : [];
      const args =
        scenario === 'validate'
          ? ['validate', '-c', config, '--feed', 'bench']
          : ['sync', '-c', config, '--feed', 'bench', '--json', ...extra];
      const child = await runChild([CLI, ...args], { nodeOptions });
      if (child.code !== 0)
        throw new Error(`${format} ${listings} ${scenario}: exit ${child.code}\n${child.stderr}`);
      if (scenario === 'validate') {
        // `✓ bench: 100000 records: 100000 valid, …`
        if (!child.stdout.includes(`${listings} records: ${listings} valid`))
          throw new Error(`validate of ${listings}: unexpected output ${child.stdout.slice(0, 200)}`);
        rows.push({ format, listings, scenario, ms: child.ms, peakMb: child.peakMb, writes: 0 });
        continue;
      }
      const report = JSON.parse(child.stdout) as Report;
      const writes = report.created + report.updated + report.deleted;
      check(scenario, listings, report, writes);
      rows.push({ format, listings, scenario, ms: child.ms, peakMb: child.peakMb, writes });
    }
    return rows;
  } finally {
    await sandbox.close();
  }
}

/** A figure only counts when the run did what it should: every listing created once, then zero writes. */
function check(scenario: Scenario, listings: number, report: Report, writes: number): void {
  const expected =
    scenario === 'initial'
      ? report.outcome === 'ok' && report.created === listings
      : report.outcome === 'ok' && writes === 0 && report.unchanged === listings;
  if (!expected) throw new Error(`${scenario} of ${listings}: unexpected report ${JSON.stringify(report)}`);
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      large: { type: 'boolean', default: false },
      sizes: { type: 'string' },
      formats: { type: 'string', default: FORMATS.join(',') },
      /** Without the image's heap bound: V8 sizes its heap from the machine's memory. */
      unbounded: { type: 'boolean', default: false },
    },
  });
  const nodeOptions = values.unbounded ? [] : imageNodeOptions().split(/\s+/).filter(Boolean);
  const sizes = values.sizes
    ? values.sizes.split(',').map(Number)
    : [1_000, 10_000, 100_000, ...(values.large ? [300_000] : [])];
  const formats = values.formats.split(',') as Format[];
  build();
  out(`scale bench: a whole sync through the built CLI, one child process per run (${machine()})`);
  out(
    `node ${nodeOptions.length > 0 ? `${nodeOptions.join(' ')} (the image's NODE_OPTIONS)` : '(unbounded heap: --unbounded)'}`,
  );
  out(`sandbox in the bench process, no latency, concurrency 8, PageSize 1000\n`);

  const baseline = await runChild(['-e', '']);
  out(`baseline: an empty Node process peaks at ${baseline.peakMb.toFixed(0)} MB\n`);
  const workDir = mkdtempSync(join(tmpdir(), 'feed-sync-bench-scale-'));
  const rows: Row[] = [];
  try {
    for (const format of formats)
      for (const size of sizes) {
        const measured = await runSize(format, size, workDir, nodeOptions);
        rows.push(...measured);
        for (const r of measured)
          out(`  ${format} ${size} ${r.scenario}: ${fmtMs(r.ms)}, peak ${r.peakMb.toFixed(0)} MB`);
      }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const { head, body } = tableOf(rows);
  out('');
  printTable(head, body);
  const verdicts = verdictsOf(rows);
  out('');
  for (const v of verdicts) out(v);
  save(rows, head, body, verdicts, baseline.peakMb, nodeOptions);
}

function tableOf(rows: readonly Row[]) {
  const head = [
    'format',
    'listings',
    'run',
    'time',
    'µs/listing',
    'peak RSS',
    `÷ ${RSS_BOUND_MB} MB`,
    'writes',
  ];
  const body = rows.map((r) => [
    r.format,
    String(r.listings),
    r.scenario,
    fmtMs(r.ms),
    ((r.ms * 1000) / r.listings).toFixed(0),
    `${r.peakMb.toFixed(0)} MB`,
    ratio(r.peakMb, RSS_BOUND_MB),
    String(r.writes),
  ]);
  return { head, body };
}

/** The goal lines: 100k peak against the bound, 300k against 100k. */
function verdictsOf(rows: readonly Row[]): string[] {
  const lines: string[] = [];
  const at = (f: Format, n: number, s: Scenario) =>
    rows.find((r) => r.format === f && r.listings === n && r.scenario === s);
  for (const f of FORMATS)
    for (const s of ['initial', 'no-op'] as const) {
      const big = at(f, 100_000, s);
      const huge = at(f, 300_000, s);
      if (big)
        lines.push(
          `${f} ${s} 100k: peak ${big.peakMb.toFixed(0)} MB = ${ratio(big.peakMb, RSS_BOUND_MB)} the ${RSS_BOUND_MB} MB goal ${big.peakMb <= RSS_BOUND_MB ? '(met)' : '(NOT met)'}`,
        );
      if (big && huge) {
        const g = huge.peakMb / big.peakMb;
        lines.push(
          `${f} ${s} 300k ÷ 100k peak: ${g.toFixed(2)}× (goal ≤ ${GROWTH_BOUND}×) ${g <= GROWTH_BOUND ? '(met)' : '(NOT met)'}`,
        );
      }
    }
  return lines;
}

const COLORS: Record<string, string> = {
  'csv initial': '#1f77b4',
  'csv no-op': '#7fb2e0',
  'xml initial': '#d62728',
  'xml no-op': '#f0a0a0',
};

function save(
  rows: readonly Row[],
  head: string[],
  body: string[][],
  verdicts: string[],
  baselineMb: number,
  nodeOptions: readonly string[],
) {
  const heap =
    nodeOptions.length > 0 ? `node ${nodeOptions.join(' ')} (the image's NODE_OPTIONS)` : 'unbounded heap';
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const where = machine();
  writeFileSync(
    join(RESULTS, 'scale.json'),
    `${JSON.stringify({ when, machine: where, nodeOptions, baselineMb, rows }, null, 2)}\n`,
  );
  writeFileSync(
    join(RESULTS, 'scale.md'),
    `Scale curve, ${when} UTC, ${where} (\`npm run bench -- scale${rows.some((r) => r.listings >= 300_000) ? ' --large' : ''}\`), built CLI, ${heap}.\n\n${markdownTable(head, body)}\n${verdicts.map((v) => `- ${v}`).join('\n')}\n`,
  );
  const series = (metric: 'ms' | 'peakMb'): Series[] =>
    Object.entries(COLORS).map(([name, color]) => ({
      name,
      color,
      points: rows
        .filter((r) => `${r.format} ${r.scenario}` === name)
        .map((r) => [r.listings, metric === 'ms' ? r.ms / 1000 : r.peakMb] as const),
    }));
  const svg = lineChart(
    [
      { title: 'Whole sync: time', yLabel: 'seconds (log scale)', series: series('ms'), logY: true },
      {
        title: 'Whole sync: peak RSS (VmHWM)',
        yLabel: 'MB',
        series: series('peakMb'),
        bound: { y: RSS_BOUND_MB, label: `goal ${RSS_BOUND_MB} MB` },
      },
    ],
    `feed-sync sync via the built CLI, ${heap}, sandbox without latency, concurrency 8. ${when} UTC, ${where}.`,
  );
  writeFileSync(join(RESULTS, 'scale.svg'), svg);
  out(`\nwritten: bench/results/scale.{json,md,svg}`);
}
