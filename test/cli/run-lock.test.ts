import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { heldReason, lockFeedRun, lockPathOf } from '../../src/state/run-lock.ts';
import { csvFeedConfig, csvRow, HEADER } from '../helpers/cli-feed.ts';

const NODE = join(process.cwd(), 'node_modules/.bin/node');
const BIN = join(process.cwd(), 'bin/feed-sync.js');
const BOT = 'LOCK-BOT';

let dir: string;
let sandbox: Sandbox | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await sandbox?.close();
  sandbox = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'feed-sync-lock-'));
  return dir;
}

describe('lockFeedRun', () => {
  it('one run of a feed at a time, beside the state file; other feeds are not held (state/file-lock.ts)', async () => {
    const state = join(await folder(), 'state.json');
    const first = lockFeedRun(state, 'acme', new Date('2026-11-29T10:00:00Z'));
    if (!('lock' in first)) throw new Error('the first run did not get the lock');
    expect(lockPathOf(state, 'acme')).toBe(join(dir, '.feed-sync-locks', 'acme.lock'));
    const second = lockFeedRun(state, 'acme');
    expect(second).toEqual({ heldBy: expect.objectContaining({ pid: process.pid, host: hostname() }) });
    if ('heldBy' in second)
      expect(heldReason('acme', second.heldBy, lockPathOf(state, 'acme'))).toBe(
        `another run of feed acme is going on (process ${process.pid} on ${hostname()}, started 2026-11-29T10:00:00.000Z); this one was skipped, that one syncs it`,
      );
    const other = lockFeedRun(state, 'globex');
    expect('lock' in other).toBe(true);
    first.lock.release();
    if ('lock' in other) other.lock.release();
    expect(await readdir(join(dir, '.feed-sync-locks'))).toEqual([]);
  });
});

/** A folder with a config and a feed of `rows` rows against a sandbox at `latencyMs`. */
async function cliFeed(rows: number, latencyMs: number) {
  const at = await folder();
  sandbox = await startSandbox({ latencyMs });
  const config = join(at, 'feed-sync.yaml');
  await writeFile(
    config,
    csvFeedConfig(sandbox.url, { id: 'acme', chatbot: BOT, api: 'concurrency: 2, pageSize: 50' }),
  );
  await writeFile(
    join(at, 'feed.csv'),
    HEADER + Array.from({ length: rows }, (_, i) => csvRow(i + 1)).join(''),
  );
  const start = (...args: string[]) => {
    const child = spawn(NODE, [BIN, 'sync', '--feed', 'acme', '--json', '--config', config, ...args], {
      cwd: at,
    });
    children.push(child);
    let stdout = '';
    child.stdout?.on('data', (d) => (stdout += d));
    const done = new Promise<{ code: number | null; report: Record<string, unknown> }>((resolve) =>
      child.on('close', (code) => resolve({ code, report: stdout ? JSON.parse(stdout) : {} })),
    );
    return { child, done };
  };
  const locked = () => existsSync(lockPathOf(join(at, 'state.json'), 'acme'));
  const until = async (ready: () => boolean) => {
    while (!ready()) await new Promise((r) => setTimeout(r, 10));
  };
  return { start, locked, until, platform: sandbox };
}

describe('two `feed-sync sync` of one feed at once', () => {
  it('the second is skipped and says which run holds the feed; the first syncs it, once; no lock is left', async () => {
    const t = await cliFeed(60, 60);
    const first = t.start();
    await t.until(t.locked);
    const second = await t.start().done;
    expect(second.code).toBe(0);
    expect(second.report).toMatchObject({ outcome: 'skipped', created: 0, apiCalls: { create: 0, list: 0 } });
    expect(second.report.reason).toMatch(
      /^another run of feed acme is going on \(process \d+ on .+, started .+\); this one was skipped/,
    );
    const done = await first.done;
    expect(done).toMatchObject({ code: 0, report: { outcome: 'ok', created: 60 } });
    const keys = t.platform.listings(BOT).map((l) => l.MLSNumber);
    expect(keys).toHaveLength(60);
    expect(new Set(keys).size).toBe(60);
    expect(t.locked()).toBe(false);
    // The everyday case beside it: runs one after the other each run (no lock is left to skip them).
    expect(await t.start().done).toMatchObject({ code: 0, report: { outcome: 'ok', unchanged: 60 } });
    expect(await t.start('--dry-run').done).toMatchObject({
      code: 0,
      report: { outcome: 'ok', dryRun: true },
    });
  });

  it('a run killed outright leaves its lock; the next run takes it over and repairs the feed', async () => {
    const t = await cliFeed(60, 60);
    const killed = t.start();
    await t.until(() => t.locked() && t.platform.listings(BOT).length >= 4);
    killed.child.kill('SIGKILL');
    await killed.done;
    expect(t.locked()).toBe(true);
    const next = await t.start().done;
    expect(next).toMatchObject({ code: 0, report: { outcome: 'ok' } });
    const keys = t.platform.listings(BOT).map((l) => l.MLSNumber);
    expect(new Set(keys).size).toBe(60);
    expect(keys).toHaveLength(60);
    expect(t.locked()).toBe(false);
  });
});
