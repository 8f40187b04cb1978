import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { csvFeedConfig, csvRow, HEADER } from '../helpers/cli-feed.ts';

/**
 * `validate --feed big --json` prints every listing of the feed, and `plan --feed big --json` every
 * record the run would send. Both did so from one array and one string: 100k listings ran out of
 * the image's heap (160 MB). Each record is now read back from the run's temporary file and printed
 * on its own, so a heap far smaller than the feed's listings suffices.
 */
const ROOT = process.cwd();
const NODE = join(ROOT, 'node_modules/.bin/node');
const BIN = join(ROOT, 'bin/feed-sync.js');
const ROWS = 80_000;
/** Half what 80k listings take as objects (~120 MB); the CLI itself, run from its sources, takes ~30. */
const HEAP_MB = 64;

let dir: string;
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'feed-sync-json-memory-'));
  const rows: string[] = [];
  for (let i = 0; i < ROWS; i++) rows.push(csvRow(i, { price: 100_000 + i }));
  await writeFile(join(dir, 'feed.csv'), HEADER + rows.join(''));
  await writeFile(
    join(dir, 'feed-sync.yaml'),
    csvFeedConfig(sandbox.url, { id: 'big', chatbot: 'BIG', api: 'concurrency: 8, pageSize: 1000' }),
  );
});
afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** `feed-sync ARGS` under a heap of HEAP_MB, its stdout read through a pipe. */
async function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(NODE, [`--max-old-space-size=${HEAP_MB}`, BIN, ...args], {
    cwd: dir,
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, stdout: Buffer.concat(chunks).toString('utf8'), stderr };
}

describe('--json of a large feed', () => {
  it(`validate prints all ${ROWS} listings under a ${HEAP_MB} MB heap, read by a pipe`, async () => {
    const { code, stdout, stderr } = await cli(['validate', '--feed', 'big', '--json']);
    expect(stderr).not.toContain('heap out of memory');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      feeds: {
        feedId: string;
        ok: boolean;
        result: { stats: { valid: number }; listings: { MLSNumber: string; SalePrice: number }[] };
      }[];
    };
    const [feed] = report.feeds;
    expect(feed?.ok).toBe(true);
    expect(feed?.result.stats.valid).toBe(ROWS);
    expect(feed?.result.listings).toHaveLength(ROWS);
    expect(feed?.result.listings[0]).toMatchObject({ MLSNumber: 'M-0', SalePrice: 100_000 });
    expect(feed?.result.listings[ROWS - 1]).toMatchObject({
      MLSNumber: `M-${ROWS - 1}`,
      SalePrice: 100_000 + ROWS - 1,
    });
  }, 60_000);

  it(`plan prints all ${ROWS} creates with their records, then the report, under a ${HEAP_MB} MB heap`, async () => {
    const { code, stdout, stderr } = await cli(['plan', '--feed', 'big', '--json']);
    expect(stderr).not.toContain('heap out of memory');
    expect(code).toBe(0);
    const { plan, report } = JSON.parse(stdout) as {
      plan: {
        creates: { key: string; listing: { MLSNumber: string; SalePrice: number } }[];
        updates: unknown[];
      };
      report: { dryRun: boolean };
    };
    expect(plan.creates).toHaveLength(ROWS);
    expect(plan.updates).toEqual([]);
    const last = plan.creates.find((c) => c.key === `M-${ROWS - 1}`);
    expect(last?.listing).toMatchObject({ MLSNumber: `M-${ROWS - 1}`, SalePrice: 100_000 + ROWS - 1 });
    expect(report).toMatchObject({ dryRun: true });
    // A plan is a dry run: nothing was written.
    expect(sandbox.listings('BIG')).toHaveLength(0);
  }, 60_000);
});
