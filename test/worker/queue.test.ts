import { afterEach, describe, expect, it } from 'vitest';
import { startWorkerService, type WorkerService } from '../../jobs/worker-service.ts';
import { PlatformError, platformStatusError } from '../../src/api/index.ts';
import { silentLogger } from '../../src/logger.ts';
import { enqueueFeedSync } from '../../src/queue/enqueue.ts';
import type { RunFeed, RunReport } from '../../src/reconcile/index.ts';
import { ok, sendJson, withServer } from '../helpers/with-server.ts';
import { BACKENDS, type TestStore } from './backends.ts';
import { fakeRun, testConfig, waitFor } from './helpers.ts';

const FAST = {
  backoffMs: 50,
  attempts: 3,
  shutdownGraceMs: 200,
  stalledIntervalMs: 1000,
  lockDurationMs: 2000,
};
const services: WorkerService[] = [];
const stores: TestStore[] = [];

afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await Promise.all(stores.splice(0).map((s) => s.cleanup()));
});

describe.each(BACKENDS)('on $name', (backend) => {
  async function freshStore() {
    const store = await backend.fresh();
    stores.push(store);
    return store;
  }

  async function start(sync: RunFeed, config = testConfig([{ id: 'a' }]), store?: TestStore, process = true) {
    const { store: choice, prefix } = store ?? (await freshStore());
    const service = await startWorkerService({
      config,
      store: choice,
      prefix,
      logger: silentLogger,
      sync,
      settings: FAST,
      process,
    });
    services.push(service);
    return service;
  }

  describe.skipIf(!backend.available)('job schedulers from config', () => {
    it('are created, changed and removed with the config', async () => {
      const service = await start(
        async (_c, feed) => fakeRun(feed.id),
        testConfig([
          { id: 'a', cron: '0 * * * *' },
          { id: 'b', cron: '*/5 * * * *', timezone: 'Europe/Paris' },
          { id: 'c' },
        ]),
        undefined,
        false,
      );
      const list = async () =>
        (await service.queue.getJobSchedulers(0, -1))
          .map((s) => ({ key: s.key, pattern: s.pattern, tz: s.tz }))
          .sort((x, y) => x.key.localeCompare(y.key));
      expect(await list()).toEqual([
        { key: 'sync-feed:a', pattern: '0 * * * *', tz: 'UTC' },
        { key: 'sync-feed:b', pattern: '*/5 * * * *', tz: 'Europe/Paris' },
      ]);
      await service.applyConfig(
        testConfig([
          { id: 'a', cron: '30 2 * * *' },
          { id: 'c', cron: '0 0 * * 0' },
          { id: 'b', cron: '* * * * *', enabled: false },
        ]),
      );
      expect(await list()).toEqual([
        { key: 'sync-feed:a', pattern: '30 2 * * *', tz: 'UTC' },
        { key: 'sync-feed:c', pattern: '0 0 * * 0', tz: 'UTC' },
      ]);
      await service.applyConfig(testConfig([]));
      expect(await list()).toEqual([]);
    });

    it("a chatbot's settings push gets a scheduler of its own, changed and removed with the config", async () => {
      const chatbot = (schedule: string) =>
        `chatbots:\n  - chatbot: BOT9\n${schedule}    settings: { Name: "Nine" }\n`;
      const service = await start(
        async (_c, feed) => fakeRun(feed.id),
        testConfig([], chatbot('    schedule: { cron: "0 4 * * *", timezone: Europe/Paris }\n')),
        undefined,
        false,
      );
      const list = async () =>
        (await service.queue.getJobSchedulers(0, -1)).map((s) => ({
          key: s.key,
          name: s.name,
          pattern: s.pattern,
          tz: s.tz,
        }));
      expect(await list()).toEqual([
        { key: 'push-settings:BOT9', name: 'push-settings', pattern: '0 4 * * *', tz: 'Europe/Paris' },
      ]);
      await service.applyConfig(testConfig([], chatbot('    schedule: { cron: "15 5 * * 1" }\n')));
      expect(await list()).toEqual([
        { key: 'push-settings:BOT9', name: 'push-settings', pattern: '15 5 * * 1', tz: 'UTC' },
      ]);
      await service.applyConfig(testConfig([], chatbot('')));
      expect(await list()).toEqual([]);
    });

    it('a settings push runs on its own schedule, through the deduplicated path', async () => {
      const platform = await withServer((_req, res) => sendJson(res, 200, ok(1)));
      try {
        const config = testConfig(
          [],
          'chatbots:\n  - chatbot: BOT9\n    schedule: { cron: "* * * * * *" }\n    settings: { Name: "Nine" }\n',
        );
        config.api.baseUrl = platform.url;
        const service = await start(async (_c, feed) => fakeRun(feed.id), config);
        // One push (the config's at start-up, or the first tick's when it wins the race), then the
        // ticks of the every-second scheduler find nothing changed.
        const scheduled = await waitFor(
          async () =>
            (await service.queue.getJobs(['completed'])).find(
              (j) =>
                j.name === 'push-settings' &&
                j.deduplicationId !== undefined &&
                (j.data as { trigger?: string }).trigger === 'schedule' &&
                (j.returnvalue as { outcome?: string } | undefined)?.outcome === 'unchanged',
            ),
          10_000,
          'a scheduled push',
        );
        expect(scheduled.returnvalue).toMatchObject({ chatbot: 'BOT9', outcome: 'unchanged' });
        expect(platform.requests).toHaveLength(1);
        expect(platform.requests[0]?.body).toEqual({ serialNumber: 'BOT9', Name: 'Nine' });
      } finally {
        await platform.close();
      }
    });

    it('a scheduled tick runs the feed through the deduplicated path', async () => {
      const runs: string[] = [];
      const service = await start(
        async (_c, feed) => {
          runs.push(feed.id);
          return fakeRun(feed.id);
        },
        testConfig([{ id: 'a' }]),
      );
      await service.queue.upsertJobScheduler(
        'sync-feed:a',
        { every: 60_000 },
        { name: 'sync-feed', data: { feedId: 'a', trigger: 'schedule' } },
      );
      await waitFor(() => runs.length === 1, 5000, 'the scheduled run');
      const completed = await waitFor(async () => {
        const jobs = await service.queue.getJobs(['completed']);
        return jobs.length === 2 ? jobs : undefined;
      });
      const results = completed.map((j) => j.returnvalue as { outcome?: string; forwardedTo?: string });
      expect(results.filter((r) => r.forwardedTo)).toHaveLength(1);
      expect(results.filter((r) => r.outcome === 'ok')).toHaveLength(1);
    });
  });

  describe.skipIf(!backend.available)('one run per feed', () => {
    it('a kick during a run queues exactly one follow-up', async () => {
      let release!: () => void;
      let active = 0;
      let maxActive = 0;
      const runs: string[] = [];
      const service = await start(async (_c, feed, deps, options) => {
        active++;
        maxActive = Math.max(maxActive, active);
        runs.push(feed.id);
        deps.onProgress?.({ phase: 'applying', done: 1, total: 2 });
        if (runs.length === 1) await new Promise<void>((resolve) => (release = resolve));
        active--;
        // The real report builder records the trigger the job passed (reportOf's meta).
        return fakeRun(feed.id, options?.trigger ? { trigger: options.trigger } : {});
      });
      await enqueueFeedSync(service.queue, { feedId: 'a' });
      await waitFor(() => runs.length === 1, 5000, 'the first run');
      try {
        for (let i = 0; i < 5; i++) await enqueueFeedSync(service.queue, { feedId: 'a', trigger: 'manual' });
        // Nothing a worker could start: BullMQ keeps the one follow-up aside until the active run ends.
        expect(await service.queue.getJobCounts('active', 'waiting', 'delayed', 'prioritized')).toEqual({
          active: 1,
          waiting: 0,
          delayed: 0,
          prioritized: 0,
        });
        expect(runs).toHaveLength(1);
      } finally {
        release();
      }
      // The follow-up is added as the run completes, in the same step: once two are completed and
      // nothing waits, no third run can appear.
      await waitFor(
        async () => {
          const counts = await service.queue.getJobCounts('completed', 'active', 'waiting', 'delayed');
          return (
            counts.completed === 2 &&
            (counts.active ?? 0) + (counts.waiting ?? 0) + (counts.delayed ?? 0) === 0
          );
        },
        10_000,
        'the follow-up',
      );
      expect(runs).toHaveLength(2);
      expect(maxActive).toBe(1);
      const completed = await service.queue.getJobs(['completed']);
      expect(completed.map((j) => (j.returnvalue as { outcome: string }).outcome)).toEqual(['ok', 'ok']);
      const state = await service.state.getFeed('a');
      expect((state.lastReport as { feedId: string }).feedId).toBe('a');
      // Both runs are in the feed's history, newest first, with what started them.
      const history = (await service.state.listRuns('a')) as { feedId: string; trigger?: string }[];
      expect(history.map((r) => [r.feedId, r.trigger])).toEqual([
        ['a', 'manual'],
        ['a', 'manual'],
      ]);
    });
  });

  describe.skipIf(!backend.available)('progress, logs, retention', () => {
    it('reports phases and percent, logs guards, the first 20 rejections and failures, keeps jobs as configured', async () => {
      const service = await start(async (_c, feed, deps) => {
        for (const [phase, done, total] of [
          ['fetching', 0, 0],
          ['normalizing', 9, 10],
          ['snapshot', 0, 0],
          ['applying', 0, 100],
          ['applying', 1, 100],
          ['applying', 50, 100],
          ['done', 0, 0],
        ] as const)
          deps.onProgress?.({ phase, done, total });
        return fakeRun(feed.id, {
          outcome: 'failed',
          rejected: 25,
          rejections: Array.from({ length: 25 }, (_, i) => ({
            feedId: feed.id,
            index: i,
            row: i + 2,
            field: 'Bedrooms',
            value: 'three',
            reason: 'not-a-number',
            message: `Row ${i + 2} of a.csv: Bedrooms "three" is not a number`,
          })),
          guards: [{ guard: 'max-delete-share', tripped: false, message: 'deletes 1% of 100' }],
          failed: [{ key: 'MLS-7', operation: 'update', code: 'E_PLATFORM', message: 'refused' }],
        } as Partial<RunReport>);
      });
      const events = service.store.createQueueEvents();
      const seen: unknown[] = [];
      events.on('progress', ({ data }) => seen.push(data));
      await events.waitUntilReady();
      const id = await enqueueFeedSync(service.queue, { feedId: 'a' });
      const job = await waitFor(async () => {
        const found = id ? await service.queue.getJob(id) : undefined;
        return found && (await found.isCompleted()) ? found : undefined;
      });
      const { logs } = await service.queue.getJobLogs(job.id!);
      expect(logs.filter((l) => l.startsWith('guard '))).toEqual([
        'guard max-delete-share: ok — deletes 1% of 100',
      ]);
      expect(logs.filter((l) => l.startsWith('rejected: '))).toHaveLength(20);
      expect(logs).toContain('rejected: Row 2 of a.csv: Bedrooms "three" is not a number');
      expect(logs).toContain('failed: update MLS-7: E_PLATFORM refused');
      expect(logs.at(-1)).toBe('failed: 1 created, 0 updated, 0 deleted, 0 unchanged, 25 rejected, 0 held');
      expect(job.progress).toEqual({ phase: 'done', done: 0, total: 0, percent: 100 });
      // Every phase change; within a phase at most one update in 500 ms (the three applying updates
      // came at once).
      await waitFor(() => seen.length >= 5, 5000, 'the progress events');
      await events.close();
      expect(seen).toEqual([
        { phase: 'fetching', done: 0, total: 0, percent: 0 },
        { phase: 'normalizing', done: 9, total: 10, percent: 20 },
        { phase: 'snapshot', done: 0, total: 0, percent: 25 },
        { phase: 'applying', done: 0, total: 100, percent: 40 },
        { phase: 'done', done: 0, total: 0, percent: 100 },
      ]);
      expect(job.opts).toMatchObject({
        attempts: 3,
        backoff: { type: 'exponential', delay: 50, jitter: 0.5 },
        removeOnComplete: { count: 200, age: 604_800 },
        removeOnFail: { count: 1000, age: 2_592_000 },
      });
    });

    it('retention comes from the config', async () => {
      const config = testConfig(
        [{ id: 'a' }],
        'worker: { removeOnComplete: { count: 2, age: 60 }, removeOnFail: { count: 3, age: 120 } }\n',
      );
      let runs = 0;
      const service = await start(async (_c, feed) => {
        runs++;
        return fakeRun(feed.id);
      }, config);
      for (let i = 1; i <= 4; i++) {
        await enqueueFeedSync(service.queue, { feedId: 'a' });
        await waitFor(
          async () => {
            const { active, waiting } = await service.queue.getJobCounts('active', 'waiting');
            return runs === i && active === 0 && waiting === 0;
          },
          5000,
          `run ${i}`,
        );
      }
      const [job] = await service.queue.getJobs(['completed']);
      expect(job?.opts).toMatchObject({
        removeOnComplete: { count: 2, age: 60 },
        removeOnFail: { count: 3, age: 120 },
      });
      expect((await service.queue.getJobCounts('completed')).completed).toBe(2);
    });
  });

  describe.skipIf(!backend.available)('stalled jobs', () => {
    it('a worker that dies mid-run loses its job to the next worker, which runs it again', async () => {
      const store = await freshStore();
      const runs: string[] = [];
      const crashed = await start(
        async () => {
          runs.push('crashed');
          return new Promise<never>(() => {});
        },
        testConfig([{ id: 'a' }]),
        store,
      );
      await enqueueFeedSync(crashed.queue, { feedId: 'a' });
      await waitFor(() => runs.length === 1, 5000, 'the first run');
      // A crash: no lock renewal, no completion, the job stays active. The embedded store is one
      // process's, so there the next worker starts after the crashed one is gone (a restart).
      await crashed.worker?.close(true);
      if (!backend.shared) {
        services.splice(services.indexOf(crashed), 1);
        await crashed.close();
      }
      const survivor = await start(
        async (_c, feed) => {
          runs.push('survivor');
          return fakeRun(feed.id);
        },
        testConfig([{ id: 'a' }]),
        store,
      );
      const [job] = await waitFor(
        async () => {
          const jobs = await survivor.queue.getJobs(['completed']);
          return jobs.length ? jobs : undefined;
        },
        10_000,
        'the recovered run',
      );
      expect(runs).toEqual(['crashed', 'survivor']);
      expect(job?.returnvalue).toMatchObject({ outcome: 'ok' });
    });
  });

  describe.skipIf(!backend.available)('errors', () => {
    it('a 5xx is retried with backoff, a 4xx fails at once, a platform refusal too', async () => {
      const attempts: Record<string, number> = {};
      const service = await start(
        async (_c, feed) => {
          attempts[feed.id] = (attempts[feed.id] ?? 0) + 1;
          if (feed.id === 'flaky' && attempts[feed.id]! < 3) throw platformStatusError('list', 503);
          if (feed.id === 'bad') throw platformStatusError('list', 401);
          if (feed.id === 'refused') throw new PlatformError('create', 400, 'bad field');
          return fakeRun(feed.id);
        },
        testConfig([{ id: 'flaky' }, { id: 'bad' }, { id: 'refused' }]),
      );
      for (const feedId of ['flaky', 'bad', 'refused']) await enqueueFeedSync(service.queue, { feedId });
      await waitFor(
        async () =>
          (await service.queue.getJobCounts('completed', 'failed')).completed === 1 &&
          (await service.queue.getJobCounts('failed')).failed === 2,
        10_000,
        'three settled jobs',
      );
      expect(attempts).toEqual({ flaky: 3, bad: 1, refused: 1 });
      const failed = await service.queue.getJobs(['failed']);
      expect(failed.map((j) => j.failedReason).sort()).toEqual([
        'E_HTTP: list: HTTP 401',
        'E_PLATFORM: create: platform answered Code 400: bad field',
      ]);
    });

    it('a 429 holds the worker for Retry-After without spending an attempt', async () => {
      const starts: number[] = [];
      const service = await start(async (_c, feed) => {
        starts.push(Date.now());
        if (starts.length === 1) throw platformStatusError('list', 429, { retryAfterMs: 400 });
        return fakeRun(feed.id);
      });
      await enqueueFeedSync(service.queue, { feedId: 'a' });
      const [job] = await waitFor(async () => {
        const jobs = await service.queue.getJobs(['completed']);
        return jobs.length ? jobs : undefined;
      });
      expect(starts).toHaveLength(2);
      expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(350);
      expect(job?.attemptsMade).toBeLessThanOrEqual(1);
    });

    it('an invalid payload is unrecoverable', async () => {
      const service = await start(async (_c, feed) => fakeRun(feed.id));
      await service.queue.add(
        'sync-feed',
        { feed: 'a' },
        { deduplication: { id: 'x', keepLastIfActive: true } },
      );
      const [job] = await waitFor(async () => {
        const jobs = await service.queue.getJobs(['failed']);
        return jobs.length ? jobs : undefined;
      });
      expect(job?.failedReason).toMatch(/^E_PAYLOAD: invalid job data: feedId/);
      expect(job?.attemptsMade).toBe(1);
    });

    it('an unknown feed id fails at once, named, and nothing runs (the add form, a stale scheduler)', async () => {
      const runs: string[] = [];
      const service = await start(async (_c, feed) => {
        runs.push(feed.id);
        return fakeRun(feed.id);
      });
      await service.queue.add('sync-feed', { feedId: 'acme-typo' });
      const [job] = await waitFor(async () => {
        const jobs = await service.queue.getJobs(['failed']);
        return jobs.length ? jobs : undefined;
      });
      expect(job?.failedReason).toBe('E_UNKNOWN_FEED: no feed "acme-typo" in the config (feeds: a)');
      expect(job?.attemptsMade).toBe(1);
      expect(runs).toEqual([]);
      expect(await service.queue.getJobCounts('completed', 'waiting')).toEqual({ completed: 0, waiting: 0 });
    });
  });
});
