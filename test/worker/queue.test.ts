import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError, PlatformError } from '../../src/api/index.ts';
import { silentLogger } from '../../src/logger.ts';
import { enqueueFeedSync } from '../../src/queue/enqueue.ts';
import type { SyncFeed } from '../../src/queue/sync-contract.ts';
import { startWorkerService, type WorkerService } from '../../src/queue/worker-service.ts';
import { redisAvailable } from '../helpers/services.ts';
import { cleanupPrefix, fakeReport, REDIS_URL, testConfig, uniquePrefix, waitFor } from './helpers.ts';

const FAST = {
  backoffMs: 50,
  attempts: 3,
  shutdownGraceMs: 200,
  stalledIntervalMs: 1000,
  lockDurationMs: 2000,
};
const services: WorkerService[] = [];
const prefixes: string[] = [];

afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await Promise.all(prefixes.splice(0).map(cleanupPrefix));
});

async function start(
  sync: SyncFeed,
  config = testConfig([{ id: 'a' }]),
  prefix = uniquePrefix(),
  process = true,
) {
  if (!prefixes.includes(prefix)) prefixes.push(prefix);
  const service = await startWorkerService({
    config,
    redisUrl: REDIS_URL,
    prefix,
    logger: silentLogger,
    sync,
    settings: FAST,
    process,
  });
  services.push(service);
  return service;
}

describe.skipIf(!redisAvailable)('job schedulers from config', () => {
  it('are created, changed and removed with the config', async () => {
    const service = await start(
      async (_c, feed) => fakeReport(feed.id),
      testConfig([
        { id: 'a', cron: '0 * * * *' },
        { id: 'b', cron: '*/5 * * * *', timezone: 'Europe/Paris' },
        { id: 'c' },
      ]),
      uniquePrefix(),
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

  it('a scheduled tick runs the feed through the deduplicated path', async () => {
    const runs: string[] = [];
    const service = await start(
      async (_c, feed) => {
        runs.push(feed.id);
        return fakeReport(feed.id);
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

describe.skipIf(!redisAvailable)('one run per feed', () => {
  it('a kick during a run queues exactly one follow-up', async () => {
    let release!: () => void;
    let active = 0;
    let maxActive = 0;
    const runs: string[] = [];
    const service = await start(async (_c, feed, deps) => {
      active++;
      maxActive = Math.max(maxActive, active);
      runs.push(feed.id);
      deps.onProgress?.({ phase: 'applying', percent: 50 });
      if (runs.length === 1) await new Promise<void>((resolve) => (release = resolve));
      active--;
      return fakeReport(feed.id);
    });
    await enqueueFeedSync(service.queue, { feedId: 'a' });
    await waitFor(() => runs.length === 1, 5000, 'the first run');
    for (let i = 0; i < 5; i++) await enqueueFeedSync(service.queue, { feedId: 'a', trigger: 'manual' });
    await sleep(200);
    expect(runs).toHaveLength(1);
    release();
    await waitFor(() => runs.length === 2, 5000, 'the follow-up');
    await sleep(300);
    expect(runs).toHaveLength(2);
    expect(maxActive).toBe(1);
    const completed = await service.queue.getJobs(['completed']);
    expect(completed.map((j) => (j.returnvalue as { outcome: string }).outcome)).toEqual(['ok', 'ok']);
    const [first] = completed.sort((x, y) => Number(x.id) - Number(y.id));
    expect(first?.progress).toEqual({ phase: 'applying', percent: 50 });
    const state = await service.state.getFeed('a');
    expect((state.lastReport as { feedId: string }).feedId).toBe('a');
  });
});

describe.skipIf(!redisAvailable)('stalled jobs', () => {
  it('a worker that dies mid-run loses its job to another worker, which runs it again', async () => {
    const prefix = uniquePrefix();
    const runs: string[] = [];
    const crashed = await start(
      async () => {
        runs.push('crashed');
        return new Promise<never>(() => {});
      },
      testConfig([{ id: 'a' }]),
      prefix,
    );
    await enqueueFeedSync(crashed.queue, { feedId: 'a' });
    await waitFor(() => runs.length === 1, 5000, 'the first run');
    // A crash: no lock renewal, no completion, the job stays active.
    await crashed.worker?.close(true);
    const survivor = await start(
      async (_c, feed) => {
        runs.push('survivor');
        return fakeReport(feed.id);
      },
      testConfig([{ id: 'a' }]),
      prefix,
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

describe.skipIf(!redisAvailable)('errors', () => {
  it('a 5xx is retried with backoff, a 4xx fails at once, a platform refusal too', async () => {
    const attempts: Record<string, number> = {};
    const service = await start(
      async (_c, feed) => {
        attempts[feed.id] = (attempts[feed.id] ?? 0) + 1;
        if (feed.id === 'flaky' && attempts[feed.id]! < 3) throw new HttpError('list', 503);
        if (feed.id === 'bad') throw new HttpError('list', 401);
        if (feed.id === 'refused') throw new PlatformError('create', 400, 'bad field');
        return fakeReport(feed.id);
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
      if (starts.length === 1) throw new HttpError('list', 429, { retryAfterMs: 400 });
      return fakeReport(feed.id);
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
    const service = await start(async (_c, feed) => fakeReport(feed.id));
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
});
