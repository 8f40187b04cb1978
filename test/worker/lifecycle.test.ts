import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorkerService, type WorkerService } from '../../jobs/worker-service.ts';
import { clientFromConfig, type PlatformClient, platformStatusError } from '../../src/api/index.ts';
import type { Config } from '../../src/config/schema.ts';
import { silentLogger } from '../../src/logger.ts';
import { enqueueFeedSync } from '../../src/queue/enqueue.ts';
import type { RunFeed } from '../../src/reconcile/index.ts';
import { syncFeed } from '../../src/reconcile/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { listings } from '../../src/testing/listing.ts';
import { recordsFeed } from '../../src/testing/records-feed.ts';
import { makeConfig } from '../reconcile/fixtures.ts';
import { BACKENDS, type TestStore } from './backends.ts';
import { waitFor } from './helpers.ts';

const FAST = {
  backoffMs: 50,
  attempts: 3,
  shutdownGraceMs: 100,
  stalledIntervalMs: 1000,
  lockDurationMs: 2000,
};
const services: WorkerService[] = [];
let sandbox: Sandbox | undefined;
let store: TestStore | undefined;

afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await sandbox?.close();
  await store?.cleanup();
  store = undefined;
});

/** The real sync, fed listings built in code (through the reader) instead of a feed file. */
const realSync =
  (count: number): RunFeed =>
  (config, feed, deps, options) =>
    syncFeed(config, feed, { ...deps, open: recordsFeed(listings(1, count)) }, options);

async function start(
  sync: RunFeed,
  feeds: number,
  api: Record<string, unknown> = {},
  client?: (config: Config) => PlatformClient,
) {
  const config = makeConfig(
    Array.from({ length: feeds }, () => ({})),
    { baseUrl: sandbox!.url, ...api },
  );
  const service = await startWorkerService({
    config,
    store: store!.store,
    prefix: store!.prefix,
    logger: silentLogger,
    sync,
    settings: FAST,
    ...(client ? { client: client(config) } : {}),
  });
  services.push(service);
  return service;
}

describe.each(BACKENDS)('the worker against the sandbox, on $name', (backend) => {
  beforeEach(async () => {
    if (backend.available) store = await backend.fresh();
  });

  it.skipIf(!backend.available)(
    'SIGTERM mid-apply stops the run, records the partial report, and the next worker converges',
    async () => {
      sandbox = await startSandbox({ latencyMs: 25 });
      const first = await start(realSync(40), 1, { concurrency: 2 });
      await enqueueFeedSync(first.queue, { feedId: 'feed1' });
      await waitFor(() => sandbox!.listings('SN-1').length >= 4, 10_000, 'the apply to start');
      const started = Date.now();
      await first.close();
      services.splice(services.indexOf(first), 1);
      expect(Date.now() - started).toBeLessThan(3000);
      const written = sandbox.listings('SN-1').length;
      expect(written).toBeGreaterThan(0);
      expect(written).toBeLessThan(40);
      const next = await start(realSync(40), 1, { concurrency: 2 });
      // The cancelled run's report was recorded, and kept across the restart (the store's state).
      expect((await next.state.getFeed('feed1')).lastReport).toMatchObject({
        feedId: 'feed1',
        outcome: 'cancelled',
      });
      // The repair run queued at shutdown converges without waiting for the schedule.
      const outcome = async () =>
        ((await next.state.getFeed('feed1')).lastReport as { outcome?: string }).outcome;
      await waitFor(async () => (await outcome()) === 'ok', 15_000, 'the repair run');
      expect(sandbox.listings('SN-1')).toHaveLength(40);
    },
  );

  it.skipIf(!backend.available)(
    'a second signal (stopNow) stops the running run at once, its report saved as cancelled, within a long grace',
    async () => {
      sandbox = await startSandbox({ latencyMs: 25 });
      const config = makeConfig([{}], { baseUrl: sandbox.url, concurrency: 2 });
      const first = await startWorkerService({
        config,
        store: store!.store,
        prefix: store!.prefix,
        logger: silentLogger,
        sync: realSync(400),
        settings: { ...FAST, shutdownGraceMs: 60_000 },
      });
      services.push(first);
      await enqueueFeedSync(first.queue, { feedId: 'feed1' });
      await waitFor(() => sandbox!.listings('SN-1').length >= 4, 10_000, 'the apply to start');
      const started = Date.now();
      const closing = first.close();
      first.stopNow();
      await closing;
      services.splice(services.indexOf(first), 1);
      // Not the minute of grace: the run stopped at once, and said so in its report.
      expect(Date.now() - started).toBeLessThan(5000);
      expect(sandbox.listings('SN-1').length).toBeLessThan(400);
      const next = await start(realSync(400), 1, { concurrency: 2 });
      expect((await next.state.getFeed('feed1')).lastReport).toMatchObject({ outcome: 'cancelled' });
    },
  );

  it.skipIf(!backend.available)(
    'SIGTERM during the snapshot records the run as cancelled, not failed: no retry, a repair run',
    async () => {
      // Slow pages: the shutdown lands while the run reads the listings.
      sandbox = await startSandbox({ latencyMs: 400 });
      const first = await start(realSync(3), 1, { pageSize: 1 });
      await enqueueFeedSync(first.queue, { feedId: 'feed1' });
      await waitFor(async () => (await first.queue.getActiveCount()) > 0, 10_000, 'the run to start');
      await new Promise((r) => setTimeout(r, 100));
      await first.close();
      services.splice(services.indexOf(first), 1);
      expect(sandbox.listings('SN-1')).toHaveLength(0);
      const next = await start(realSync(3), 1, { pageSize: 1 });
      expect((await next.state.getFeed('feed1')).lastReport).toMatchObject({ outcome: 'cancelled' });
      const outcome = async () =>
        ((await next.state.getFeed('feed1')).lastReport as { outcome?: string }).outcome;
      await waitFor(async () => (await outcome()) === 'ok', 15_000, 'the repair run');
      expect(await next.queue.getJobs(['failed'])).toHaveLength(0);
      expect(sandbox.listings('SN-1')).toHaveLength(3);
    },
  );

  it.skipIf(!backend.available)(
    'a run the platform stopped before its plan is retried (5xx) or failed at once (4xx)',
    async () => {
      sandbox = await startSandbox();
      // The platform's answers to the snapshot's reads, in order; then the sandbox answers.
      const outages: Record<string, number[]> = { feed1: [503, 503], feed2: [401] };
      const listCalls: Record<string, number> = {};
      const failing = (config: Config): PlatformClient => {
        const client = clientFromConfig(config);
        return {
          ...client,
          listListingsDecoded: (request, decode, options) => {
            const feedId = request.SerialNumber === 'SN-1' ? 'feed1' : 'feed2';
            listCalls[feedId] = (listCalls[feedId] ?? 0) + 1;
            const status = outages[feedId]?.shift();
            return status
              ? Promise.reject(platformStatusError('list', status))
              : client.listListingsDecoded(request, decode, options);
          },
        };
      };
      const service = await start(realSync(3), 0, {}, failing);
      // Two feeds new in the config: each gets its one run at once (trigger config), no kick needed.
      await service.applyConfig(makeConfig([{}, { chatbot: 'SN-2' }], { baseUrl: sandbox.url }));
      const settled = async () => {
        const [done] = await service.queue.getJobs(['completed']);
        const [failed] = await service.queue.getJobs(['failed']);
        return done && failed ? { done, failed } : undefined;
      };
      const { done, failed } = await waitFor(settled, 15_000, 'both runs to settle');
      expect(done.data).toMatchObject({ feedId: 'feed1', trigger: 'config' });
      expect(done.attemptsMade).toBe(3);
      expect(done.returnvalue).toMatchObject({ outcome: 'ok', created: 3 });
      expect(sandbox.listings('SN-1')).toHaveLength(3);
      expect(failed.data).toMatchObject({ feedId: 'feed2', trigger: 'config' });
      expect(failed.failedReason).toBe('E_HTTP: list: HTTP 401');
      expect(failed.attemptsMade).toBe(1);
      // Each failed attempt still recorded its report.
      expect((await service.state.getFeed('feed2')).lastReport).toMatchObject({ outcome: 'failed' });
      expect(await service.queue.getJobLogs(failed.id!)).toMatchObject({
        logs: expect.arrayContaining(['run failed before its plan: list: HTTP 401']),
      });
    },
  );

  it.skipIf(!backend.available || !backend.shared)(
    'two workers: one run per feed, and api.concurrency holds for both together',
    async () => {
      sandbox = await startSandbox({ latencyMs: 20 });
      const active = new Map<string, number>();
      let overlap = 0;
      const sync: RunFeed = async (config, feed, deps, options) => {
        active.set(feed.id, (active.get(feed.id) ?? 0) + 1);
        if (active.get(feed.id)! > 1) overlap++;
        try {
          // Many calls at once: only the shared limiter keeps the platform under the ceiling.
          await Promise.all(
            Array.from({ length: 12 }, (_, i) => deps.client.editSettings('SN-1', { Name: `n${i}` })),
          );
          return await realSync(3)(config, feed, deps, options);
        } finally {
          active.set(feed.id, active.get(feed.id)! - 1);
        }
      };
      const a = await start(sync, 4, { concurrency: 3 });
      const b = await start(sync, 4, { concurrency: 3 });
      sandbox.resetStats();
      for (let round = 0; round < 3; round++) {
        for (const feedId of ['feed1', 'feed2', 'feed3', 'feed4'])
          await enqueueFeedSync(round % 2 ? a.queue : b.queue, { feedId });
      }
      await waitFor(
        async () => {
          const {
            waiting = 0,
            active = 0,
            delayed = 0,
            completed = 0,
          } = await a.queue.getJobCounts('waiting', 'active', 'delayed', 'completed');
          return completed >= 4 && waiting + active + delayed === 0;
        },
        20_000,
        'every run',
      );
      expect(overlap).toBe(0);
      const stats = sandbox.stats();
      expect(stats.requests.edit).toBeGreaterThanOrEqual(48);
      expect(stats.peakInFlight).toBeLessThanOrEqual(3);
      expect(stats.peakInFlight).toBeGreaterThanOrEqual(2);
    },
  );
});
