/**
 * `npm run bench -- noop [--listings 9950] [--latency 50] [--page-size 1000] [--rounds 5]
 * [--format csv] [--profile DIR]`: a no-op re-sync as a user meets it, `feed-sync sync` as a whole
 * process, against its floor measured in the same run. The CLI is the built one (`npm run build`,
 * done first) with the image's NODE_OPTIONS, entrypoint flags and compile cache, as the container runs it.
 *
 * The sandbox runs in its own process (as the platform is remote). A generated feed is synced
 * once without latency (every listing created, tagged as a sync writes it), then latency is
 * switched on and each round measures, each in a process of its own: the raw parser reading the
 * feed (csv-parse, fast-xml-parser: `bench/lib/floor-reads.mjs`), the list pages read as the
 * snapshot reads them (the first, then the rest `concurrency` at a time; plain `fetch`), and
 * `feed-sync sync --force-full` (every listing compared, nothing written). The floor is the larger
 * of the two reads; goal (issue 23 §3): the no-op ≤ 1.5× it. The table also shows the sandbox's
 * own CPU (from /proc) while it serves the page read and the no-op: the platform's work, which on
 * this machine shares the CPUs with the run measured, the no-op's own CPU (its process, every
 * thread), and the least time the two allow spread over the machine's CPUs, against the floor: a
 * figure above the goal says the run is CPU-bound here, whatever overlaps. `--profile DIR` writes the CLI's CPU
 * profiles (`--cpu-prof`) there; `--cli PATH` measures another build, or a checkout's
 * `bin/feed-sync.js` (the TypeScript sources, as `npx feed-sync` runs them).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runChild } from './lib/child.ts';
import {
  BUILT_CLI,
  buildCli,
  cpuFloorMs,
  floorMs,
  imageEnv,
  imageNodeArgs,
  type SyncReport,
} from './lib/cli.ts';
import { type Format, feedEntry, generateFeed } from './lib/feeds.ts';
import { startSandboxProcess } from './lib/sandbox-process.ts';
import { fmtMs, machine, median, out, printTable, ratio } from './lib/table.ts';

const GOAL = 1.5;
const CONCURRENCY = 8;

/** `feed-sync sync` as the image runs it: its heap bound and its compile cache. */
async function sync(cli: string, config: string, extra: string[], nodeOptions: string[] = []) {
  const child = await runChild([cli, 'sync', '-c', config, '--feed', 'bench', '--json', ...extra], {
    nodeOptions: [...imageNodeArgs(), ...nodeOptions],
    env: imageEnv(),
  });
  if (child.code !== 0) throw new Error(`feed-sync sync: exit ${child.code}\n${child.stderr}`);
  return { ms: child.ms, cpuMs: child.cpuMs, report: JSON.parse(child.stdout) as SyncReport };
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      listings: { type: 'string', default: '9950' },
      latency: { type: 'string', default: '50' },
      'page-size': { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '5' },
      format: { type: 'string', default: 'csv' },
      profile: { type: 'string' },
      /** The `feed-sync` measured: another build's, or a checkout's `bin/feed-sync.js` (its sources). */
      cli: { type: 'string', default: BUILT_CLI },
    },
  });
  const count = Number(values.listings);
  const latencyMs = Number(values.latency);
  const pageSize = Number(values['page-size']);
  const format = values.format as Format;
  if (resolve(values.cli) === BUILT_CLI) buildCli();
  const file = await generateFeed(format, count);
  const sandbox = await startSandboxProcess();
  const dir = mkdtempSync(join(tmpdir(), 'feed-sync-bench-noop-'));
  try {
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        api: { baseUrl: sandbox.url, concurrency: CONCURRENCY, pageSize },
        stateFile: join(dir, 'state.json'),
        feeds: [feedEntry(format, file, 'bench', 'NOOP')],
      }),
    );
    // Seeding also fills the compile cache, as the image's build does.
    const seeded = await sync(resolve(values.cli), config, []);
    if (seeded.report.created !== count) throw new Error(`seeding: ${JSON.stringify(seeded.report)}`);
    await sandbox.configure({ latencyMs });
    out(
      `noop bench: \`feed-sync sync\` of ${count} unchanged listings (${format}), ${latencyMs} ms latency, concurrency ${CONCURRENCY}, PageSize ${pageSize} (${machine()})`,
    );
    out(
      `floor = the larger of the raw parser reading the feed and reading the pages (first, then ${CONCURRENCY} at a time), each a process of its own; goal: no-op ≤ ${GOAL}× floor\n`,
    );
    const rows: string[][] = [];
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    const profile = values.profile ? ['--cpu-prof', '--cpu-prof-dir', resolve(values.profile)] : [];
    for (let round = 1; round <= Number(values.rounds); round++) {
      const parser = await floorMs([format, file], count);
      const beforePages = sandbox.cpuMs();
      const pages = await floorMs(
        ['pages', sandbox.url, 'NOOP', String(pageSize), String(CONCURRENCY)],
        count,
      );
      const beforeNoop = sandbox.cpuMs();
      const noop = await sync(resolve(values.cli), config, ['--force-full'], profile);
      const afterNoop = sandbox.cpuMs();
      const platformCpu = (from: number | undefined, to: number | undefined) =>
        from === undefined || to === undefined ? 'n/a' : fmtMs(to - from);
      const r = noop.report;
      if (r.created + r.updated + r.deleted !== 0 || r.unchanged !== count)
        throw new Error(`not a no-op: ${JSON.stringify(r)}`);
      const bound = Math.max(parser, pages);
      ratios.push(noop.ms / bound);
      // The least time the run's CPU and the platform's allow, spread over every CPU at once.
      const platformMs = beforeNoop === undefined || afterNoop === undefined ? 0 : afterNoop - beforeNoop;
      const least = cpuFloorMs({ cpuMs: noop.cpuMs, platformCpuMs: platformMs });
      cpuRatios.push(least / bound);
      rows.push([
        String(round),
        fmtMs(parser),
        fmtMs(pages),
        fmtMs(noop.ms),
        ratio(noop.ms, bound),
        platformCpu(beforePages, beforeNoop),
        platformCpu(beforeNoop, afterNoop),
        fmtMs(noop.cpuMs),
        ratio(least, bound),
      ]);
    }
    printTable(
      [
        'round',
        'raw parser',
        'read pages',
        'no-op sync',
        'ratio',
        'sandbox CPU: pages',
        'sandbox CPU: no-op',
        'no-op CPU',
        `its CPU and the sandbox's ÷ ${availableParallelism()} CPUs ÷ floor`,
      ],
      rows,
    );
    // The sandbox (the platform) runs on this machine's CPUs too: what it spends serving the pages is
    // CPU the no-op's two threads do not have while they run (a real platform's is not ours).
    // Rounds alternate the measurements, so a busy neighbour slows all alike; the median is the figure.
    const figure = median(ratios);
    out(`\nmedian ratio: ${figure.toFixed(2)}× (goal ≤ ${GOAL}×: ${figure <= GOAL ? 'met' : 'NOT met'})`);
    // No arrangement of the run's work ends before its CPU and the platform's, on every CPU at once.
    out(
      `the least time the no-op's CPU and the sandbox's allow on ${availableParallelism()} CPUs: median ${median(cpuRatios).toFixed(2)}× the floor`,
    );
    if (values.profile)
      out(`\nCPU profiles of the no-op runs: ${resolve(values.profile)} (open in Chrome DevTools)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}
