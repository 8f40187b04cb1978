import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  healthFileOf,
  healthProblem,
  pidAlive,
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
