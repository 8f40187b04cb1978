import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tryLock, waitForLock } from '../../src/state/file-lock.ts';
import { createFileStateStore } from '../../src/state/index.ts';
import { lockPathOf } from '../../src/state/run-lock.ts';

const NODE = join(process.cwd(), 'node_modules/.bin/node');
const LOCK_MODULE = join(process.cwd(), 'src/state/file-lock.ts');
const STORE_MODULE = join(process.cwd(), 'src/state/index.ts');

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'feed-sync-file-lock-'));
  path = join(dir, 'acme.lock');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const minute = { staleMs: 60_000 };
/** A process that has ended: its pid is no live process's (until the kernel hands it out again). */
async function deadPid(): Promise<number> {
  const child = spawn(NODE, ['-e', '']);
  await new Promise((done) => child.on('close', done));
  return child.pid as number;
}
const lockOf = (owner: object) =>
  writeFile(path, JSON.stringify({ startedAt: '2026-11-28T00:00:00Z', token: 'left-over', ...owner }));
/** Node running `code` (an ES module) to its end; its stdout. */
async function run(code: string): Promise<string> {
  const child = spawn(NODE, ['--input-type=module', '-e', code]);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  await new Promise((done) => child.on('close', done));
  return out;
}

/**
 * A process that takes the lock at `path` (after `prelude`, code run before the lock's module is
 * loaded) and holds it for `lifeMs`: returned once it has it.
 */
async function childHolding(options: { staleMs: number; lifeMs: number; prelude?: string }) {
  const child = spawn(NODE, [
    '--input-type=module',
    '-e',
    `${options.prelude ?? ''}
     const { tryLock } = await import(${JSON.stringify(LOCK_MODULE)});
     const attempt = tryLock(${JSON.stringify(path)}, { staleMs: ${options.staleMs} });
     process.stdout.write('lock' in attempt ? 'got' : 'held');
     setTimeout(() => {}, ${options.lifeMs});`,
  ]);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await expect.poll(() => out).toBe('got');
  return child;
}

describe('tryLock', () => {
  it('one holder at a time: the next is told who; released, it is taken; nothing else is left', async () => {
    const first = tryLock(path, minute, new Date('2026-11-29T10:00:00Z'));
    if (!('lock' in first)) throw new Error('no lock');
    expect(tryLock(path, minute)).toEqual({
      heldBy: expect.objectContaining({
        pid: process.pid,
        host: hostname(),
        startedAt: '2026-11-29T10:00:00.000Z',
      }),
    });
    first.lock.release();
    first.lock.release();
    expect(existsSync(path)).toBe(false);
    const again = tryLock(path, minute);
    expect('lock' in again).toBe(true);
    expect(await readdir(dir)).toEqual(['acme.lock']);
    if ('lock' in again) again.lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes over a lock whose process is gone, from before a reboot, or with this pid and not held here', async () => {
    const take = () => {
      const attempt = tryLock(path, minute);
      if (!('lock' in attempt)) return false;
      attempt.lock.release();
      return true;
    };
    await lockOf({ pid: await deadPid(), host: hostname() });
    expect(take()).toBe(true);
    await lockOf({ pid: process.ppid, host: hostname(), boot: 'an-earlier-boot' });
    expect(take()).toBe(existsSync('/proc/sys/kernel/random/boot_id'));
    // A container's node has the same pid each time: a lock of this pid this process does not hold.
    await lockOf({ pid: process.pid, host: hostname() });
    expect(take()).toBe(true);
  });

  it('takes over a lock whose process was killed and not yet reaped (a zombie): it runs nothing', async () => {
    // `sleep 0.1` ends, and its parent (`sleep 5`, which replaced the shell) never waits for it.
    const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 5']);
    const pid = Number(
      await new Promise<string>((done) => parent.stdout.once('data', (d) => done(String(d)))),
    );
    try {
      const state = async () =>
        (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.[0];
      for (let i = 0; i < 50 && (await state()) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await state()).toBe('Z');
      await lockOf({ pid, host: hostname() });
      const attempt = tryLock(path, minute);
      expect('lock' in attempt).toBe(true);
      if ('lock' in attempt) attempt.lock.release();
    } finally {
      parent.kill();
    }
  });

  it('compares no pid of another pid namespace (a container of the same host name): its lock waits for staleMs', async () => {
    if (!existsSync('/proc/self/ns/pid')) return;
    // This pid, or a gone one, in another namespace: nothing to tell from here while it is fresh.
    for (const pid of [process.pid, await deadPid()]) {
      await lockOf({ pid, host: hostname(), ns: 'pid:[another]' });
      expect(tryLock(path, minute)).toEqual({ heldBy: expect.objectContaining({ ns: 'pid:[another]' }) });
    }
    const old = new Date(Date.now() - 120_000);
    await utimes(path, old, old);
    expect('lock' in tryLock(path, minute)).toBe(true);
  });

  it('on its own host, a live holder keeps its lock however old (stopped, asleep), an earlier version’s lock too', async () => {
    const old = new Date(Date.now() - 600_000);
    await lockOf({ pid: process.ppid, host: hostname() });
    await utimes(path, old, old);
    expect(tryLock(path, minute)).toEqual({ heldBy: expect.objectContaining({ pid: process.ppid }) });
    // The embedded store's lock of the last version: pid, host, since; never touched while held.
    await writeFile(
      path,
      JSON.stringify({ pid: process.ppid, host: hostname(), since: '2026-11-01T00:00:00Z' }),
    );
    await utimes(path, old, old);
    expect(tryLock(path, minute)).toEqual({
      heldBy: expect.objectContaining({ pid: process.ppid, startedAt: '2026-11-01T00:00:00Z' }),
    });
    await writeFile(path, JSON.stringify({ pid: process.ppid, host: 'another-host', since: 'x' }));
    await utimes(path, old, old);
    expect('heldBy' in tryLock(path, minute)).toBe(true);
    // Its pid given to another process since (another start time): left over.
    await lockOf({ pid: process.ppid, host: hostname(), since: '1' });
    expect('lock' in tryLock(path, minute)).toBe(existsSync(`/proc/${process.ppid}/stat`));
  });

  it('never takes a live lock of another host, until it is left untouched for staleMs; a half-written one alike', async () => {
    await lockOf({ pid: 1, host: 'another-host' });
    expect(tryLock(path, minute)).toEqual({ heldBy: expect.objectContaining({ host: 'another-host' }) });
    const old = new Date(Date.now() - 120_000);
    await utimes(path, old, old);
    expect('lock' in tryLock(path, minute)).toBe(true);
    await rm(path);
    await writeFile(path, '');
    expect(tryLock(path, minute)).toEqual({ heldBy: undefined });
    await utimes(path, old, old);
    expect('lock' in tryLock(path, minute)).toBe(true);
  });

  it('is touched while held: a holder that lives is never taken for gone, however short staleMs', async () => {
    const child = await childHolding({ staleMs: 200, lifeMs: 1500 });
    const taken = (await stat(path)).mtimeMs;
    // Three times staleMs later, the child's lock was touched since it was taken.
    await new Promise((r) => setTimeout(r, 600));
    expect((await stat(path)).mtimeMs).toBeGreaterThan(taken + 300);
    expect(tryLock(path, { staleMs: 200 })).toEqual({ heldBy: expect.objectContaining({ pid: child.pid }) });
    await new Promise((done) => child.on('close', done));
  });

  it('a holder on another host whose clock runs ten minutes behind is not taken for gone while it lives', async () => {
    // Another host, seen from here: its host name differs and its clock is ten minutes slow.
    const child = await childHolding({
      staleMs: 1000,
      lifeMs: 3000,
      prelude: `import os from 'node:os';
       import { syncBuiltinESMExports } from 'node:module';
       os.hostname = () => 'slow-clock-host';
       syncBuiltinESMExports();
       const RealDate = Date;
       const SLOW = -600_000;
       globalThis.Date = class extends RealDate {
         constructor(...args) { if (args.length === 0) super(RealDate.now() + SLOW); else super(...args); }
         static now() { return RealDate.now() + SLOW; }
       };`,
    });
    // Twice staleMs later the holder has touched its lock every quarter of it, on the folder's clock.
    await new Promise((r) => setTimeout(r, 2000));
    expect(tryLock(path, { staleMs: 1000 })).toEqual({
      heldBy: expect.objectContaining({ host: 'slow-clock-host', pid: child.pid }),
    });
    expect(Math.abs(Date.now() - (await stat(path)).mtimeMs)).toBeLessThan(1000);
    await new Promise((done) => child.on('close', done));
    // Gone, its lock is left untouched: taken once it is staleMs old.
    await new Promise((r) => setTimeout(r, 1200));
    expect('lock' in tryLock(path, { staleMs: 1000 })).toBe(true);
  });

  it('a takeover going on elsewhere is waited for, not joined; one left by a dead process is cleared', async () => {
    await lockOf({ pid: await deadPid(), host: hostname() });
    // A takeover by a live process of this host: waited for however long it takes.
    await writeFile(`${path}.takeover`, JSON.stringify({ pid: process.ppid, host: hostname(), token: 'g' }));
    const old = new Date(Date.now() - 600_000);
    await utimes(`${path}.takeover`, old, old);
    expect(tryLock(path, minute)).toEqual({ heldBy: expect.objectContaining({ token: 'left-over' }) });
    // One by a process that is gone: cleared, and the lock taken over.
    await writeFile(
      `${path}.takeover`,
      JSON.stringify({ pid: await deadPid(), host: hostname(), token: 'g' }),
    );
    expect('lock' in tryLock(path, minute)).toBe(true);
    expect(existsSync(`${path}.takeover`)).toBe(false);
  });

  it('of eight processes finding one left-over lock at once, one takes it over, every round', async () => {
    const racer = `
      import { tryLock } from ${JSON.stringify(LOCK_MODULE)};
      const start = Number(process.argv[1]);
      while (Date.now() < start) {}
      const attempt = tryLock(${JSON.stringify(path)}, { staleMs: 60000 });
      process.stdout.write('lock' in attempt ? 'got' : 'held');
      // Held until every racer has tried (the test closes stdin): a racer slow to start on a busy
      // machine finds the winner's lock, not a lock released meanwhile.
      process.stdin.resume();
      process.stdin.on('end', () => process.exit(0));
    `;
    for (let round = 0; round < 3; round++) {
      await lockOf({ pid: await deadPid(), host: hostname() });
      const start = Date.now() + 700;
      const racers = Array.from({ length: 8 }, () => {
        const child = spawn(NODE, ['--input-type=module', '-e', racer, String(start)]);
        const racing = { out: '', closed: new Promise((done) => child.on('close', done)), child };
        child.stdout.on('data', (d) => (racing.out += d));
        child.stderr.on('data', (d) => (racing.out += d));
        return racing;
      });
      await expect.poll(() => racers.every((r) => r.out !== ''), { timeout: 20_000 }).toBe(true);
      for (const r of racers) r.child.stdin.end();
      await Promise.all(racers.map((r) => r.closed));
      const outs = racers.map((r) => r.out);
      expect(outs.filter((o) => o === 'got')).toHaveLength(1);
      expect(outs.filter((o) => o === 'held')).toHaveLength(7);
      // Each ended with its lock released at exit.
      expect(existsSync(path)).toBe(false);
    }
  });

  it('is released when its process exits, process.exit included (a second Ctrl-C)', async () => {
    const out = await run(`
      import { tryLock } from ${JSON.stringify(LOCK_MODULE)};
      const attempt = tryLock(${JSON.stringify(path)}, { staleMs: 60000 });
      process.stdout.write(String('lock' in attempt));
      process.exit(130);
    `);
    expect(out).toBe('true');
    expect(existsSync(path)).toBe(false);
  });
});

describe('waitForLock', () => {
  it('waits while another holds it, and names the holder when it waited too long', async () => {
    const first = tryLock(path, minute);
    if (!('lock' in first)) throw new Error('no lock');
    await expect(waitForLock(path, { ...minute, timeoutMs: 50 })).rejects.toThrow(
      new RegExp(`acme.lock is locked by process ${process.pid} on `),
    );
    setTimeout(() => first.lock.release(), 30);
    const second = await waitForLock(path, { ...minute, timeoutMs: 5000 });
    expect(second.owner.token).not.toBe(first.lock.owner.token);
    second.release();
  });
});

describe('the state file, written by several processes at once', () => {
  it('loses no process’s change: four processes, twenty changes each, each to its own feed', async () => {
    const file = join(dir, 'state.json');
    const writer = `
      import { createFileStateStore } from ${JSON.stringify(STORE_MODULE)};
      const store = createFileStateStore(${JSON.stringify(file)});
      const feed = process.argv[1];
      for (let i = 1; i <= 20; i++) await store.updateFeed(feed, { etag: feed + '-' + i });
    `;
    await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (feed) => {
        const child = spawn(NODE, ['--input-type=module', '-e', writer, feed]);
        let err = '';
        child.stderr.on('data', (d) => (err += d));
        const code = await new Promise((done) => child.on('close', done));
        expect(err).toBe('');
        expect(code).toBe(0);
      }),
    );
    const store = createFileStateStore(file);
    for (const feed of ['a', 'b', 'c', 'd']) expect((await store.getFeed(feed)).etag).toBe(`${feed}-20`);
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('a state file reached through a link is written where it points, stays a link, and shares its locks', async () => {
    await mkdir(join(dir, 'shared'));
    await mkdir(join(dir, 'a'));
    await mkdir(join(dir, 'b'));
    await writeFile(join(dir, 'shared', 'state.json'), '{}');
    await symlink('../shared/state.json', join(dir, 'a', 'state.json'));
    await symlink('../shared/state.json', join(dir, 'b', 'state.json'));
    await createFileStateStore(join(dir, 'a', 'state.json')).updateFeed('acme', { etag: 'from-a' });
    await createFileStateStore(join(dir, 'b', 'state.json')).updateFeed('globex', { etag: 'from-b' });
    expect((await lstat(join(dir, 'a', 'state.json'))).isSymbolicLink()).toBe(true);
    const shared = JSON.parse(await readFile(join(dir, 'shared', 'state.json'), 'utf8'));
    expect([shared.feeds.acme.etag, shared.feeds.globex.etag]).toEqual(['from-a', 'from-b']);
    expect(lockPathOf(join(dir, 'a', 'state.json'), 'acme')).toBe(
      lockPathOf(join(dir, 'b', 'state.json'), 'acme'),
    );
    expect(lockPathOf(join(dir, 'a', 'state.json'), 'acme')).toContain(join('shared', '.feed-sync-locks'));
  });
});

describe('the state file read for the dashboard', () => {
  it('is parsed again only when replaced: another process’s write is seen, a caller’s change is not kept', async () => {
    const file = join(dir, 'state.json');
    const ours = createFileStateStore(file);
    const theirs = createFileStateStore(file);
    await ours.updateFeed('acme', { etag: '"1"' });
    const first = await ours.getFeed('acme');
    expect(first.etag).toBe('"1"');
    // The copy handed out is the caller's: changing it changes no later read.
    first.etag = 'changed by a caller';
    expect((await ours.getFeed('acme')).etag).toBe('"1"');
    // Another process (another store on the file) writes: the next read sees it.
    await theirs.updateFeed('acme', { etag: '"2"' });
    expect((await ours.getFeed('acme')).etag).toBe('"2"');
    await theirs.recordRun('acme', { startedAt: '2026-12-03T00:00:00.000Z' } as never);
    expect(await ours.listRuns('acme')).toHaveLength(1);
  });
});
