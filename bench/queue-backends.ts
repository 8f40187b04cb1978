import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openQueueStore } from '../src/queue/open-store.ts';
import type { StoreChoice } from '../src/queue/store.ts';
import { namespaceOf } from '../src/state/postgres-schema.ts';
import { DATABASE_URL, REDIS_URL, reachable } from './lib/stores.ts';

/**
 * `npm run bench -- queue`: jobs per second on each queue store (Redis, embedded PGlite, Postgres):
 * adding jobs one by one, adding them in bulk, and processing them with a worker of concurrency 8
 * and a processor that does nothing, so the figure is the store's cost per job. A feed-sync run
 * takes seconds to minutes, so any of these is far from being the bottleneck; the figures say how
 * far, and what the embedded store costs against the others.
 */
interface Figures {
  store: string;
  addOne: number;
  addBulk: number;
  process: number;
}

async function measure(name: string, choice: StoreChoice, prefix: string, jobs: number): Promise<Figures> {
  const store = await openQueueStore(choice, prefix);
  const queue = store.createQueue({ defaultJobOptions: { removeOnComplete: true } });
  await queue.waitUntilReady();
  await queue.obliterate({ force: true });
  const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);

  let started = performance.now();
  const one = Math.min(jobs, 500);
  for (let i = 0; i < one; i++) await queue.add('bench', { i });
  const addOne = perSecond(one, performance.now() - started);

  started = performance.now();
  for (let i = 0; i < jobs; i += 100) {
    await queue.addBulk(Array.from({ length: 100 }, (_, k) => ({ name: 'bench', data: { i: i + k } })));
  }
  const addBulk = perSecond(jobs, performance.now() - started);

  const total = one + jobs;
  let done = 0;
  let finished!: () => void;
  const all = new Promise<void>((resolve) => (finished = resolve));
  started = performance.now();
  const worker = store.createWorker(
    async () => {
      if (++done === total) finished();
    },
    { concurrency: 8 },
  );
  await all;
  const processed = perSecond(total, performance.now() - started);
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  await store.close();
  return { store: name, addOne, addBulk, process: processed };
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { jobs: { type: 'string', default: '2000' } } });
  const jobs = Number(values.jobs);
  const results: Figures[] = [];
  const prefix = `{feed-sync-bench-${process.pid}}`;
  if (await reachable(REDIS_URL, 6379)) {
    results.push(await measure('redis', { kind: 'redis', url: REDIS_URL }, prefix, jobs));
  } else process.stderr.write(`redis: not reachable at ${REDIS_URL}, skipped\n`);
  if (await reachable(DATABASE_URL, 5432)) {
    results.push(await measure('postgres', { kind: 'postgres', url: DATABASE_URL }, prefix, jobs));
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    for (const schema of [namespaceOf(prefix), `${namespaceOf(prefix)}_state`])
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  } else process.stderr.write(`postgres: not reachable at ${DATABASE_URL}, skipped\n`);
  const dir = await mkdtemp(join(tmpdir(), 'feed-sync-bench-'));
  try {
    results.push(await measure('embedded', { kind: 'embedded', dir: join(dir, 'queue') }, prefix, jobs));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  process.stdout.write(`queue stores, ${jobs} jobs (jobs/s; worker concurrency 8, no-op processor)\n`);
  process.stdout.write('store      add one by one   addBulk (100)   process\n');
  for (const r of results) {
    process.stdout.write(
      `${r.store.padEnd(10)} ${String(r.addOne).padStart(14)} ${String(r.addBulk).padStart(15)} ${String(r.process).padStart(9)}\n`,
    );
  }
}
