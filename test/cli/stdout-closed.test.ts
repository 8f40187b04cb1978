import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { csvFeedConfig, csvRow, HEADER } from '../helpers/cli-feed.ts';

/**
 * A reader of stdout gone early (`feed-sync … | head`) stops the printing, not the command, also
 * for the commands that start the decode thread before the program loads (`plan`, `sync`): a worker
 * thread's stdio pipe adds an 'error' listener to stdout, which rethrew the EPIPE as a stack trace,
 * exit 1, and left `sync --all`'s later feeds unsynced (found by a tester).
 */
const ROOT = process.cwd();
const NODE = join(ROOT, 'node_modules/.bin/node');
const BIN = join(ROOT, 'bin/feed-sync.js');
const ROWS = 2_000;

let dir: string;
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'feed-sync-stdout-closed-'));
  const rows: string[] = [];
  for (let i = 0; i < ROWS; i++) rows.push(csvRow(i));
  await writeFile(join(dir, 'feed.csv'), HEADER + rows.join(''));
  await mkdir(join(dir, 'two'));
  await writeFile(join(dir, 'two', 'feed.csv'), HEADER + rows.slice(0, 3).join(''));
  const first = csvFeedConfig(sandbox.url, { id: 'first', chatbot: 'HEAD-1' });
  const second = csvFeedConfig(sandbox.url, { id: 'second', chatbot: 'HEAD-2' })
    .split('feeds:\n')[1]
    ?.replace('path: feed.csv', 'path: two/feed.csv');
  const third = csvFeedConfig(sandbox.url, { id: 'third', chatbot: 'HEAD-3' }).split('feeds:\n')[1];
  await writeFile(join(dir, 'feed-sync.yaml'), `${first}${second}${third}`);
});
afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * `feed-sync ARGS`, its stdout's reader gone after `read` chunks (0: before anything is printed);
 * with `stderr: 'closed'`, its stderr's reader gone at once too (`2>&1 | head`).
 */
async function closedEarly(
  args: string[],
  read: number,
  options: { stderr?: 'closed' } = {},
): Promise<{ code: number | null; stderr: string }> {
  // Info lines on stderr when it is closed: what a run writes there as it goes.
  const level = options.stderr === 'closed' ? 'info' : 'warn';
  const child = spawn(NODE, [BIN, ...args], { cwd: dir, env: { ...process.env, LOG_LEVEL: level } });
  let stderr = '';
  if (options.stderr === 'closed') child.stderr.destroy();
  else
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
  let chunks = 0;
  if (read === 0) child.stdout.destroy();
  else
    child.stdout.on('data', () => {
      if (++chunks === read) child.stdout.destroy();
    });
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, stderr };
}

describe('a reader of stdout gone early (| head)', () => {
  it('plan --json ends quietly with exit 0', async () => {
    const { code, stderr } = await closedEarly(['plan', '--feed', 'first', '--json'], 1);
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  }, 60_000);

  it('sync --all syncs every feed and ends with its own exit code', async () => {
    const { code, stderr } = await closedEarly(['sync', '--all'], 0);
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
    expect(sandbox.listings('HEAD-1')).toHaveLength(ROWS);
    expect(sandbox.listings('HEAD-2')).toHaveLength(3);
  }, 60_000);

  it('sync with stdout and stderr both gone (2>&1 | head) writes every listing and ends with its exit code', async () => {
    const { code } = await closedEarly(['sync', '--feed', 'third'], 0, { stderr: 'closed' });
    expect(code).toBe(0);
    expect(sandbox.listings('HEAD-3')).toHaveLength(ROWS);
  }, 60_000);
});
