import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createFileStateStore,
  createMemoryStateStore,
  createRedisStateStore,
  type HistoryOptions,
  type StateStore,
} from '../../src/state/index.ts';
import { REDIS_URL, redisAvailable, testPrefix } from '../helpers/services.ts';
import { cleanupPrefix } from '../worker/helpers.ts';

const report = (startedAt: string, extra: Record<string, unknown> = {}) => ({
  feedId: 'acme',
  startedAt,
  outcome: 'ok',
  ...extra,
});

const dirs: string[] = [];
const prefixes: string[] = [];
let redis: Redis | undefined;

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  for (const prefix of prefixes) await cleanupPrefix(prefix);
  redis?.disconnect();
});

const stores: [string, boolean, (options: HistoryOptions) => Promise<StateStore>][] = [
  ['memory', true, async (options) => createMemoryStateStore(options)],
  [
    'file',
    true,
    async (options) => {
      const dir = await mkdtemp(join(tmpdir(), 'feed-sync-history-'));
      dirs.push(dir);
      return createFileStateStore(join(dir, 'state.json'), options);
    },
  ],
  [
    'redis',
    redisAvailable,
    async (options) => {
      redis ??= new Redis(REDIS_URL);
      const prefix = testPrefix();
      prefixes.push(prefix);
      return createRedisStateStore(redis, prefix, options);
    },
  ],
];

describe.each(stores)('run history in the %s store', (_name, available, make) => {
  it.skipIf(!available)('keeps the last runs newest first, within the retention', async () => {
    const state = await make({ historyRuns: 3 });
    for (const t of ['t1', 't2', 't3', 't4']) await state.recordRun('acme', report(t));
    expect(((await state.listRuns('acme')) as { startedAt: string }[]).map((r) => r.startedAt)).toEqual([
      't4',
      't3',
      't2',
    ]);
    expect(await state.listRuns('acme', 1)).toEqual([report('t4')]);
    expect((await state.getFeed('acme')).lastReport).toEqual(report('t4'));
    expect(await state.listRuns('other')).toEqual([]);
  });

  it.skipIf(!available)('a run recorded twice is one entry, the later copy kept', async () => {
    const state = await make({});
    await state.recordRun('acme', report('t1'));
    await state.recordRun('acme', report('t2'));
    await state.recordRun('acme', report('t2', { trigger: 'manual' }));
    expect(await state.listRuns('acme')).toEqual([report('t2', { trigger: 'manual' }), report('t1')]);
    expect((await state.getFeed('acme')).lastReport).toEqual(report('t2', { trigger: 'manual' }));
  });
});
