import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { enqueueFeedSync, openQueueStore } from '../../src/queue/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { redisAvailable } from '../helpers/services.ts';
import { cleanupPrefix, REDIS_URL, uniquePrefix, waitFor } from './helpers.ts';

/**
 * Issue 23: several workers on one host (or one container scaled) each keep their own heartbeat,
 * and `feed-sync healthcheck` with no argument, as the image's HEALTHCHECK runs it, checks the
 * running ones: the first to stop no longer takes the others' health with it.
 */
const run = promisify(execFile);
const ROOT = process.cwd();
const NODE = join(ROOT, 'node_modules/.bin/node');

let dir = '';
let prefix = '';
let sandbox: Sandbox | undefined;
const children: ChildProcess[] = [];

/** The environment of every process here: the temp folder (where heartbeats go) is the test's own. */
const env = () => ({ PATH: process.env.PATH ?? '', HOME: dir, TMPDIR: dir, REDIS_URL, LOG_LEVEL: 'info' });

function startWorker(config: string) {
  const child = spawn(NODE, ['src/cli/main.ts', 'worker', '-c', config], {
    cwd: ROOT,
    env: env(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

async function healthcheck(): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(NODE, ['src/cli/main.ts', 'healthcheck'], { cwd: ROOT, env: env() });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, out: failed.stderr };
  }
}

const heartbeats = async () => (await readdir(dir)).filter((f) => f.endsWith('.health')).sort();

describe.skipIf(!redisAvailable)('two workers on one host', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'feed-sync-heartbeats-'));
    prefix = uniquePrefix();
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await sandbox?.close();
    await cleanupPrefix(prefix);
    await rm(dir, { recursive: true, force: true });
  });

  it('each writes its own heartbeat; one stops, the other stays healthy', async () => {
    const config = join(dir, 'feed-sync.yaml');
    await writeFile(
      config,
      stringify({
        api: { baseUrl: sandbox!.url },
        feeds: [{ id: 'f1', chatbot: 'SN-H1', source: { format: 'csv', path: join(dir, 'f1.csv') } }],
        worker: { prefix, shutdownGraceMs: 1000 },
      }),
    );
    const [a, b] = [startWorker(config), startWorker(config)];
    const names = [a, b].map((w) => `feed-sync-worker.${w.child.pid}.health`).sort();
    await waitFor(
      async () => {
        for (const w of [a, b])
          if (w.child.exitCode !== null) throw new Error(`a worker exited: ${w.stderr()}`);
        return (await heartbeats()).length === 2;
      },
      20_000,
      'both heartbeats',
    );
    expect(await heartbeats()).toEqual(names);
    expect(await healthcheck()).toEqual({ code: 0, out: 'healthy\n' });

    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(await heartbeats()).toEqual([`feed-sync-worker.${b.child.pid}.health`]);
    expect(await healthcheck()).toEqual({ code: 0, out: 'healthy\n' });

    // A worker killed outright leaves its file: the check no longer counts a process that is gone.
    b.child.kill('SIGKILL');
    await b.exited;
    expect(await heartbeats()).toEqual([`feed-sync-worker.${b.child.pid}.health`]);
    const none = await healthcheck();
    expect(none.code).toBe(1);
    expect(none.out).toMatch(/^feed-sync: no heartbeat in .*: no worker is running\n$/);
  }, 60_000);

  it('a worker told to stop beats on while its run finishes, then removes its file; files of killed workers go at the next start', async () => {
    // A killed worker's file (no process has this pid): removed when a worker starts.
    const left = join(dir, `feed-sync-worker.${2 ** 30}.health`);
    await writeFile(left, JSON.stringify({ ok: true, store: true, worker: true, at: 1 }));
    await writeFile(
      join(dir, 'f2.csv'),
      'MLSNumber,Url,Address,City,Status,PropertyType,Bedrooms,Bathrooms,SalePrice\nA1,https://example.com/a1,1 Main St,Springfield,Active,House,3,2,100000\n',
    );
    const config = join(dir, 'draining.yaml');
    await writeFile(
      config,
      stringify({
        api: { baseUrl: sandbox!.url, concurrency: 1 },
        feeds: [
          {
            id: 'f2',
            chatbot: 'SN-H2',
            source: { format: 'csv', path: join(dir, 'f2.csv') },
          },
        ],
        worker: { prefix, shutdownGraceMs: 20_000 },
      }),
    );
    // Slow answers: the run (one trigger-config run at the start) is still going when the worker is told to stop.
    sandbox!.configure({ latencyMs: 1500 });
    const w = startWorker(config);
    const store = await openQueueStore({ kind: 'redis', url: REDIS_URL }, prefix);
    try {
      const file = join(dir, `feed-sync-worker.${w.child.pid}.health`);
      await waitFor(
        async () => {
          if (w.child.exitCode !== null) throw new Error(`the worker exited: ${w.stderr()}`);
          return !existsSync(left) && existsSync(file);
        },
        20_000,
        'the worker to start',
      );
      const queue = store.createQueue();
      await enqueueFeedSync(queue, { feedId: 'f2' });
      await queue.close();
      await waitFor(async () => sandbox!.stats().inFlight > 0, 20_000, 'the run to call the platform');
      expect(await heartbeats()).toEqual([`feed-sync-worker.${w.child.pid}.health`]);
      w.child.kill('SIGTERM');
      await waitFor(
        async () =>
          (JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as { stopping?: boolean }).stopping,
        10_000,
        'a stopping heartbeat',
      );
      expect(w.child.exitCode).toBeNull();
      expect(await healthcheck()).toEqual({ code: 0, out: 'healthy\n' });
      expect(await w.exited).toBe(0);
      expect(await heartbeats()).toEqual([]);
      // The run finished within the grace: its listing is there.
      expect(sandbox!.listings('SN-H2'), w.stderr()).toHaveLength(1);
    } finally {
      sandbox!.configure({ latencyMs: 0 });
      await store.close();
    }
  }, 60_000);
});
