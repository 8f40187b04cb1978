import { afterEach, expect, it } from 'vitest';
import { clientFromConfig } from '../../src/api/index.ts';
import { silentLogger } from '../../src/logger.ts';
import { type SyncOptions, saveRun, syncFeed } from '../../src/reconcile/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { createMemoryStateStore } from '../../src/state/state-store.ts';
import { type ODataServer, resoRecord, startOData } from '../helpers/reso-odata.ts';
import { makeConfig } from './fixtures.ts';

let sandbox: Sandbox | undefined;
let odata: ODataServer | undefined;
afterEach(async () => {
  await sandbox?.close();
  await odata?.close();
});

// A reviewer's case: the dashboard's override for a run's held deletes let them go without asking
// the provider, where --allow-mass-delete asks about every delete first.
it('an override for held deletes asks the provider first, as any delete: those it still lists are kept', async () => {
  const data = Array.from({ length: 10 }, (_, i) => resoRecord(i + 1));
  let hide = false;
  let calls = 0;
  sandbox = await startSandbox({ latencyMs: 1 });
  // The provider's main read leaves out 6 listings it still lists (the first query of each run).
  odata = await startOData({ dataset: () => (hide && calls++ === 0 ? data.slice(6) : data) });
  const config = makeConfig(
    [
      {
        id: 'mls',
        key: 'MLSNumber',
        maxDeleteShare: 0.5,
        source: {
          format: 'reso',
          url: `${odata.url}/odata`,
          auth: { type: 'bearer', token: 't' },
          retries: 0,
          reso: { provider: 'generic', mode: 'full' },
        },
        mapping: { preset: 'reso' },
      },
    ],
    { baseUrl: sandbox.url, pageSize: 100 },
  );
  const feed = config.feeds[0]!;
  const state = createMemoryStateStore();
  const client = clientFromConfig(config, { backoff: { baseMs: 5, maxMs: 50 } });
  const sync = async (options: SyncOptions = {}) => {
    calls = 0;
    const run = await syncFeed(
      config,
      feed,
      { client, state, logger: silentLogger },
      { trigger: 'schedule', forceFull: true, ...options },
    );
    await saveRun(state, run);
    return run.report;
  };
  expect(await sync()).toMatchObject({ created: 10 });
  hide = true;
  const guarded = await sync();
  expect(guarded).toMatchObject({ outcome: 'guarded', heldDeletes: 6 });
  const allowed = await sync({
    allowDeletes: { digest: guarded.heldDeletesDigest as string, count: guarded.heldDeletes },
  });
  expect(allowed.deleted).toBe(0);
  expect(allowed.guards.find((g) => g.guard === 'still-listed')?.message).toContain('still listed');
  expect(sandbox.listings('SN-1')).toHaveLength(10);
});
