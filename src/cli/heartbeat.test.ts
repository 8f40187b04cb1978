import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  healthFileOf,
  healthProblem,
  isZombie,
  pidAlive,
  removeDeadHeartbeats,
  startHeartbeat,
  workerHeartbeats,
  workersProblem,
} from './heartbeat.ts';

const dir = await mkdtemp(join(tmpdir(), 'feed-sync-health-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('heartbeat', () => {
  it('a fresh healthy heartbeat is healthy; stopping removes it', async () => {
    const file = join(dir, 'a.health');
    const beat = startHeartbeat(file, async () => ({ ok: true, store: true, worker: true }));
    await expect.poll(() => healthProblem(file)).toBeUndefined();
    await beat.stop();
    expect(await healthProblem(file)).toMatch(/^no heartbeat at .*a\.health: the worker is not running$/);
  });

  it('an old or unhealthy heartbeat is a problem, named', async () => {
    const file = join(dir, 'b.health');
    await writeFile(file, JSON.stringify({ ok: true, store: true, worker: true, at: 1_000 }));
    expect(await healthProblem(file, 91_000)).toBe('the last heartbeat is 90 s old: the worker is stuck');
    await writeFile(file, JSON.stringify({ ok: false, store: false, worker: true, at: 1_000 }));
    expect(await healthProblem(file, 2_000)).toBe('unhealthy: store down, worker up');
  });
});

describe('the heartbeats of several workers on one host', () => {
  const fresh = (at: number, ok = true) => JSON.stringify({ ok, store: ok, worker: true, at });

  it('each worker has its own file; the check is every running worker', async () => {
    const own = await mkdtemp(join(dir, 'host-'));
    expect(healthFileOf(41, own)).toBe(join(own, 'feed-sync-worker.41.health'));
    expect(await workersProblem(own, 5_000, () => true)).toMatch(
      /^no heartbeat in .*host-\w+ \(feed-sync-worker\.<pid>\.health\): no worker is running$/,
    );
    await writeFile(healthFileOf(41, own), fresh(1_000));
    await writeFile(healthFileOf(42, own), fresh(1_000));
    await writeFile(join(own, 'other.health'), fresh(0, false));
    expect(await workersProblem(own, 5_000, () => true)).toBeUndefined();
    await writeFile(healthFileOf(42, own), fresh(1_000, false));
    expect(await workersProblem(own, 5_000, () => true)).toBe('worker 42: unhealthy: store down, worker up');
  });

  it('a killed worker left its file behind: it is not counted, live or not', async () => {
    const own = await mkdtemp(join(dir, 'host-'));
    await writeFile(healthFileOf(41, own), fresh(1_000));
    await writeFile(healthFileOf(42, own), fresh(1_000, false));
    const alive = (pid: number) => pid === 41;
    expect((await workerHeartbeats(own, alive)).map((b) => b.pid)).toEqual([41]);
    expect(await workersProblem(own, 5_000, alive)).toBeUndefined();
    expect(await workersProblem(own, 5_000, () => false)).toMatch(/no worker is running$/);
    // This process is alive; a pid past the kernel's maximum is not.
    expect(pidAlive(process.pid)).toBe(true);
    expect(pidAlive(2 ** 30)).toBe(false);
  });
});

describe('a worker told to stop', () => {
  it('beats on while its jobs finish, healthy and saying so; the file goes once it has stopped', async () => {
    const file = join(dir, 'draining.health');
    let worker = true;
    const beat = startHeartbeat(file, async () => ({ ok: worker, store: true, worker }), 60_000);
    await expect.poll(() => healthProblem(file)).toBeUndefined();
    // Shutting down: the service says its worker takes no job, which alone would read as unhealthy;
    // the file says ok, as the docs do, for whatever reads it without `feed-sync healthcheck` (a tester).
    worker = false;
    beat.stopping();
    await expect
      .poll(async () => JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>)
      .toMatchObject({ ok: true, worker: false, stopping: true });
    expect(await healthProblem(file)).toBeUndefined();
    // Stale all the same once it stops beating.
    const { at } = JSON.parse(await readFile(file, 'utf8')) as { at: number };
    expect(await healthProblem(file, at + 61_000)).toBe(
      'the last heartbeat is 61 s old: the worker is stuck',
    );
    await beat.stop();
    expect(await healthProblem(file)).toMatch(/no heartbeat at .*draining\.health/);
  });

  it('a health call that never answers does not hold the stop, and writes nothing after it', async () => {
    const file = join(dir, 'hung.health');
    let calls = 0;
    let release: (() => void) | undefined;
    const beat = startHeartbeat(
      file,
      () => {
        calls++;
        if (calls === 1) return Promise.resolve({ ok: true, store: true, worker: true });
        return new Promise((done) => {
          release = () => done({ ok: true, store: true, worker: true });
        });
      },
      60_000,
    );
    await expect.poll(() => healthProblem(file)).toBeUndefined();
    beat.stopping();
    const started = Date.now();
    await beat.stop();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(file)).toBe(false);
    release?.();
    await new Promise((done) => setTimeout(done, 50));
    expect(existsSync(file)).toBe(false);
  });
});

describe('files that killed workers left', () => {
  it("are removed at a worker start; a live worker's and other files are not", async () => {
    const own = await mkdtemp(join(dir, 'left-'));
    await writeFile(healthFileOf(41, own), '{}');
    await writeFile(healthFileOf(42, own), '{}');
    await writeFile(join(own, 'other.health'), '{}');
    expect(await removeDeadHeartbeats(own, (pid) => pid === 41)).toBe(1);
    expect((await readdir(own)).sort()).toEqual(['feed-sync-worker.41.health', 'other.health']);
  });
});

describe('a worker killed and not yet reaped (a zombie)', () => {
  it.skipIf(!existsSync('/proc/self/stat'))('is not alive: its file does not count', async () => {
    // `sleep 0` exits at once; its parent becomes `sleep 5` (exec), which never reaps it: a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 5'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const [line] = (await once(parent.stdout!, 'data')) as [Buffer];
      const pid = Number(String(line).trim());
      await expect.poll(() => isZombie(pid)).toBe(true);
      expect(pidAlive(pid)).toBe(false);
      const own = await mkdtemp(join(dir, 'zombie-'));
      await writeFile(
        healthFileOf(pid, own),
        JSON.stringify({ ok: true, store: true, worker: true, at: Date.now() }),
      );
      expect(await workerHeartbeats(own)).toEqual([]);
      expect(isZombie(process.pid)).toBe(false);
      expect(pidAlive(process.pid)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
