import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { csvFeedConfig, csvRow, HEADER } from '../helpers/cli-feed.ts';
import { waitFor } from './helpers.ts';

/**
 * Issue 19 as a user met it: a scheduled worker on the embedded store, a feed whose export carries a
 * row without an MLS number every day. The listings that leave the feed must leave the chatbot, also
 * after the worker is killed with SIGKILL in the middle of a run.
 */
const ROOT = process.cwd();
const NODE = join(ROOT, 'node_modules/.bin/node');
const BOT = 'WORKER-GONE-BOT';
const children: ChildProcess[] = [];
let dir = '';
let sandbox: Sandbox | undefined;

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const NO_KEY = ',Active,Condo,410000,3,2,1200,0,2024,0,1,https://gone.example/l/coming-soon\n';
const rows = (ns: number[]) => ns.map((n) => csvRow(n, { host: 'gone.example' })).join('');
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const feed = (text: string) => writeFile(join(dir, 'feed.csv'), HEADER + text);
const keys = () =>
  (sandbox?.listings(BOT) ?? [])
    .map((l) => String(l.MLSNumber))
    .sort((a, b) => Number(a.slice(2)) - Number(b.slice(2)));
const names = (ns: number[]) => ns.map((n) => `M-${n}`);

function worker() {
  const child = spawn(NODE, [join(ROOT, 'src/cli/main.ts'), 'worker', '-c', join(dir, 'feed-sync.yaml')], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      FEED_SYNC_STATE_DIR: join(dir, '.feed-sync'),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let log = '';
  child.stderr?.on('data', (chunk) => {
    log += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, log: () => log };
}

describe('a scheduled worker with a keyless row in its feed', () => {
  it('deletes the listings that left the feed, and converges after a kill -9 mid-run', async () => {
    dir = await mkdtemp(join(tmpdir(), 'feed-sync-gone-worker-'));
    sandbox = await startSandbox();
    const config = csvFeedConfig(sandbox.url, {
      id: 'gone-feed',
      chatbot: BOT,
      api: 'concurrency: 2, pageSize: 50',
      feed: 'schedule: { cron: "*/2 * * * * *", timezone: UTC }',
    });
    // A short lock: the run the kill cut short is taken over in seconds, not half a minute.
    await writeFile(
      join(dir, 'feed-sync.yaml'),
      `${config}worker: { lockDurationMs: 3000, stalledIntervalMs: 2000 }\n`,
    );
    await feed(rows(range(1, 46)));

    const first = worker();
    await waitFor(() => keys().length === 46, 60_000, 'the first sync');

    // Day 2: three listings sold and left the export; a coming-soon row has no MLS number yet.
    const day2 = range(1, 46).filter((n) => ![10, 20, 30].includes(n));
    await feed(rows(day2) + NO_KEY);
    await waitFor(() => keys().join() === names(day2).join(), 30_000, 'the three deletes');

    // Day 3, slowly: 40 new listings at 150 ms a call, 2 at a time; the worker dies mid-run.
    const day3 = [...day2.filter((n) => n !== 40), ...range(100, 139)];
    sandbox.configure({ latencyMs: 150 });
    await feed(rows(day3) + NO_KEY);
    await waitFor(() => keys().length > day2.length + 5, 30_000, 'the run to be under way');
    first.child.kill('SIGKILL');
    await first.exited;
    expect(keys().length).toBeLessThan(day3.length + 1);
    sandbox.configure({ latencyMs: 0 });

    // The next worker repairs the rest: every listing of the feed once, M-40 gone, no duplicate.
    const second = worker();
    await waitFor(() => keys().join() === names(day3).join(), 120_000, 'the repair');
    const ids = (sandbox.listings(BOT) ?? []).map((l) => l.MLSNumber);
    expect(new Set(ids).size).toBe(ids.length);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(second.log()).not.toMatch(/unkeyed-rejections[^\n]*TRIPPED|"outcome":"guarded"/);
  }, 240_000);
});
