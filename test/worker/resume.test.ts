import { afterEach, describe, expect, it } from 'vitest';
import { startWorkerService, type WorkerService } from '../../jobs/worker-service.ts';
import { type Logger, silentLogger } from '../../src/logger.ts';
import { enqueueFeedSync, enqueueResume } from '../../src/queue/enqueue.ts';
import type { RunFeed } from '../../src/reconcile/index.ts';
import { liveRuns } from '../../src/ui/dashboard/data.ts';
import { capturedLogger } from '../helpers/captured-logger.ts';
import { BACKENDS, type TestStore } from './backends.ts';
import { fakeRun, testConfig, waitFor } from './helpers.ts';

/**
 * A run its provider's budget paused goes on by itself at `resumesAt` (trigger `resume`), and the
 * kick that waits for it never swallows a Run now meanwhile.
 */
const services: WorkerService[] = [];
const stores: TestStore[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await Promise.all(stores.splice(0).map((s) => s.cleanup()));
});

interface Run {
  feed: string;
  trigger: string | undefined;
  at: number;
}

async function start(
  backend: (typeof BACKENDS)[number],
  pauseMs: number,
  pauses: number,
  slowMs = 0,
  given: { resumesAt?: string; logger?: Logger } = {},
) {
  const store = await backend.fresh();
  stores.push(store);
  const runs: Run[] = [];
  const resumesAt: string[] = [];
  const sync: RunFeed = async (_config, feed, _deps, options) => {
    runs.push({ feed: feed.id, trigger: options?.trigger, at: Date.now() });
    if (runs.length > pauses) {
      await new Promise((resolve) => setTimeout(resolve, slowMs));
      return fakeRun(feed.id);
    }
    const at = given.resumesAt ?? new Date(Date.now() + pauseMs).toISOString();
    resumesAt.push(at);
    return fakeRun(feed.id, { outcome: 'paused', resumesAt: at, reason: 'the per-hour budget is spent' });
  };
  const service = await startWorkerService({
    config: testConfig([{ id: 'mls' }]),
    store: store.store,
    prefix: store.prefix,
    logger: given.logger ?? silentLogger,
    sync,
    settings: { shutdownGraceMs: 100 },
  });
  services.push(service);
  return { service, runs, resumesAt };
}

/** The feed's resume kick, once it waits in the queue. */
const kickWaiting = (service: WorkerService) =>
  waitFor(async () => (await service.queue.getJobs(['delayed'])).length === 1, 10_000, 'the kick');
/** The feed's resume kick, once it has ended. */
const kickEnded = (service: WorkerService) =>
  waitFor(
    async () => (await service.queue.getJobs(['completed'])).find((j) => j.id === 'resume-mls'),
    10_000,
    'the kick to end',
  );

describe.each(BACKENDS)('a paused run on $name', (backend) => {
  it.skipIf(!backend.available)('goes on at resumesAt, with trigger resume', async () => {
    const { service, runs, resumesAt } = await start(backend, 1500, 1);
    await enqueueFeedSync(service.queue, { feedId: 'mls', trigger: 'schedule' });
    await waitFor(() => runs.length === 2, 15_000, 'the resumed run');
    expect(runs.map((r) => r.trigger)).toEqual(['schedule', 'resume']);
    // Not before the budget allows it (BullMQ's delay; its clock is the store's, so a little slack).
    expect(runs[1]!.at).toBeGreaterThanOrEqual(Date.parse(resumesAt[0]!) - 250);
    // And once: no third run follows.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(runs).toHaveLength(2);
  });

  it.skipIf(!backend.available)(
    'a Run now while the kick waits runs at once; the kick runs later',
    async () => {
      const { service, runs, resumesAt } = await start(backend, 3000, 1);
      await enqueueFeedSync(service.queue, { feedId: 'mls', trigger: 'schedule' });
      await waitFor(() => runs.length === 1, 10_000, 'the paused run');
      await kickWaiting(service);
      await enqueueFeedSync(service.queue, { feedId: 'mls', trigger: 'manual' });
      await waitFor(() => runs.length === 2, 5000, 'the manual run');
      expect(runs[1]!.trigger).toBe('manual');
      expect(runs[1]!.at).toBeLessThan(Date.parse(resumesAt[0]!));
      await waitFor(() => runs.length === 3, 10_000, 'the resumed run');
      expect(runs[2]!.trigger).toBe('resume');
    },
  );

  it.skipIf(!backend.available)(
    'one kick per feed: a second pause moves it; the dashboard shows no run queued',
    async () => {
      const { service, runs } = await start(backend, 60_000, 1, 2000);
      await enqueueFeedSync(service.queue, { feedId: 'mls', trigger: 'schedule' });
      await kickWaiting(service);
      const later = new Date(Date.now() + 120_000).toISOString();
      expect(await enqueueResume(service.queue, 'mls', later)).toBe('resume-mls');
      const delayed = await service.queue.getJobs(['delayed']);
      expect(delayed.map((j) => j.id)).toEqual(['resume-mls']);
      expect(delayed[0]!.timestamp + delayed[0]!.delay).toBeGreaterThan(Date.now() + 100_000);
      // A kick is not a run: once the paused run has ended, the feed is not shown "queued…" for the pause.
      await waitFor(
        async () => (await service.queue.getJobs(['completed'])).some((j) => j.deduplicationId),
        10_000,
        'the paused run to end',
      );
      expect((await liveRuns(service.queue)).has('mls')).toBe(false);
      // The everyday case beside it: a run of the feed is shown.
      await enqueueFeedSync(service.queue, { feedId: 'mls', trigger: 'manual' });
      await waitFor(() => runs.length === 2, 5000, 'the manual run');
      expect((await liveRuns(service.queue)).get('mls')?.state).toBe('active');
    },
  );

  it.skipIf(!backend.available)(
    'a kick that fires while a run of the feed is on hands over to none',
    async () => {
      const { service, runs } = await start(backend, 0, 1, 4000);
      await enqueueFeedSync(service.queue, { feedId: 'mls', trigger: 'schedule' });
      await kickWaiting(service);
      // A Run now, slow, still on when the kick fires (at least 2 s after the pause).
      await enqueueFeedSync(service.queue, { feedId: 'mls', trigger: 'manual', forceFull: true });
      await waitFor(() => runs.length === 2, 5000, 'the manual run');
      const kick = await kickEnded(service);
      expect(kick.returnvalue).toMatchObject({
        outcome: 'skipped',
        reason: 'a run of the feed is already waiting or running',
      });
      await waitFor(
        async () =>
          (await service.queue.getJobs(['completed'])).filter((j) => j.deduplicationId).length === 2,
        10_000,
        'the manual run to end',
      );
      expect(runs.map((r) => r.trigger)).toEqual(['schedule', 'manual']);
    },
  );

  it.skipIf(!backend.available)('a kick whose feed left the config ends skipped, not failed', async () => {
    const { service, runs } = await start(backend, 800, 1);
    await enqueueFeedSync(service.queue, { feedId: 'mls', trigger: 'schedule' });
    await kickWaiting(service);
    await service.applyConfig(testConfig([{ id: 'other' }]));
    const kick = await kickEnded(service);
    expect(kick.returnvalue).toEqual({
      feedId: 'mls',
      outcome: 'skipped',
      reason: 'the feed is no longer in the config',
    });
    expect(await service.queue.getJobs(['failed'])).toEqual([]);
    // The new config's own feed ran (trigger config); mls did not run again.
    expect(runs.filter((r) => r.feed === 'mls').map((r) => r.trigger)).toEqual(['schedule']);
  });

  it.skipIf(!backend.available)('a dry run that pauses queues nothing', async () => {
    const { service, runs } = await start(backend, 1000, 5);
    await enqueueFeedSync(service.queue, { feedId: 'mls', trigger: 'manual', dryRun: true });
    await waitFor(() => runs.length === 1, 10_000, 'the dry run');
    await waitFor(async () => (await service.queue.getJobs(['completed'])).length >= 1, 5000, 'its end');
    expect(await service.queue.getJobs(['delayed', 'waiting'])).toEqual([]);
  });

  it.skipIf(!backend.available)(
    'a kick that cannot be queued is logged; the run stays paused, not failed',
    async () => {
      // A resumesAt that is no time: queuing the kick throws, and takes the path a store that is down
      // would take (the same rejection handler in jobs/sync-feed.ts).
      const { logger, lines } = capturedLogger('warn');
      const { service, runs } = await start(backend, 1000, 5, 0, { resumesAt: 'soon', logger });
      await enqueueFeedSync(service.queue, { feedId: 'mls', trigger: 'schedule' });
      await waitFor(() => runs.length === 1, 10_000, 'the paused run');
      const done = await waitFor(
        async () => (await service.queue.getJobs(['completed'])).find((j) => j.data.feedId === 'mls'),
        10_000,
        'its job to end',
      );
      expect(done.returnvalue).toMatchObject({ outcome: 'paused', resumesAt: 'soon' });
      expect(await service.queue.getJobs(['failed', 'delayed'])).toEqual([]);
      const warned = lines.map((line) => JSON.parse(line)).find((l) => /could not queue the run/.test(l.msg));
      expect(warned?.err?.message).toMatch(/resumesAt is not a time: soon/);
    },
  );
});
