import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { heldReason, lockFeedRun, lockPathOf } from '../../src/cli/run-lock.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
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

/** A process that has ended: its pid is no live process's (until the kernel hands it out again). */
async function deadPid(): Promise<number> {
  const child = spawn(NODE, ['-e', '']);
  await new Promise((done) => child.on('close', done));
  return child.pid as number;
}

describe('lockFeedRun', () => {
  it('one run of a feed at a time: a second is told who holds it; released, the next takes it', async () => {
    const state = join(await folder(), 'state.json');
    const first = lockFeedRun(state, 'acme', new Date('2026-11-29T10:00:00Z'));
    if (!('release' in first)) throw new Error('the first run did not get the lock');
    const second = lockFeedRun(state, 'acme');
    expect(second).toEqual({
      heldBy: expect.objectContaining({
        pid: process.pid,
        host: hostname(),
        startedAt: '2026-11-29T10:00:00.000Z',
      }),
    });
    // Another feed's runs are not held.
    const other = lockFeedRun(state, 'globex');
    expect('release' in other).toBe(true);
    first.release();
    expect(existsSync(lockPathOf(state, 'acme'))).toBe(false);
    expect('release' in lockFeedRun(state, 'acme')).toBe(true);
    // Nothing but the locks is left in the folder (no half-written or moved-aside files).
    expect((await readdir(join(dir, '.feed-sync-locks'))).sort()).toEqual(['acme.lock', 'globex.lock']);
  });

  it('takes over the lock of a process that is gone, or from before a reboot; never another host’s', async () => {
    const state = join(await folder(), 'state.json');
    const path = lockPathOf(state, 'acme');
    lockFeedRun(state, 'globex'); // makes the folder
    const write = (owner: object) =>
      writeFile(path, JSON.stringify({ startedAt: '2026-11-28T00:00:00Z', token: 't', ...owner }));

    await write({ pid: await deadPid(), host: hostname() });
    expect('release' in lockFeedRun(state, 'acme')).toBe(true);

    const boot = await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => undefined);
    if (boot !== undefined) {
      // A live pid, but the lock is from another boot: stale.
      await write({ pid: process.ppid, host: hostname(), boot: 'an-earlier-boot' });
      expect('release' in lockFeedRun(state, 'acme')).toBe(true);
    }

    await write({ pid: await deadPid(), host: 'another-host' });
    const held = lockFeedRun(state, 'acme');
    expect(held).toEqual({ heldBy: expect.objectContaining({ host: 'another-host' }) });

    await writeFile(path, 'not a lock');
    expect(lockFeedRun(state, 'acme')).toEqual({ heldBy: undefined });
    expect(heldReason('acme', undefined, path)).toContain(`its lock file ${path} is unreadable`);
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
