import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { openQueueStore } from '../../src/queue/open-store.ts';
import { lockStore, StoreLockedError } from '../../src/queue/store-lock.ts';
import { BACKENDS } from './backends.ts';

const NODE = join(process.cwd(), 'node_modules/.bin/node');
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'feed-sync-lock-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('one process per embedded store', () => {
  it('a second lock on the folder is refused with one line naming the owner; released, it is free', async () => {
    const dir = await tempDir();
    const release = await lockStore(dir);
    const error = await lockStore(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreLockedError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^the embedded queue store ${dir} is in use by another feed-sync process \\(pid ${process.pid},`,
      ),
    );
    expect((error as Error).message).toContain('set REDIS_URL or DATABASE_URL to run several workers');
    expect((error as Error).message).not.toContain('\n');
    await release();
    const again = await lockStore(dir);
    await again();
  });

  it('a lock left by a dead process (kill -9) is stale and taken over', async () => {
    const dir = await tempDir();
    const child = spawn(NODE, ['-e', 'setTimeout(() => {}, 60000)']);
    const pid = child.pid!;
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    await writeFile(
      join(dir, 'lock'),
      JSON.stringify({ pid, host: (await import('node:os')).hostname(), since: 'x' }),
    );
    const release = await lockStore(dir);
    expect(JSON.parse(await readFile(join(dir, 'lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    await release();
  });

  it('a second worker process on the same state directory exits 1 with one line', async () => {
    const embedded = BACKENDS.find((b) => b.name === 'embedded')!;
    const { store, prefix, cleanup } = await embedded.fresh();
    cleanups.push(cleanup);
    const held = await openQueueStore(store, prefix);
    cleanups.push(() => held.close());
    const dir = (store as { dir: string }).dir;
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', FEED_SYNC_STATE_DIR: join(dir, '..') };
    const run = promisify(execFile);
    const error = await run(NODE, ['src/cli/main.ts', 'worker', '-c', 'fixtures/demo/feed-sync.yaml'], {
      env,
      timeout: 30_000,
    }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(error?.code).toBe(1);
    expect(error?.stderr).toMatch(
      new RegExp(
        `^feed-sync: the embedded queue store ${dir} is in use by another feed-sync process \\(pid ${process.pid},.*\\n$`,
      ),
    );
  });
});

describe.each(BACKENDS.filter((b) => b.name !== 'redis'))('the limiter and incidents on $name', (backend) => {
  it.skipIf(!backend.available)(
    'hold the in-flight bound and the per-second ceiling; incidents open once',
    async () => {
      const { store: choice, prefix, cleanup } = await backend.fresh();
      cleanups.push(cleanup);
      const store = await openQueueStore(choice, prefix);
      cleanups.push(() => store.close());
      const limiters = [1, 2, 3].map(() => store.createLimiter({ concurrency: 2 }));
      let inFlight = 0;
      let peak = 0;
      // Each task holds its slot until two are in flight (or 3 s pass): the peak does not depend on
      // how fast a loaded machine hands out slots.
      let reached!: () => void;
      const full = new Promise<void>((resolve) => (reached = resolve));
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          limiters[i % 3]!.run(async () => {
            peak = Math.max(peak, ++inFlight);
            if (inFlight >= 2) reached();
            await Promise.race([full, sleep(3000)]);
            await sleep(5);
            inFlight--;
          }),
        ),
      );
      expect(peak).toBe(2);
      const paced = store.createLimiter({ concurrency: 10, requestsPerSecond: 5 });
      const starts: number[] = [];
      await Promise.all(Array.from({ length: 7 }, () => paced.run(async () => void starts.push(Date.now()))));
      starts.sort((a, b) => a - b);
      // 7 starts at 5 per second: the 6th waits for the first second to pass (unpaced, all 7 start
      // within a few ms; the bound leaves room for the first start being recorded late under load).
      expect(starts[5]! - starts[0]!).toBeGreaterThanOrEqual(700);

      expect(await store.incidents.open('a:failed')).toBe(true);
      expect(await store.incidents.open('a:failed')).toBe(false);
      await store.incidents.close(['a:failed']);
      expect(await store.incidents.open('a:failed')).toBe(true);
    },
  );
});
