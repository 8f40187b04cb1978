import { afterEach, describe, expect, it } from 'vitest';
import { startWorkerService, type WorkerService } from '../../jobs/worker-service.ts';
import { silentLogger } from '../../src/logger.ts';
import { enqueueFeedSync } from '../../src/queue/index.ts';
import { redisAvailable } from '../helpers/services.ts';
import { cleanupPrefix, fakeRun, REDIS_URL, testConfig, uniquePrefix, waitFor } from './helpers.ts';

/**
 * Issue 23 §1, a fleet's fairness on a worker with every slot busy: feeds run in the order they
 * were due, and a feed due again while its run is active gets one follow-up, queued when that run
 * ends, behind every feed waiting then: no feed runs twice while another due one has not run once.
 */
let service: WorkerService | undefined;
let prefix = '';
afterEach(async () => {
  await service?.close();
  service = undefined;
  await cleanupPrefix(prefix);
});

describe.skipIf(!redisAvailable)('a busy worker', () => {
  it('runs feeds in due order; a feed due again while it runs runs once more, after the feeds waiting', async () => {
    prefix = uniquePrefix();
    const started: string[] = [];
    const releases: Array<() => void> = [];
    const ids = ['f1', 'f2', 'f3', 'f4', 'f5'];
    service = await startWorkerService({
      config: testConfig(ids.map((id) => ({ id }))),
      store: { kind: 'redis', url: REDIS_URL },
      prefix,
      logger: silentLogger,
      sync: async (_config, feed) => {
        started.push(feed.id);
        await new Promise<void>((resolve) => releases.push(resolve));
        return fakeRun(feed.id);
      },
      settings: { concurrency: 1, shutdownGraceMs: 200 },
    });
    const kick = (feedId: string) => enqueueFeedSync(service!.queue, { feedId, trigger: 'schedule' });
    await kick('f1');
    await waitFor(() => started.length === 1, 5000, 'f1 to start');
    // Due while f1 runs: f2, f3; then f1 again, three times (its cron is faster than the round); then f4, f5.
    for (const id of ['f2', 'f3', 'f1', 'f1', 'f1', 'f4', 'f5']) await kick(id);
    for (let n = 1; n <= 6; n++) {
      await waitFor(() => started.length === n && releases.length === n, 5000, `run ${n}`);
      releases[n - 1]?.();
    }
    await waitFor(async () => (await service!.queue.getJobCountByTypes('completed')) === 6, 5000, 'the runs');
    expect(started).toEqual(['f1', 'f2', 'f3', 'f4', 'f5', 'f1']);
    expect(await service.queue.getJobCountByTypes('waiting', 'active', 'delayed', 'prioritized')).toBe(0);
  });

  it('takes as many jobs at once as feedsAtOnce says: auto from the platform budget, or the number set', async () => {
    prefix = uniquePrefix();
    const config = testConfig([{ id: 'f1' }]);
    service = await startWorkerService({
      config,
      store: { kind: 'redis', url: REDIS_URL },
      prefix,
      logger: silentLogger,
      sync: async (_config, feed) => fakeRun(feed.id),
    });
    // testConfig's api.concurrency is 4: auto is 16 feeds a slot.
    expect(config.api.concurrency).toBe(4);
    expect(service.worker?.concurrency).toBe(64);
    await service.applyConfig({ ...config, worker: { ...config.worker, concurrency: 3 } });
    expect(service.worker?.concurrency).toBe(3);
    await service.applyConfig({ ...config, api: { ...config.api, concurrency: 1 } });
    expect(service.worker?.concurrency).toBe(32);
  });
});
