import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvFeedConfig, csvRow, HEADER } from '../helpers/cli-feed.ts';

/**
 * `validate --feed big --json` prints every listing of the feed. It did so from one array and one
 * string: 100k listings ran out of the image's heap (160 MB). Each listing is now read back from a
 * temporary file and printed on its own, so a heap far smaller than the feed's listings suffices.
 */
const ROOT = process.cwd();
const NODE = join(ROOT, 'node_modules/.bin/node');
const BIN = join(ROOT, 'bin/feed-sync.js');
const ROWS = 40_000;
/** Far below what 40k listings take as objects (~60 MB) or as one printed string (~20 MB, twice). */
const HEAP_MB = 32;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'feed-sync-validate-json-'));
  const rows: string[] = [];
  for (let i = 0; i < ROWS; i++) rows.push(csvRow(i, { price: 100_000 + i }));
  await writeFile(join(dir, 'feed.csv'), HEADER + rows.join(''));
  await writeFile(
    join(dir, 'feed-sync.yaml'),
    csvFeedConfig('http://127.0.0.1:9', { id: 'big', chatbot: 'BIG' }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('validate --json of a large feed', () => {
  it(`prints all ${ROWS} listings under a ${HEAP_MB} MB heap, read by a pipe`, async () => {
    const child = spawn(
      NODE,
      [`--max-old-space-size=${HEAP_MB}`, BIN, 'validate', '--feed', 'big', '--json'],
      {
        cwd: dir,
        env: { ...process.env, LOG_LEVEL: 'warn' },
      },
    );
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).not.toContain('heap out of memory');
    expect(code).toBe(0);
    const report = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
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
});
