import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorkerService, type WorkerService } from '../../jobs/worker-service.ts';
import { loadConfig } from '../../src/config/load.ts';
import { enqueueFeedSync } from '../../src/queue/enqueue.ts';
import type { RunFeed } from '../../src/reconcile/sync.ts';
import { lockFeedRun, lockPathOf } from '../../src/state/run-lock.ts';
import { capturedLogger } from '../helpers/captured-logger.ts';
import { csvFeedConfig, csvRow, HEADER } from '../helpers/cli-feed.ts';
import { BACKENDS } from './backends.ts';
import { fakeRun, waitFor } from './helpers.ts';

const NODE = join(process.cwd(), 'node_modules/.bin/node');
const BIN = join(process.cwd(), 'bin/feed-sync.js');
const redis = BACKENDS.find((backend) => backend.name === 'redis')!;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A worker taking its runs' locks (as the `worker` command's does), its config in a folder of its
 * own with a CSV feed `acme`; `sync` is the run it makes.
 */
async function workerWith(sync: RunFeed, runLocks = true) {
  const dir = await mkdtemp(join(tmpdir(), 'feed-sync-worker-lock-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'feed-sync.yaml');
  await writeFile(file, csvFeedConfig('http://127.0.0.1:9', { id: 'acme', chatbot: 'LOCK-BOT' }));
  await writeFile(join(dir, 'feed.csv'), HEADER + csvRow(1));
  const config = await loadConfig(file);
  const { store, prefix, cleanup } = await redis.fresh();
  cleanups.push(cleanup);
  const { logger, lines } = capturedLogger();
  const service = await startWorkerService({
    config,
    store,
    prefix,
    logger,
    sync,
    schedules: false,
    ...(runLocks ? { runLocks } : {}),
  });
  cleanups.push(() => service.close());
  return { dir, file, service, lines, lockFile: lockPathOf(config.stateFile, 'acme') };
}

/** Queue a run of `acme` and wait for the job's result. */
async function runOnce(service: WorkerService): Promise<Record<string, unknown>> {
  const id = await enqueueFeedSync(service.queue, { feedId: 'acme' });
  const job = await waitFor(async () => {
    const found = id ? await service.queue.getJob(id) : undefined;
    // Read again once completed: the job read before it completed has no return value yet.
    return found && (await found.isCompleted()) ? service.queue.getJob(found.id!) : undefined;
  });
  return job.returnvalue as Record<string, unknown>;
}

describe.skipIf(!redis.available)(
  'the worker and `feed-sync sync` by hand: one run of a feed at a time',
  () => {
    it('a worker run finding the feed held by a sync by hand is skipped, naming it; the everyday run beside it runs and leaves no lock', async () => {
      let runs = 0;
      let lockedWhileRunning = 0;
      const t = await workerWith(async (_config, feed) => {
        runs++;
        // The lock is the run's while it runs.
        if (existsSync(t.lockFile)) lockedWhileRunning++;
        return fakeRun(feed.id);
      });
      // A `feed-sync sync` by hand holding the feed (its lock, as the CLI takes it).
      const byHand = lockFeedRun(join(t.dir, 'state.json'), 'acme', new Date('2026-11-29T10:00:00Z'));
      if (!('lock' in byHand)) throw new Error('the test could not take the lock');
      const before = Date.now();
      const skipped = await runOnce(t.service);
      expect(skipped).toEqual({
        feedId: 'acme',
        outcome: 'skipped',
        reason: expect.stringContaining(
          `another run of feed acme is going on (process ${process.pid} on ${hostname()}, started 2026-11-29T10:00:00.000Z); this one was skipped, that one syncs it; tried again at `,
        ),
      });
      expect(runs).toBe(0);
      // Not dropped: a run of the feed is queued for when a lock left over could be taken over.
      const retries = (await t.service.queue.getJobs(['delayed'])).filter(
        (j) => (j.data as { feedId?: string }).feedId === 'acme',
      );
      expect(retries.map((j) => (j.data as { trigger?: string }).trigger)).toEqual(['resume']);
      expect(retries[0]!.timestamp + retries[0]!.delay).toBeGreaterThanOrEqual(before + 110_000);
      expect(
        t.lines.some((line) => line.includes('"level":40') && line.includes('skipped: another run')),
      ).toBe(true);
      byHand.lock.release();
      // The everyday case: nothing holds the feed, the worker runs it, twice in a row, and lets go.
      expect(await runOnce(t.service)).toMatchObject({ feedId: 'acme', outcome: 'ok', created: 1 });
      expect(await runOnce(t.service)).toMatchObject({ feedId: 'acme', outcome: 'ok' });
      expect(runs).toBe(2);
      expect(lockedWhileRunning).toBe(2);
      expect(existsSync(t.lockFile)).toBe(false);
    });

    it('a `feed-sync sync` by hand while the worker runs the feed is skipped, exit 0, naming the worker', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let started = false;
      const t = await workerWith(async (_config, feed) => {
        started = true;
        await held;
        return fakeRun(feed.id);
      });
      const result = runOnce(t.service);
      await waitFor(() => started && existsSync(t.lockFile), 10_000, 'the worker run');
      const child = spawn(NODE, [BIN, 'sync', '--feed', 'acme', '--json', '--config', t.file], {
        cwd: t.dir,
      });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      const report = JSON.parse(stdout) as Record<string, unknown>;
      expect(report).toMatchObject({ outcome: 'skipped', created: 0, apiCalls: { create: 0, list: 0 } });
      expect(report.reason).toMatch(
        new RegExp(
          `^another run of feed acme is going on \\(process ${process.pid} on ${hostname()}, started `,
        ),
      );
      release();
      expect(await result).toMatchObject({ feedId: 'acme', outcome: 'ok' });
      expect(existsSync(t.lockFile)).toBe(false);
    });

    it('a folder where no lock can be made: the worker says so once and runs every time', async () => {
      let runs = 0;
      const t = await workerWith(async (_config, feed) => {
        runs++;
        return fakeRun(feed.id);
      });
      // The locks' folder is a file: no lock can be made in it (as in a read-only config folder).
      await writeFile(join(t.dir, '.feed-sync-locks'), 'not a folder');
      expect(await runOnce(t.service)).toMatchObject({ outcome: 'ok' });
      expect(await runOnce(t.service)).toMatchObject({ outcome: 'ok' });
      expect(runs).toBe(2);
      const said = t.lines.filter((line) => line.includes('cannot be taken'));
      expect(said).toHaveLength(1);
      expect(said[0]).toContain('feed acme: the run lock');
    });

    it('a run that throws lets go of its lock: the next run of the feed takes it', async () => {
      let runs = 0;
      const t = await workerWith(async (_config, feed) => {
        runs++;
        if (runs === 1) throw new Error('a bug in the run');
        return fakeRun(feed.id);
      });
      const id = await enqueueFeedSync(t.service.queue, { feedId: 'acme' });
      await waitFor(async () => {
        const job = id ? await t.service.queue.getJob(id) : undefined;
        return job && ((await job.isFailed()) || (job.attemptsMade ?? 0) >= 1) ? job : undefined;
      });
      await waitFor(() => runs >= 1 && !existsSync(t.lockFile), 10_000, 'the lock let go');
      expect(await runOnce(t.service)).toMatchObject({ feedId: 'acme', outcome: 'ok' });
    });

    it('a worker started without run locks (the tests of many workers of one feed) takes none', async () => {
      let sawLock: boolean | undefined;
      const t = await workerWith(async (_config, feed) => {
        sawLock = existsSync(t.lockFile);
        return fakeRun(feed.id);
      }, false);
      expect(await runOnce(t.service)).toMatchObject({ outcome: 'ok' });
      expect(sawLock).toBe(false);
    });
  },
);
