/**
 * `npm run bench -- ingest [--sizes 123000] [--formats csv,xml] [--rounds 3]`: records per second
 * of `feed-sync validate` (fetch from disk, parse, map, validate, dedupe: the ingest a sync runs
 * first) as a whole process, beside the raw parser alone on the same file as a whole process
 * (csv-parse streamed; fast-xml-parser over the whole document, it cannot stream:
 * `bench/lib/floor-reads.mjs`). Both count their process start-up, as a user meets them. Rounds
 * alternate the two; the median ratio is the figure. Goal (issue 23 §3): ≥ 0.7× with margin.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runChild } from './lib/child.ts';
import { BUILT_CLI, buildCli, FLOOR, imageEnv } from './lib/cli.ts';
import { type Format, feedEntry, generateFeed } from './lib/feeds.ts';
import { machine, median, out, printTable } from './lib/table.ts';

const GOAL = 0.7;

interface Measure {
  ms: number;
  peakMb: number;
}

async function raw(format: Format, file: string, records: number): Promise<Measure> {
  const child = await runChild([FLOOR, format, file]);
  if (child.code !== 0 || Number(child.stdout) !== records)
    throw new Error(`raw ${format}: exit ${child.code}, ${child.stdout} records\n${child.stderr}`);
  return child;
}

async function validate(cli: string, config: string, records: number): Promise<Measure> {
  const child = await runChild([cli, 'validate', '-c', config, '--feed', 'bench'], { env: imageEnv() });
  // `✓ bench: 123000 records: 123000 valid, …`
  if (child.code !== 0 || !child.stdout.includes(`${records} records: ${records} valid`))
    throw new Error(`validate: exit ${child.code}: ${child.stdout.slice(0, 300)}\n${child.stderr}`);
  return child;
}

const perSecond = (records: number, m: Measure) => records / (m.ms / 1000);

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      sizes: { type: 'string', default: '123000' },
      formats: { type: 'string', default: 'csv,xml' },
      rounds: { type: 'string', default: '3' },
      /** The `feed-sync` measured: another build's, or a checkout's `bin/feed-sync.js` (its sources). */
      cli: { type: 'string', default: BUILT_CLI },
    },
  });
  const sizes = values.sizes.split(',').map(Number);
  const formats = values.formats.split(',') as Format[];
  const cli = resolve(values.cli);
  if (cli === BUILT_CLI) buildCli();
  out(`ingest bench: \`feed-sync validate\` against the raw parser, each a whole process (${machine()})`);
  out(`rounds alternate the two; ratio = validate's records/s ÷ the raw parser's; goal ≥ ${GOAL}×\n`);
  const dir = mkdtempSync(join(tmpdir(), 'feed-sync-bench-ingest-'));
  const rows: string[][] = [];
  const verdicts: string[] = [];
  try {
    for (const format of formats)
      for (const size of sizes) {
        const file = await generateFeed(format, size);
        const config = join(dir, `${format}-${size}.json`);
        writeFileSync(
          config,
          JSON.stringify({
            api: { baseUrl: 'http://127.0.0.1:9' },
            feeds: [feedEntry(format, file, 'bench', 'SN-BENCH')],
          }),
        );
        const ratios: number[] = [];
        for (let round = 1; round <= Number(values.rounds); round++) {
          const parser = await raw(format, file, size);
          const ingest = await validate(cli, config, size);
          const r = perSecond(size, ingest) / perSecond(size, parser);
          ratios.push(r);
          rows.push([
            format,
            String(size),
            String(round),
            String(Math.round(perSecond(size, parser))),
            String(Math.round(perSecond(size, ingest))),
            `${r.toFixed(2)}×`,
            `${parser.peakMb.toFixed(0)} MB`,
            `${ingest.peakMb.toFixed(0)} MB`,
          ]);
        }
        const m = median(ratios);
        verdicts.push(
          `${format} ${size}: median ${m.toFixed(2)}× (goal ≥ ${GOAL}×: ${m >= GOAL ? 'met' : 'NOT met'})`,
        );
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(
    ['format', 'records', 'round', 'raw rec/s', 'validate rec/s', 'ratio', 'raw RSS', 'validate RSS'],
    rows,
  );
  out('');
  for (const v of verdicts) out(v);
  out(`\nfiles: ${tmpdir()}/feed-sync-bench-*`);
}
