import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorkerService, type WorkerService } from '../../jobs/worker-service.ts';
import { platformStatusError } from '../../src/api/index.ts';
import { loadConfig } from '../../src/config/load.ts';
import { silentLogger } from '../../src/logger.ts';
import { enqueueFeedSync } from '../../src/queue/enqueue.ts';
import type { RunFeed, RunReport } from '../../src/reconcile/index.ts';
import { reloadOnChange } from '../../src/schedule/config-watch.ts';
import { createFileStateStore } from '../../src/state/index.ts';
import { capturedLogger } from '../helpers/captured-logger.ts';
import { redisAvailable } from '../helpers/services.ts';
import { ok, sendJson, type TestServer, withServer } from '../helpers/with-server.ts';
import { BACKENDS } from './backends.ts';
import { cleanupPrefix, fakeRun, REDIS_URL, testConfig, uniquePrefix, waitFor } from './helpers.ts';

const FAST = {
  backoffMs: 30,
  attempts: 3,
  shutdownGraceMs: 100,
  stalledIntervalMs: 1000,
  lockDurationMs: 2000,
};
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(
  sync: RunFeed,
  extra: Partial<typeof FAST> & { alerts?: { webhookUrl: string; rejectedShare: number } } = {},
) {
  const prefix = uniquePrefix();
  const service = await startWorkerService({
    config: testConfig([{ id: 'a' }]),
    store: { kind: 'redis' as const, url: REDIS_URL },
    prefix,
    logger: silentLogger,
    sync,
    settings: { ...FAST, ...extra },
  });
  cleanups.push(
    () => cleanupPrefix(prefix),
    () => service.close(),
  );
  return service;
}

async function runOnce(service: WorkerService, count: number) {
  await enqueueFeedSync(service.queue, { feedId: 'a' });
  await waitFor(
    async () => (await service.queue.getJobs(['completed', 'failed'])).length >= count,
    10_000,
    `${count} settled runs`,
  );
}

describe.skipIf(!redisAvailable)('alerts', () => {
  let hook: TestServer;
  const posts = () => hook.requests.map((r) => r.body as { text: string; kind: string; feedId: string });

  it('posts once per incident, with a Slack text, and again after it was over', async () => {
    hook = await withServer((_req, res) => sendJson(res, 200, { ok: true }));
    cleanups.push(() => hook.close());
    const reports: Partial<RunReport>[] = [
      {
        outcome: 'failed',
        failed: [{ key: 'MLS-1', operation: 'create', code: 'E_PLATFORM', message: 'refused' }],
      },
      { outcome: 'failed', reason: 'still failing' },
      { outcome: 'ok' },
      { outcome: 'guarded', heldDeletes: 12, reason: 'would delete 60% of the feed' },
      { outcome: 'ok', read: 10, rejected: 5, created: 5 },
    ];
    let n = 0;
    const service = await start(async (_c, feed) => fakeRun(feed.id, reports[n++]), {
      alerts: { webhookUrl: `${hook.url}/hook`, rejectedShare: 0.2 },
    });
    for (let i = 1; i <= reports.length; i++) await runOnce(service, i);
    await sleep(100);
    expect(posts().map((p) => p.kind)).toEqual(['failed', 'guarded', 'rejected']);
    expect(posts()[0]).toMatchObject({
      feedId: 'a',
      outcome: 'failed',
      text: expect.stringContaining('run of feed a failed'),
    });
    expect(posts()[1]?.text).toContain('12 deletes held back');
    expect(posts()[2]?.text).toContain('rejected 5 of 10 records (50%');
  });

  it('a run that fails for good alerts once, not once per retry', async () => {
    hook = await withServer((_req, res) => sendJson(res, 200, { ok: true }));
    cleanups.push(() => hook.close());
    let attempts = 0;
    const service = await start(
      async () => {
        attempts++;
        throw platformStatusError('list', 503);
      },
      { alerts: { webhookUrl: hook.url, rejectedShare: 0.1 } },
    );
    await enqueueFeedSync(service.queue, { feedId: 'a' });
    await waitFor(
      async () => (await service.queue.getJobs(['failed'])).length === 1,
      10_000,
      'the final failure',
    );
    // The post follows the job's move to failed (an event): wait for it, not a fixed time.
    await waitFor(() => posts().length === 1, 5000, 'the alert');
    await enqueueFeedSync(service.queue, { feedId: 'a' });
    await waitFor(
      async () => (await service.queue.getJobs(['failed'])).length === 2,
      10_000,
      'the second failure',
    );
    // Nothing to wait for here: a second post would be a bug; give one a moment to show up.
    await sleep(200);
    expect(attempts).toBe(6);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.text).toBe('feed-sync: run of feed a failed: list: HTTP 503');
  });
});

describe.skipIf(!redisAvailable)('config reload', () => {
  it('applies a valid change, refuses an invalid one and keeps the running config', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-reload-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'feed-sync.yaml');
    const feedYaml = (id: string, cron: string, extra = '') =>
      `  - { id: ${id}, chatbot: BOT1, source: { format: csv, path: x.csv }, schedule: { cron: "${cron}" }${extra} }`;
    await writeFile(
      file,
      ['api: { secretKey: k }', 'feeds:', feedYaml('a', '0 1 * * *'), feedYaml('b', '0 2 * * *')].join('\n'),
    );
    const prefix = uniquePrefix();
    const service = await startWorkerService({
      config: await loadConfig(file),
      store: { kind: 'redis' as const, url: REDIS_URL },
      prefix,
      logger: silentLogger,
      sync: async (_c, feed) => fakeRun(feed.id),
      settings: FAST,
    });
    cleanups.push(
      () => cleanupPrefix(prefix),
      () => service.close(),
    );
    const { logger, lines } = capturedLogger();
    const stop = reloadOnChange(file, service, logger, { debounceMs: 30 });
    cleanups.push(async () => stop());
    const schedulers = async () =>
      (await service.queue.getJobSchedulers(0, -1)).map((s) => `${s.key} ${s.pattern}`).sort();
    expect(await schedulers()).toEqual(['sync-feed:a 0 1 * * *', 'sync-feed:b 0 2 * * *']);

    await writeFile(file, ['api: { secretKey: k }', 'feeds:', feedYaml('a', '30 1 * * *')].join('\n'));
    await waitFor(async () => (await schedulers()).join() === 'sync-feed:a 30 1 * * *', 5000, 'the reload');
    expect(service.config().feeds.map((f) => f.id)).toEqual(['a']);

    await writeFile(
      file,
      ['api: { secretKey: k }', 'feeds:', feedYaml('a', '30 1 * * *', ', maxDeleteShare: 7')].join('\n'),
    );
    await waitFor(() => lines.some((l) => l.includes('config change refused')), 5000, 'the refusal');
    expect(lines.find((l) => l.includes('refused'))).toContain('maxDeleteShare');
    expect(await schedulers()).toEqual(['sync-feed:a 30 1 * * *']);
    expect(service.config().feeds[0]?.maxDeleteShare).toBe(0.2);
  });
});

describe.skipIf(!redisAvailable)('state stores', () => {
  it('the file store keeps state across a restart, merging patches', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-state-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'state.json');
    const first = createFileStateStore(file);
    await Promise.all([
      first.updateFeed('a', { etag: '"1"', resoWatermark: '2024-01-01T00:00:00Z' }),
      first.setSettingsFingerprint('BOT1', 'v1:abc'),
    ]);
    await first.updateFeed('a', { etag: undefined, lastFullRunAt: '2024-01-02T00:00:00Z' });
    const second = createFileStateStore(file);
    expect(await second.getFeed('a')).toEqual({
      resoWatermark: '2024-01-01T00:00:00Z',
      lastFullRunAt: '2024-01-02T00:00:00Z',
    });
    expect(await second.getSettingsFingerprint('BOT1')).toBe('v1:abc');
    expect(await second.getFeed('missing')).toEqual({});
  });
});

describe.each(BACKENDS)('state on $name', (backend) => {
  it.skipIf(!backend.available)('is kept across a worker restart, with the job history', async () => {
    // A run returns the state to save; the job saves it (a run only reads the store).
    const sync: RunFeed = async (_c, feed) => {
      const run = fakeRun(feed.id);
      return { ...run, state: { ...run.state, etag: '"v2"', lastFullRunAt: '2024-05-01T00:00:00Z' } };
    };
    const { store, prefix, cleanup } = await backend.fresh();
    cleanups.push(cleanup);
    const options = {
      config: testConfig([{ id: 'a' }]),
      store,
      prefix,
      logger: silentLogger,
      sync,
      settings: FAST,
    };
    const first = await startWorkerService(options);
    await first.state.setSettingsFingerprint('BOT1', 'v1:f00');
    await first.state.updateFeed('a', { resoWatermark: '2024-01-01T00:00:00Z' });
    await runOnce(first, 1);
    await first.state.updateFeed('a', { resoWatermark: undefined });
    await first.close();
    const second = await startWorkerService(options);
    cleanups.push(() => second.close());
    expect(await second.state.getFeed('a')).toEqual({
      etag: '"v2"',
      lastFullRunAt: '2024-05-01T00:00:00Z',
      lastReport: expect.objectContaining({ feedId: 'a', outcome: 'ok' }),
    });
    expect(await second.state.getSettingsFingerprint('BOT1')).toBe('v1:f00');
    expect(await second.state.getSettingsFingerprint('BOT2')).toBeUndefined();
    expect(await second.state.getFeed('missing')).toEqual({});
    const [job] = await second.queue.getJobs(['completed']);
    expect(job?.returnvalue).toMatchObject({ feedId: 'a', outcome: 'ok' });
  });
});

describe.skipIf(!redisAvailable)('settings pushes from the worker', () => {
  it('pushes on start, not again for the same settings, again when the config changes them', async () => {
    const platform = await withServer((_req, res) => sendJson(res, 200, ok(1)));
    cleanups.push(() => platform.close());
    const config = (name: string) =>
      testConfig(
        [],
        `chatbots:\n  - chatbot: BOT9\n    settings: { Name: "${name}", TimeZone: Europe/Paris }\n`,
      );
    const base = config('One');
    base.api.baseUrl = platform.url;
    const prefix = uniquePrefix();
    const service = await startWorkerService({
      config: base,
      store: { kind: 'redis' as const, url: REDIS_URL },
      prefix,
      logger: silentLogger,
      sync: async (_c, f) => fakeRun(f.id),
      settings: FAST,
    });
    cleanups.push(
      () => cleanupPrefix(prefix),
      () => service.close(),
    );
    await waitFor(() => platform.requests.length === 1, 5000, 'the first push');
    await service.applyConfig({ ...base });
    await waitFor(
      async () => (await service.queue.getJobs(['completed'])).length === 2,
      5000,
      'the second push job',
    );
    expect(platform.requests).toHaveLength(1);
    const changed = config('Two');
    changed.api.baseUrl = platform.url;
    await service.applyConfig(changed);
    await waitFor(() => platform.requests.length === 2, 5000, 'the push of the change');
    expect(platform.requests[1]?.body).toEqual({
      serialNumber: 'BOT9',
      Name: 'Two',
      TimeZone: 'Europe/Paris',
    });
  });
});
