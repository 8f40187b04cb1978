import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Queue } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { enqueueFeedSync, openQueueStore, type QueueStore } from '../../src/queue/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { BACKENDS, DATABASE_URL, type TestStore } from './backends.ts';
import { REDIS_URL, waitFor } from './helpers.ts';

/**
 * Issue 5, "limits across workers", with real processes: two `feed-sync worker` processes on one store
 * (Redis, or Postgres) and one prefix, each allowed four syncs at once, hold `api.concurrency` together (the
 * shared limiter), and the sandbox's peak in-flight figure shows it.
 */
const ROOT = process.cwd();
const NODE = join(ROOT, 'node_modules/.bin/node');
const CONCURRENCY = 3;
const FEEDS = 8;
const LISTINGS = 40;

interface WorkerProcess {
  child: ChildProcess;
  /** pino JSON lines from stderr. */
  lines: Array<Record<string, unknown>>;
  stderr: () => string;
  exited: Promise<number | null>;
}

let dir = '';
let prefix = '';
let sandbox: Sandbox | undefined;
let store: TestStore | undefined;
let client: QueueStore | undefined;
let queue: Queue | undefined;
const workers: WorkerProcess[] = [];

const serialOf = (i: number) => `SN-P${i}`;

function csv(feed: number): string {
  const rows = [
    'MLS,Status,Type,Price,Beds,Baths,SqFt,LotSqFt,YearBuilt,DOM,Parking,Address,City,State,Zip,Lat,Lng,Url,Photos,Remarks',
  ];
  for (let i = 1; i <= LISTINGS; i++) {
    const mls = `P${feed}-${String(i).padStart(3, '0')}`;
    const url = `https://homes.example/listing/${mls}`;
    rows.push(
      `${mls},Active,Condo,${300_000 + i * 1000},2,1,${900 + i},2500,1990,${i},1,${i} Main St,Port Harbor,ME,04101,` +
        `43.65,-70.26,${url},${url}/1.jpg,"Condo ${i}, close to the water."`,
    );
  }
  return `${rows.join('\n')}\n`;
}

/** The config: the demo's harbor-homes feed (its mapping, the same columns), once per chatbot. */
async function writeConfig(): Promise<string> {
  const demo = parseYaml(await readFile(join(ROOT, 'fixtures/demo/feed-sync.yaml'), 'utf8')) as {
    feeds: Array<Record<string, unknown>>;
  };
  const template = demo.feeds.find((feed) => feed.id === 'harbor-homes');
  if (!template) throw new Error('fixtures/demo/feed-sync.yaml has no harbor-homes feed');
  const feeds = [];
  for (let i = 1; i <= FEEDS; i++) {
    const path = join(dir, `feed${i}.csv`);
    await writeFile(path, csv(i));
    feeds.push({ ...template, id: `feed${i}`, chatbot: serialOf(i), source: { format: 'csv', path } });
  }
  const config = {
    api: { baseUrl: sandbox!.url, concurrency: CONCURRENCY, timeoutMs: 10_000 },
    stateFile: join(dir, 'state.json'),
    feeds,
    // Each process alone would run four syncs, and so up to three calls, at once.
    worker: { concurrency: 4, prefix, shutdownGraceMs: 2000, attempts: 1 },
  };
  const file = join(dir, 'feed-sync.yaml');
  await writeFile(file, stringify(config));
  return file;
}

function startWorker(config: string): WorkerProcess {
  const where = store!.store.kind === 'redis' ? { REDIS_URL } : { DATABASE_URL };
  const child = spawn(NODE, ['src/cli/main.ts', 'worker', '-c', config], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: dir, LOG_LEVEL: 'info', ...where },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let stderr = '';
  let pending = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
    pending += String(chunk);
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as Record<string, unknown>);
      } catch {
        // Not a log line (a warning of Node's): kept in stderr for the messages.
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const worker = { child, lines, stderr: () => stderr, exited };
  workers.push(worker);
  return worker;
}

const logged = (worker: WorkerProcess, msg: string) => worker.lines.filter((line) => line.msg === msg);
const completedFeeds = (worker: WorkerProcess) =>
  logged(worker, 'job completed').map((line) => (line.data as { feedId?: string }).feedId);

describe.each(BACKENDS.filter((b) => b.shared))('two worker processes on one $name', (backend) => {
  beforeEach(async () => {
    if (!backend.available) return;
    store = await backend.fresh();
    prefix = store.prefix;
    dir = await mkdtemp(join(tmpdir(), 'feed-sync-two-workers-'));
    sandbox = await startSandbox({ latencyMs: 30 });
  });

  afterEach(async () => {
    for (const worker of workers.splice(0)) {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    }
    await queue?.close();
    queue = undefined;
    await client?.close();
    client = undefined;
    await sandbox?.close();
    await store?.cleanup();
    store = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it.skipIf(!backend.available)(
    'hold api.concurrency together: the sandbox never sees more than 3 calls at once',
    async () => {
      const config = await writeConfig();
      const pair = [startWorker(config), startWorker(config)];
      for (const worker of pair) {
        await waitFor(
          () => {
            if (worker.child.exitCode !== null) throw new Error(`a worker exited: ${worker.stderr()}`);
            return logged(worker, 'worker started').length > 0;
          },
          15_000,
          'both workers to start',
        );
      }
      sandbox!.resetStats();
      client = await openQueueStore(store!.store, prefix);
      queue = client.createQueue();
      for (let i = 1; i <= FEEDS; i++) await enqueueFeedSync(queue, { feedId: `feed${i}` });

      await waitFor(
        () => {
          for (const worker of pair) {
            if (worker.child.exitCode !== null) throw new Error(`a worker exited: ${worker.stderr()}`);
          }
          return pair.flatMap(completedFeeds).length >= FEEDS;
        },
        20_000,
        'every feed synced',
      );
      for (let i = 1; i <= FEEDS; i++) expect(sandbox!.listings(serialOf(i))).toHaveLength(LISTINGS);
      // One run per feed, and both processes ran some: the limit was shared, not held by one alone.
      const [a, b] = pair.map(completedFeeds) as [string[], string[]];
      expect([...a, ...b].sort()).toEqual(Array.from({ length: FEEDS }, (_, i) => `feed${i + 1}`).sort());
      expect(a.length).toBeGreaterThan(0);
      expect(b.length).toBeGreaterThan(0);
      const counts = await queue.getJobCounts('completed', 'failed');
      expect(counts).toEqual({ completed: FEEDS, failed: 0 });
      // The two processes' runs overlapped in time: both were calling the platform at once.
      const spans = async (worker: WorkerProcess) =>
        Promise.all(
          logged(worker, 'job completed').map(async (line) => {
            const job = await queue!.getJob(String(line.job));
            return { from: job?.processedOn ?? 0, to: job?.finishedOn ?? 0 };
          }),
        );
      const [spansA, spansB] = await Promise.all(pair.map(spans));
      const overlapping = spansA!.some((x) => spansB!.some((y) => x.from < y.to && y.from < x.to));
      expect(overlapping).toBe(true);

      const stats = sandbox!.stats();
      expect(stats.requests.create).toBe(FEEDS * LISTINGS);
      expect(stats.peakInFlight).toBeLessThanOrEqual(CONCURRENCY);
      // The limit was reached, so it is what held the peak.
      expect(stats.peakInFlight).toBe(CONCURRENCY);

      for (const worker of pair) worker.child.kill('SIGTERM');
      const codes = await Promise.all(pair.map((worker) => worker.exited));
      expect(codes).toEqual([0, 0]);
      for (const worker of pair) {
        expect(logged(worker, 'worker stopped')).toHaveLength(1);
        expect(worker.lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
      }
      console.info(
        `two worker processes: peak in flight ${stats.peakInFlight} (api.concurrency ${CONCURRENCY}),` +
          ` runs per process ${a.length} + ${b.length}, ${stats.totalRequests} requests`,
      );
    },
    40_000,
  );
});
