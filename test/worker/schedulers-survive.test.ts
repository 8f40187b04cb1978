import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorkerService, type WorkerService } from '../../jobs/worker-service.ts';
import { createLogger } from '../../src/logger.ts';
import { enqueueFeedSync } from '../../src/queue/enqueue.ts';
import { createMetrics, startUi, type UiServer } from '../../src/ui/index.ts';
import { BACKENDS, type TestStore } from './backends.ts';
import { cleanupPrefix, fakeRun, REDIS_URL, testConfig, waitFor } from './helpers.ts';

/**
 * Issue 9, "the worker survives its Redis": a store that comes back empty (Redis restarted without
 * persistence) or a scheduler removed by hand in the UI must not leave a feed unscheduled while
 * `/healthz` says 200. Config is the source of truth.
 */
const services: WorkerService[] = [];
const stores: TestStore[] = [];
const uis: UiServer[] = [];
afterEach(async () => {
  await Promise.all(uis.splice(0).map((u) => u.close()));
  await Promise.all(services.splice(0).map((s) => s.close()));
  await Promise.all(stores.splice(0).map((s) => s.cleanup()));
});

const CONFIG = testConfig([
  { id: 'a', cron: '0 * * * *' },
  { id: 'b', cron: '*/5 * * * *', timezone: 'Europe/Paris' },
]);

async function start(
  backend: (typeof BACKENDS)[number],
  schedulerCheckMs: number,
  runs: string[] = [],
  schedules = true,
) {
  const store = await backend.fresh();
  stores.push(store);
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    }),
  });
  const service = await startWorkerService({
    config: CONFIG,
    store: store.store,
    prefix: store.prefix,
    logger,
    sync: async (_c, feed) => {
      runs.push(feed.id);
      return fakeRun(feed.id);
    },
    settings: { schedulerCheckMs, shutdownGraceMs: 100 },
    schedules,
  });
  services.push(service);
  const ui = await startUi({
    service,
    env: { UI_HOST: '127.0.0.1', UI_PORT: 0, UI_USER: 'operator', UI_PASSWORD: 's3cret-enough' },
    logger,
    metrics: createMetrics(),
  });
  uis.push(ui);
  const healthz = async () => {
    const response = await fetch(`${ui.url}/healthz`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { service, store, lines, healthz, ui };
}

const keys = async (service: WorkerService) =>
  (await service.queue.getJobSchedulers(0, -1)).map((s) => s.key).sort();

describe.each(BACKENDS)('schedulers on $name', (backend) => {
  it.skipIf(!backend.available)(
    'a scheduler removed by hand: /healthz is 503 naming it, then it is re-created and the log says so',
    async () => {
      const { service, lines, healthz } = await start(backend, 400);
      expect(await healthz()).toMatchObject({ status: 200, body: { ok: true, missingSchedulers: [] } });
      // What the queue UI's "remove" does.
      await service.queue.removeJobScheduler('sync-feed:b');
      const down = await healthz();
      // Between the removal and the next check the feed has no schedule, and health says so.
      if (down.status === 503) expect(down.body.missingSchedulers).toEqual(['sync-feed:b']);
      await waitFor(async () => (await keys(service)).length === 2, 10_000, 'the re-created scheduler');
      expect(await keys(service)).toEqual(['sync-feed:a', 'sync-feed:b']);
      const [held] = (await service.queue.getJobSchedulers(0, -1)).filter((s) => s.key === 'sync-feed:b');
      expect(held).toMatchObject({ pattern: '*/5 * * * *', tz: 'Europe/Paris' });
      const line = await waitFor(() => lines.find((l) => Array.isArray(l.schedulers)));
      expect(line).toMatchObject({ level: 40, schedulers: ['sync-feed:b'] });
      expect(String(line.msg)).toContain('re-created from config');
      expect(service.schedulers().restored?.ids).toEqual(['sync-feed:b']);
      expect(await healthz()).toMatchObject({ status: 200 });
    },
  );

  it.skipIf(!backend.available)(
    "the queue UI's Run now runs the feed at once, its schedule untouched",
    async () => {
      const runs: string[] = [];
      const { service, ui } = await start(backend, 600_000, runs);
      const response = await fetch(`${ui.url}/queues/api/queues/feed-sync/job-schedulers/sync-feed:b/run`, {
        method: 'PUT',
        headers: { authorization: `Basic ${Buffer.from('operator:s3cret-enough').toString('base64')}` },
      });
      expect(response.status).toBe(200);
      await waitFor(() => runs.length === 1, 10_000, 'the run');
      expect(runs).toEqual(['b']);
      expect(await keys(service)).toEqual(['sync-feed:a', 'sync-feed:b']);
    },
  );

  it.skipIf(!backend.available)('/healthz is 503 while a feed has no scheduler', async () => {
    // No periodic check within the test: health alone must see the hole.
    const { service, healthz } = await start(backend, 600_000);
    await service.queue.removeJobScheduler('sync-feed:a');
    expect(await healthz()).toMatchObject({
      status: 503,
      body: { ok: false, store: true, missingSchedulers: ['sync-feed:a'] },
    });
    expect(await service.checkSchedulers()).toEqual(['sync-feed:a']);
    expect(await healthz()).toMatchObject({ status: 200, body: { missingSchedulers: [] } });
  });
});

describe.skipIf(!BACKENDS[0]!.available)('a worker started with schedules: false', () => {
  it('puts no scheduler in the queue, is healthy without one, and still takes a queued run', async () => {
    const runs: string[] = [];
    const { service, healthz } = await start(BACKENDS[0]!, 200, runs, false);
    // Several periodic checks pass: none re-creates a scheduler.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await keys(service)).toEqual([]);
    expect(await service.checkSchedulers()).toEqual([]);
    expect(await healthz()).toMatchObject({ status: 200, body: { ok: true, missingSchedulers: [] } });
    await enqueueFeedSync(service.queue, { feedId: 'a', trigger: 'manual', forceFull: true });
    await waitFor(() => runs.length === 1, 10_000, 'the queued run');
    expect(runs).toEqual(['a']);
    await service.applyConfig(CONFIG);
    expect(await keys(service)).toEqual([]);
  });
});

describe.skipIf(!BACKENDS[0]!.available)('a Redis that comes back empty', () => {
  it('on reconnect the worker re-applies its schedulers from config', async () => {
    const { service, store, lines } = await start(BACKENDS[0]!, 600_000);
    // A restart without persistence: every key gone, then the connection drops and comes back.
    await cleanupPrefix(store.prefix);
    expect(await keys(service)).toEqual([]);
    const admin = new Redis(REDIS_URL);
    try {
      const clients = await admin.client('LIST');
      const ours = String(clients)
        .split('\n')
        .filter((line) => line.includes('name=feed-sync '))
        .map((line) => /id=(\d+)/.exec(line)?.[1])
        .filter(Boolean);
      expect(ours.length).toBeGreaterThan(0);
      for (const id of ours) await admin.client('KILL', 'ID', id!);
    } finally {
      admin.disconnect();
    }
    await waitFor(async () => (await keys(service)).length === 2, 10_000, 'the schedulers after reconnect');
    expect(await keys(service)).toEqual(['sync-feed:a', 'sync-feed:b']);
    expect(lines.some((l) => String(l.msg).includes('re-created from config'))).toBe(true);
  });
});
