import { afterEach, describe, expect, it } from 'vitest';
import { startWorkerService, type WorkerService } from '../../jobs/worker-service.ts';
import { silentLogger } from '../../src/logger.ts';
import { enqueueFeedSync } from '../../src/queue/enqueue.ts';
import { syncFeed } from '../../src/reconcile/index.ts';
import type { RunReport } from '../../src/reconcile/report-types.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { type ODataServer, resoRecord, startOData } from '../helpers/reso-odata.ts';
import { makeConfig } from '../reconcile/fixtures.ts';
import { BACKENDS, type TestStore } from './backends.ts';
import { waitFor } from './helpers.ts';

/**
 * The worker with an MLS Grid feed, the real sync and source: a first import in parts runs part after
 * part from one kick (each a run of its own in the history), and a spent budget ends a run `paused`
 * with its place and the budget kept in the store.
 */
const FAST = {
  backoffMs: 50,
  attempts: 3,
  shutdownGraceMs: 100,
  stalledIntervalMs: 1000,
  lockDurationMs: 2000,
};
const services: WorkerService[] = [];
let sandbox: Sandbox | undefined;
let odata: ODataServer | undefined;
let store: TestStore | undefined;
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await sandbox?.close();
  await odata?.close();
  await store?.cleanup();
  store = undefined;
});

const backend = BACKENDS.find((b) => b.name === 'embedded')!;

async function start(reso: Record<string, unknown>, records: number) {
  sandbox = await startSandbox({ latencyMs: 1 });
  const data = Array.from({ length: records }, (_, i) =>
    resoRecord(i + 1, {
      ModificationTimestamp: new Date(Date.parse('2024-01-01T00:00:00Z') + i * 1000).toISOString(),
    }),
  );
  odata = await startOData({ dataset: () => data });
  store = await backend.fresh();
  const config = makeConfig(
    [
      {
        id: 'mls',
        key: 'MLSNumber',
        source: {
          format: 'reso',
          url: `${odata.url}/odata`,
          auth: { type: 'bearer', token: 'worker-token' },
          retries: 0,
          reso: { provider: 'mlsgrid', originatingSystem: 'actris', mode: 'incremental', ...reso },
        },
        mapping: { preset: 'reso' },
      },
    ],
    { baseUrl: sandbox.url, pageSize: 200 },
  );
  const service = await startWorkerService({
    config,
    store: store.store,
    prefix: store.prefix,
    logger: silentLogger,
    sync: syncFeed,
    settings: FAST,
  });
  services.push(service);
  return service;
}

describe('the worker with an MLS Grid feed', () => {
  it('runs a first import part after part from one kick', async () => {
    const service = await start({ top: 50, recordsPerRun: 100, limits: { perSecond: 50 } }, 260);
    await enqueueFeedSync(service.queue, { feedId: 'mls' });
    const box = sandbox!;
    await waitFor(() => box.listings('SN-1').length === 260, 30_000, 'the whole import');
    const runs = (await waitFor(
      async () => {
        const all = (await service.state.listRuns('mls')) as RunReport[];
        return all.length >= 3 && !all[0]?.continues ? all : undefined;
      },
      10_000,
      'the last part',
    )) as RunReport[];
    expect(runs.map((r) => [r.outcome, r.created, r.continues ?? false]).reverse()).toEqual([
      ['ok', 100, true],
      // From the last record's instant: it is read again and skipped, so 99 new in two pages, then a third.
      ['ok', 149, true],
      ['ok', 11, false],
    ]);
    expect(runs[0]?.source).toMatch(/key sweep: 260 keys/);
    expect((await service.state.getFeed('mls')).resoCheckpoint).toBeUndefined();
  });

  it('ends a run paused when the hourly budget is spent, its place and budget kept in the store', async () => {
    const service = await start({ top: 5, limits: { perSecond: 50, perHour: 2 } }, 20);
    await enqueueFeedSync(service.queue, { feedId: 'mls' });
    const last = (await waitFor(
      async () => (await service.state.getFeed('mls')).lastReport as RunReport | undefined,
      20_000,
      'a report',
    )) as RunReport;
    expect(last).toMatchObject({ outcome: 'paused', created: 10, deleted: 0 });
    expect(Date.parse(last.resumesAt!)).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect((await service.state.getFeed('mls')).resoCheckpoint).toMatchObject({ records: 10 });
    // The worker goes on by itself when the budget allows: a kick waits in the queue until resumesAt.
    const kicks = await waitFor(async () => {
      const delayed = await service.queue.getJobs(['delayed']);
      return delayed.length > 0 ? delayed : undefined;
    });
    expect(kicks.map((j) => [j.id, j.data])).toEqual([['resume-mls', { feedId: 'mls', trigger: 'resume' }]]);
    expect(kicks[0]!.timestamp + kicks[0]!.delay).toBeGreaterThanOrEqual(Date.parse(last.resumesAt!) - 1000);
    // Run again at once: the budget in the store says no, and nothing is sent.
    const sent = odata!.queries.length;
    await enqueueFeedSync(service.queue, { feedId: 'mls', trigger: 'manual' });
    await waitFor(
      async () => ((await service.state.listRuns('mls')) as RunReport[]).length === 2,
      20_000,
      'the second run',
    );
    expect(odata!.queries.length).toBe(sent);
    expect(((await service.state.getFeed('mls')).lastReport as RunReport).outcome).toBe('paused');
  });
});
