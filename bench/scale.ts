/**
 * `npm run bench -- scale [--large] [--million] [--sizes 1000,10000] [--formats csv]`: the scale curve of a
 * whole sync through the real CLI (`feed-sync sync`), one child process per run so its peak RSS
 * (VmHWM) is that run's alone. For each format and size: an initial sync onto an empty chatbot, a
 * no-op resync forced to compare (`--force-full`: the first after the initial, whose pages are all
 * decoded), the same again (`no-op again`: the pages known from the run before, as every later
 * scheduled run of an unchanged feed finds them), a rewrite (every listing's description changed
 * in the file, so every listing is one update: what a changed mapping does), `feed-sync validate
 * --feed` (ingest alone), and a shrink (every other listing left out of the file: half the owned
 * listings gone, their deletes held by the guard, exit 3), then every record left rejected (its price
 * a word: every key held, exit 3). The sandbox (the platform) runs in a process of its own, a new
 * one for each size and for the creates' floor, as the platform is remote: its CPU is read from
 * /proc, and its heap (a million listings) neither slows the bench's process nor carries over from
 * one measure to the next.
 *
 * Printed against the goals of issue 13: peak RSS ≤ 250 MB at 100k, 300k within 1.3× of 100k; and
 * of issue 23 §2, at 1M (`--million`: 1,000,000 listings, CSV unless `--formats` says otherwise):
 * peak ≤ 400 MB (the rewrite's, the shrink's and the rejected feed's too), the no-op within 1.2× the page read, the initial sync within
 * 1.1× its bound.
 * The floors are whole processes of their own (`bench/lib/floor-reads.mjs`), measured in the same
 * run: the raw parser over the file, every list page read (the first, then 8 at a time: read just
 * before the first no-op and again just after the second, the faster of the two the floor), and N
 * creates of the listing the sync sends for the feed's first record (captured off the wire:
 * `lib/sent-listing.ts`; 8 at a time, on a sandbox of their own, closed before the sync's is filled;
 * measured before the size's runs and again after them, the faster of the two the floor: a minute
 * in which the machine is slower must not lower the ratios). The initial sync's bound is the larger
 * of its ingest (`validate`) and those creates.
 * `--latency MS`: every sandbox (the runs' and the floors') answers each request MS later, as a
 * platform across a network does; the creates' floor then waits on it too (`calls ÷ 8 × latency`
 * at least), as issue 23 §1's platform bound does. Without it the platform answers at once and shares
 * the run's CPUs, which is the harder case (and the default).
 * Writes bench/results/scale.{json,md,svg} (`--million`: scale-million.*; with `--latency MS`,
 * `-latency-MSms` added to the name).
 */

import { once } from 'node:events';
import {
  copyFileSync,
  createReadStream,
  createWriteStream,
  mkdtempSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { imageMallocEnv } from '../test/helpers/image-env.ts';
import { runChild } from './lib/child.ts';
import {
  buildCli,
  BUILT_CLI as CLI,
  cpuFloorMs,
  floorMs as floor,
  floorRun,
  imageNodeArgs,
  type SyncReport as Report,
} from './lib/cli.ts';
import { FORMATS, type Format, feedEntry, generateFeed } from './lib/feeds.ts';
import { type SandboxProcess, startSandboxProcess } from './lib/sandbox-process.ts';
import { sentListing } from './lib/sent-listing.ts';
import { lineChart, type Series } from './lib/svg-chart.ts';
import { fmtMs, machine, markdownTable, out, printTable, ratio } from './lib/table.ts';

const RESULTS = resolve(import.meta.dirname, 'results');
/** The image's allocator settings, as the runs get them (`MALLOC_ARENA_MAX=1`). */
const allocator = () =>
  Object.entries(imageMallocEnv())
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
/** Issue 23 §2 at 1M: peak RSS, no-op ÷ page read, initial ÷ its bound. */
const MILLION_RSS_MB = 400;
const NOOP_GOAL = 1.2;
const INITIAL_GOAL = 1.1;

/**
 * N creates of the listing the sync sends for the feed's first record (`sentListing`: the same
 * fields and tags, so the same bytes), 8 at a time, on a sandbox process of their own; with the CPU
 * the floor's process and the sandbox used.
 */
async function createsFloor(
  format: Format,
  listings: number,
  workDir: string,
  latencyMs: number,
): Promise<CpuRun> {
  const template = join(workDir, `template-${format}.json`);
  writeFileSync(template, JSON.stringify(await sentListing(format, workDir)));
  const sandbox = await startSandboxProcess();
  try {
    if (latencyMs > 0) await sandbox.configure({ latencyMs });
    const platform = platformCpu(sandbox);
    const run = await floorRun(['creates', sandbox.url, 'FLOOR', String(listings), '8', template], listings);
    return { ...run, platformCpuMs: platform() };
  } finally {
    await sandbox.close();
  }
}

/** A run's wall time and the CPU it and the platform used (user + system, ms). */
interface CpuRun {
  ms: number;
  cpuMs: number;
  platformCpuMs: number;
}

/**
 * The CPU the sandbox's process (the platform) has used since the call, ms (from /proc, in 10 ms
 * ticks), when the returned function is called; NaN where /proc cannot tell.
 */
function platformCpu(sandbox: SandboxProcess): () => number {
  const start = sandbox.cpuMs() ?? Number.NaN;
  return () => (sandbox.cpuMs() ?? Number.NaN) - start;
}

/** The floors of one size, measured in the same run. */
interface Floors {
  format: Format;
  listings: number;
  /**
   * The creates' floor, with the CPU it and the platform used: the faster of one just before the
   * size's runs and one just after them (a machine slower for a minute would lower every ratio).
   */
  creates: CpuRun;
  /** Both creates' floors' times, in that order. */
  createsRuns: [number, number];
  parser: number;
  /** The page read: the faster of the one just before the first no-op and the one just after the second. */
  pages: number;
  /** Both page reads, in that order. */
  pageReads: [number, number];
}
/** Peak RSS goal of a 100k sync (issue 13, goal 1). */
const RSS_BOUND_MB = 250;
/** 300k may cost at most this much more memory than 100k. */
const GROWTH_BOUND = 1.3;

/**
 * `validate`: `feed-sync validate --feed`, which reads and normalizes the feed (ingest alone).
 * `rejected`: after the shrink, every record's price a word (what a renamed column does): every key
 * left is held, its listing kept as it is, and the guard holds the other half's deletes (exit 3).
 */
type Scenario = 'initial' | 'no-op' | 'no-op again' | 'rewrite' | 'shrink' | 'validate' | 'rejected';
const SCENARIOS: readonly Scenario[] = [
  'initial',
  'no-op',
  'no-op again',
  'rewrite',
  'validate',
  'shrink',
  'rejected',
];

/**
 * Every listing's description changed, line by line (one listing a line in both generated formats),
 * in place: the next sync updates every listing once.
 */
async function rewriteRemarks(file: string): Promise<void> {
  const next = `${file}.next`;
  const output = createWriteStream(next);
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity }))
    if (!output.write(`${line.replace('Remarks for listing', 'Remarks, updated, for listing')}\n`))
      await once(output, 'drain');
  output.end();
  await once(output, 'finish');
  renameSync(next, file);
}

/**
 * Every other listing left out of the feed, in place (one listing a line): the next sync finds half
 * the owned listings gone, and the `maxDeleteShare` guard holds their deletes back. What a broken
 * export of a big feed looks like; the run must report the held deletes, not run out of memory.
 */
async function dropHalf(file: string): Promise<void> {
  const next = `${file}.next`;
  const output = createWriteStream(next);
  let record = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    const isRecord = line.startsWith('B-') || line.startsWith('<Listing ');
    if (isRecord && record++ % 2 === 1) continue;
    if (!output.write(`${line}\n`)) await once(output, 'drain');
  }
  output.end();
  await once(output, 'finish');
  renameSync(next, file);
}

/** Every record's price made a word, in place (one listing a line): each record is rejected. */
async function rejectAll(file: string): Promise<void> {
  const next = `${file}.next`;
  const output = createWriteStream(next);
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    const rejected = line
      .replace(/^(B-\d+,[^,]*,[^,]*,)"\$[\d,]+"/, '$1call')
      .replace(/<Price currency="USD">\d+<\/Price>/, '<Price currency="USD">call</Price>');
    if (!output.write(`${rejected}\n`)) await once(output, 'drain');
  }
  output.end();
  await once(output, 'finish');
  renameSync(next, file);
}

interface Row {
  format: Format;
  listings: number;
  scenario: Scenario;
  ms: number;
  peakMb: number;
  writes: number;
  /** The run reused the last run's reading of the unchanged file (`reusedReading`). */
  reused?: boolean;
  /** CPU time the run's process used (user + system, all its threads), ms. */
  cpuMs?: number;
  /** CPU time the platform (the sandbox's process) used meanwhile, ms. */
  platformCpuMs?: number;
  /** Where the run's time went, as its report says (`phases`). */
  phases?: Report['phases'];
}

async function runSize(
  format: Format,
  listings: number,
  workDir: string,
  nodeOptions: readonly string[],
  floors: Floors[],
  latencyMs: number,
): Promise<Row[]> {
  // A copy: the rewrite changes it, and the generated file is reused by the next bench.
  const file = join(workDir, `${format}-${listings}.feed`);
  copyFileSync(await generateFeed(format, listings), file);
  const creates = await createsFloor(format, listings, workDir, latencyMs);
  const sandbox = await startSandboxProcess();
  if (latencyMs > 0) await sandbox.configure({ latencyMs });
  // The chatbot's pages as a bare client reads them, beside the no-ops they bound (the sandbox's
  // pace changes over a long run: it holds a million listings, then rewrites them).
  const readPages = () => floor(['pages', sandbox.url, `SCALE-${format}-${listings}`, '1000', '8'], listings);
  const pageReads: number[] = [];
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
    // The raw parser over the file as generated (the rewrite and the shrink change it).
    const parser = await floor([format, file], listings);
    const rows: Row[] = [];
    for (const scenario of SCENARIOS) {
      if (scenario === 'rewrite') await rewriteRemarks(file);
      if (scenario === 'shrink') await dropHalf(file);
      if (scenario === 'rejected') await rejectAll(file);
      const extra = scenario === 'no-op' || scenario === 'no-op again' ? ['--force-full'] : [];
      const args =
        scenario === 'validate'
          ? ['validate', '-c', config, '--feed', 'bench']
          : ['sync', '-c', config, '--feed', 'bench', '--json', ...extra];
      if (scenario === 'no-op') pageReads.push(await readPages());
      const platform = platformCpu(sandbox);
      const child = await runChild([CLI, ...args], { nodeOptions, env: imageMallocEnv() });
      const cpu = { cpuMs: child.cpuMs, platformCpuMs: platform() };
      // A held delete is exit 3 (EXIT.guarded): what the shrink and the rejected feed must end with.
      if (child.code !== (scenario === 'shrink' || scenario === 'rejected' ? 3 : 0))
        throw new Error(`${format} ${listings} ${scenario}: exit ${child.code}\n${child.stderr}`);
      if (scenario === 'validate') {
        // `✓ bench: 100000 records: 100000 valid, …`
        if (!child.stdout.includes(`${listings} records: ${listings} valid`))
          throw new Error(`validate of ${listings}: unexpected output ${child.stdout.slice(0, 200)}`);
        rows.push({ format, listings, scenario, ms: child.ms, peakMb: child.peakMb, writes: 0, ...cpu });
        continue;
      }
      const report = JSON.parse(child.stdout) as Report;
      const writes = report.created + report.updated + report.deleted;
      check(scenario, listings, report, writes);
      rows.push({
        format,
        listings,
        scenario,
        ms: child.ms,
        peakMb: child.peakMb,
        writes,
        ...(report.reusedReading ? { reused: true } : {}),
        ...(report.phases ? { phases: report.phases } : {}),
        ...cpu,
      });
      if (scenario === 'no-op again') pageReads.push(await readPages());
    }
    const [before, after] = pageReads as [number, number];
    // The runs' sandbox (a million listings) closed first: the floor's platform has the machine.
    await sandbox.close();
    const createsAfter = await createsFloor(format, listings, workDir, latencyMs);
    floors.push({
      format,
      listings,
      creates: createsAfter.ms < creates.ms ? createsAfter : creates,
      createsRuns: [creates.ms, createsAfter.ms],
      parser,
      pages: Math.min(before, after),
      pageReads: [before, after],
    });
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
      : scenario === 'rewrite'
        ? report.outcome === 'ok' && report.updated === listings && writes === listings
        : scenario === 'shrink'
          ? report.outcome === 'guarded' &&
            writes === 0 &&
            report.heldDeletes === Math.floor(listings / 2) &&
            report.unchanged === Math.ceil(listings / 2)
          : scenario === 'rejected'
            ? report.outcome === 'guarded' &&
              writes === 0 &&
              report.held === Math.ceil(listings / 2) &&
              report.heldOnPlatform === Math.ceil(listings / 2) &&
              report.heldDeletes === Math.floor(listings / 2)
            : report.outcome === 'ok' && writes === 0 && report.unchanged === listings;
  if (!expected) throw new Error(`${scenario} of ${listings}: unexpected report ${JSON.stringify(report)}`);
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      large: { type: 'boolean', default: false },
      million: { type: 'boolean', default: false },
      sizes: { type: 'string' },
      formats: { type: 'string' },
      /** Without the image's heap bound: V8 sizes its heap from the machine's memory. */
      unbounded: { type: 'boolean', default: false },
      /** Each request answered this many ms later, by every sandbox of the run (a platform across a network). */
      latency: { type: 'string', default: '0' },
    },
  });
  const latencyMs = Number(values.latency);
  if (!Number.isFinite(latencyMs) || latencyMs < 0)
    throw new Error(`--latency: not a number of ms: ${values.latency}`);
  const nodeOptions = values.unbounded ? [] : imageNodeArgs();
  const sizes = values.sizes
    ? values.sizes.split(',').map(Number)
    : values.million
      ? [1_000_000]
      : [1_000, 10_000, 100_000, ...(values.large ? [300_000] : [])];
  const formats = (values.formats ?? (values.million ? 'csv' : FORMATS.join(','))).split(',') as Format[];
  buildCli();
  out(`scale bench: a whole sync through the built CLI, one child process per run (${machine()})`);
  out(
    `node ${nodeOptions.length > 0 ? `${nodeOptions.join(' ')} (as the image starts node: its NODE_OPTIONS and entrypoint)` : '(unbounded heap: --unbounded)'}`,
  );
  out(`the image's allocator: ${allocator()}`);
  out(
    `sandbox in a process of its own (a new one a size), ${latencyMs > 0 ? `${latencyMs} ms latency` : 'no latency'}, concurrency 8, PageSize 1000\n`,
  );

  const baseline = await runChild(['-e', '']);
  out(`baseline: an empty Node process peaks at ${baseline.peakMb.toFixed(0)} MB\n`);
  const workDir = mkdtempSync(join(tmpdir(), 'feed-sync-bench-scale-'));
  const rows: Row[] = [];
  const floors: Floors[] = [];
  try {
    for (const format of formats)
      for (const size of sizes) {
        const measured = await runSize(format, size, workDir, nodeOptions, floors, latencyMs);
        rows.push(...measured);
        for (const r of measured)
          out(
            `  ${format} ${size} ${r.scenario}: ${fmtMs(r.ms)}, peak ${r.peakMb.toFixed(0)} MB${r.reused ? ' (the feed reading reused)' : ''}`,
          );
      }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const { head, body } = tableOf(rows);
  out('');
  printTable(head, body);
  const verdicts = [...verdictsOf(rows), ...floorVerdicts(rows, floors)];
  out('');
  for (const v of verdicts) out(v);
  const name = `${values.million ? 'scale-million' : 'scale'}${latencyMs > 0 ? `-latency-${latencyMs}ms` : ''}`;
  save(name, rows, head, body, verdicts, baseline.peakMb, nodeOptions, latencyMs);
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
    'CPU: run + platform',
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
    r.cpuMs === undefined || r.platformCpuMs === undefined || !Number.isFinite(r.platformCpuMs)
      ? ''
      : `${fmtMs(r.cpuMs)} + ${fmtMs(r.platformCpuMs)}`,
  ]);
  return { head, body };
}

/** The goal lines: 100k peak against the bound, 300k against 100k. */
function verdictsOf(rows: readonly Row[]): string[] {
  const lines: string[] = [];
  const at = (f: Format, n: number, s: Scenario) =>
    rows.find((r) => r.format === f && r.listings === n && r.scenario === s);
  for (const f of FORMATS)
    for (const s of ['initial', 'no-op', 'no-op again', 'rewrite', 'shrink', 'rejected'] as const) {
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

/** Each size against its floors (issue 23 §2); the RSS bound only at 1M. */
function floorVerdicts(rows: readonly Row[], floors: readonly Floors[]): string[] {
  const lines: string[] = [];
  for (const f of floors) {
    // The goals are issue 23 §2's, at a million listings; a smaller size shows its ratios alone (its
    // time is mostly the process's start).
    const met = (ok: boolean) =>
      f.listings >= 1_000_000 ? (ok ? '(met)' : '(NOT met)') : '(the goal is at 1M)';
    const at = (s: Scenario) =>
      rows.find((r) => r.format === f.format && r.listings === f.listings && r.scenario === s);
    const initial = at('initial');
    const noop = at('no-op');
    const again = at('no-op again');
    const rewrite = at('rewrite');
    const validate = at('validate');
    if (!initial || !noop || !validate) continue;
    const bound = Math.max(validate.ms, f.creates.ms);
    const id = `${f.format} ${f.listings}`;
    lines.push(
      `${id} floors: raw parser ${fmtMs(f.parser)}, page read ${fmtMs(f.pages)} (the faster of ${fmtMs(f.pageReads[0])} before the first no-op and ${fmtMs(f.pageReads[1])} after the second), ${f.listings} creates ${fmtMs(f.creates.ms)} (the faster of ${fmtMs(f.createsRuns[0])} before the runs and ${fmtMs(f.createsRuns[1])} after them), validate ${fmtMs(validate.ms)}`,
      `${id} no-op (the first after the initial: every page decoded) ÷ page read: ${ratio(noop.ms, f.pages)} (goal ≤ ${NOOP_GOAL}×) ${met(noop.ms / f.pages <= NOOP_GOAL)}; ÷ the larger of parser and pages: ${ratio(noop.ms, Math.max(f.parser, f.pages))}`,
      ...(again
        ? [
            `${id} no-op again (the pages known from the run before) ÷ page read: ${ratio(again.ms, f.pages)} (goal ≤ ${NOOP_GOAL}×) ${met(again.ms / f.pages <= NOOP_GOAL)}`,
          ]
        : []),
      `${id} initial ÷ the larger of validate and the creates: ${ratio(initial.ms, bound)} (goal ≤ ${INITIAL_GOAL}×) ${met(initial.ms / bound <= INITIAL_GOAL)}`,
      ...phaseLines(id, initial, validate.ms, f.creates.ms),
      ...cpuLines(
        id,
        f,
        [initial, noop, again].filter((r) => r !== undefined),
        bound,
      ),
    );
    if (f.listings >= 1_000_000)
      for (const r of [initial, noop, again, rewrite, at('shrink'), at('rejected')].filter(
        (r) => r !== undefined,
      ))
        lines.push(
          `${id} ${r.scenario}: peak ${r.peakMb.toFixed(0)} MB (goal ≤ ${MILLION_RSS_MB} MB) ${met(r.peakMb <= MILLION_RSS_MB)}`,
        );
  }
  return lines;
}

/**
 * Where the initial sync's time went, as its own report says (`phases`): the feed read against
 * `validate` (the same read, without digests, tags or the spill file), the writes against the raw
 * creates. The platform is idle while the feed is read (no create can go before the plan), so the
 * initial's least is about the two added, not the larger.
 */
function phaseLines(id: string, initial: Row, validateMs: number, createsMs: number): string[] {
  const p = initial.phases;
  if (!p) return [];
  const rest = initial.ms - (p.feedMs + p.pagesMs + p.planMs + p.writesMs);
  return [
    `${id} initial, where its time went (its report's phases): feed read ${fmtMs(p.feedMs)} (${ratio(p.feedMs, validateMs)} validate), pages ${fmtMs(p.pagesMs)}, plan ${fmtMs(p.planMs)}, writes ${fmtMs(p.writesMs)} (${ratio(p.writesMs, createsMs)} the raw creates), the process's start and exit ${fmtMs(rest)}; ÷ validate + the creates: ${ratio(initial.ms, validateMs + createsMs)}`,
  ];
}

/**
 * Where the time goes on this machine's CPUs: each run's CPU and the platform's, and the least time
 * they allow when spread over every CPU (`cpuFloorMs`), against the run's own bound. A run whose CPU
 * floor is above its goal cannot meet the goal here by overlapping its work better: only by using
 * less CPU (or with the platform on another machine, as in production).
 */
function cpuLines(id: string, f: Floors, runs: readonly Row[], initialBound: number): string[] {
  // The platform's CPU comes from /proc: where there is none, there is nothing to add up.
  if (!Number.isFinite(f.creates.platformCpuMs)) return [];
  const cpus = availableParallelism();
  const lines = [
    `${id} CPU on ${cpus} CPUs (the run's process, all its threads, + the platform's): ${f.listings} raw creates ${fmtMs(f.creates.cpuMs)} + ${fmtMs(f.creates.platformCpuMs)}, at least ${fmtMs(cpuFloorMs(f.creates))} spread over the CPUs (${ratio(cpuFloorMs(f.creates), f.creates.ms)} their time)`,
  ];
  for (const r of runs) {
    if (
      r.cpuMs === undefined ||
      r.platformCpuMs === undefined ||
      !Number.isFinite(r.cpuMs) ||
      !Number.isFinite(r.platformCpuMs)
    )
      continue;
    const least = cpuFloorMs({ cpuMs: r.cpuMs, platformCpuMs: r.platformCpuMs });
    const bound = r.scenario === 'initial' ? initialBound : f.pages;
    lines.push(
      `${id} ${r.scenario}: CPU ${fmtMs(r.cpuMs)} + the platform's ${fmtMs(r.platformCpuMs)}, at least ${fmtMs(least)} spread over the CPUs = ${ratio(least, bound)} its bound (the run took ${ratio(r.ms, bound)})`,
    );
  }
  return lines;
}

const COLORS: Record<string, string> = {
  'csv initial': '#1f77b4',
  'csv no-op': '#7fb2e0',
  'csv no-op again': '#aec7e8',
  'xml initial': '#d62728',
  'xml no-op': '#f0a0a0',
  'csv rewrite': '#2ca02c',
  'xml rewrite': '#98df8a',
  'csv shrink': '#9467bd',
  'xml shrink': '#c5b0d5',
  'csv rejected': '#8c564b',
  'xml rejected': '#c49c94',
};

function save(
  name: string,
  rows: readonly Row[],
  head: string[],
  body: string[][],
  verdicts: string[],
  baselineMb: number,
  nodeOptions: readonly string[],
  latencyMs: number,
) {
  const heap =
    nodeOptions.length > 0
      ? `node ${nodeOptions.join(' ')} (as the image starts node: its NODE_OPTIONS and entrypoint), ${allocator()}`
      : 'unbounded heap';
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const where = machine();
  writeFileSync(
    join(RESULTS, `${name}.json`),
    `${JSON.stringify({ when, machine: where, nodeOptions, latencyMs, baselineMb, rows }, null, 2)}\n`,
  );
  writeFileSync(
    join(RESULTS, `${name}.md`),
    `Scale curve, ${when} UTC, ${where} (\`npm run bench -- scale${name.startsWith('scale-million') ? ' --million' : rows.some((r) => r.listings >= 300_000) ? ' --large' : ''}${latencyMs > 0 ? ` --latency ${latencyMs}` : ''}\`), built CLI, ${heap}, ${latencyMs > 0 ? `the platform answering ${latencyMs} ms late` : 'the platform answering at once'}.\n\n${markdownTable(head, body)}\n${verdicts.map((v) => `- ${v}`).join('\n')}\n`,
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
    `feed-sync sync via the built CLI, ${heap}, sandbox ${latencyMs > 0 ? `with ${latencyMs} ms latency` : 'without latency'}, concurrency 8. ${when} UTC, ${where}.`,
  );
  writeFileSync(join(RESULTS, `${name}.svg`), svg);
  out(`\nwritten: bench/results/${name}.{json,md,svg}`);
}
