import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { healthProblem, startHeartbeat } from './heartbeat.ts';

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
