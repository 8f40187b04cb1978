/**
 * One round of a fleet: K real worker processes (`feed-sync worker`, as the image runs it) on one
 * Redis prefix, N feeds on one cron all due at the same second, the sandbox in this process with
 * latency. Measures the round against the platform bound, the start delay of every feed, the peak
 * in-flight calls, duplicates, each worker's peak RSS (VmHWM) and what the store keeps.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { openQueueStore } from '../../src/queue/open-store.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { feedEntry, generateFeed } from './feeds.ts';
import { cleanup, commandCounts, footprint, type RedisFootprint, usedMemory } from './redis-footprint.ts';
import { REDIS_URL } from './stores.ts';
import { cpuMsOf, startWorker, type WorkerProcess } from './worker-process.ts';

/** Time the workers get to start before the cron fires. */
const LEAD_MS = 25_000;

export interface RoundOptions {
  /** The CLI entry the workers run (the built one, as the image does). */
  cli: string;
  nodeOptions: readonly string[];
  workers: number;
  /** `worker.concurrency` of the config: a number, or undefined for the default (`auto`). */
  workerConcurrency: number | undefined;
  feeds: number;
  listings: number;
  /** `api.concurrency`. */
  concurrency: number;
  latencyMs: number;
}

export interface RoundResult {
  workers: number;
  /** The `worker.concurrency` set, or `auto`; and what each worker logged it as (`feedsAtOnce`). */
  setting: string;
  feedsAtOnce: number;
  roundMs: number;
  /** Total calls ÷ api.concurrency × latency. */
  boundMs: number;
  calls: number;
  peakInFlight: number;
  /** Sum of every call's time at the platform, ms: ÷ (round × api.concurrency) is how busy the slots were. */
  busyMs: number;
  duplicates: number;
  /** Start delay of every feed's run (its report's start − the cron's due time), ms, ascending. */
  delaysMs: number[];
  /** CPU time the workers used during the round, ms, all together; and this process's (the sandbox's). */
  workerCpuMs: number;
  sandboxCpuMs: number;
  /** Mean calls in flight in each tenth of the round (sampled every 20 ms): where the slots idled. */
  inFlightByTenth: number[];
  /** The same in each of the first ten seconds. */
  inFlightFirstSeconds: number[];
  /** Redis commands served during the round, by command (every client of the server: a quiet one). */
  redisCommands: Record<string, number>;
  /** Peak RSS (VmHWM) of each worker process, MB. */
  peakMb: number[];
  redis: RedisFootprint;
}

function cronAt(due: Date): string {
  return `${due.getUTCSeconds()} ${due.getUTCMinutes()} ${due.getUTCHours()} ${due.getUTCDate()} ${due.getUTCMonth() + 1} *`;
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`fleet bench: timed out waiting for ${what}`);
    await sleep(100);
  }
}

interface RunReturn {
  feedId: string;
  startedAt?: string;
  finishedAt?: string;
  outcome?: string;
}

/** The config every worker of the round reads: N feeds of the generated file, one cron due at `due`. */
function writeConfig(
  dir: string,
  options: RoundOptions,
  at: { url: string; file: string; prefix: string; due: Date },
): string {
  const schedule = { cron: cronAt(at.due), timezone: 'UTC' };
  const config = join(dir, 'feed-sync.json');
  const worker = options.workerConcurrency === undefined ? {} : { concurrency: options.workerConcurrency };
  writeFileSync(
    config,
    JSON.stringify({
      api: { baseUrl: at.url, concurrency: options.concurrency },
      feeds: Array.from({ length: options.feeds }, (_, i) => ({
        ...feedEntry('csv', at.file, `f${i + 1}`, `SN-FLEET-${i + 1}`),
        schedule,
      })),
      worker: { prefix: at.prefix, ...worker },
    }),
  );
  return config;
}

/** Mean of the sampled values taken in [from, from + span). */
function meanOf(samples: ReadonlyArray<readonly [number, number]>, from: number, span: number): number {
  const inside = samples.filter(([at]) => at >= from && at < from + span).map(([, n]) => n);
  return inside.reduce((a, b) => a + b, 0) / Math.max(1, inside.length);
}

/** Commands served between two readings of INFO commandstats, most first. */
function commandDelta(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  return Object.fromEntries(
    [...after]
      .map(([name, n]) => [name, n - (before.get(name) ?? 0)] as const)
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1]),
  );
}

export async function runRound(options: RoundOptions, tag: string): Promise<RoundResult> {
  const { feeds, listings } = options;
  const file = await generateFeed('csv', listings);
  const sandbox = await startSandbox({ latencyMs: options.latencyMs });
  const dir = mkdtempSync(join(tmpdir(), 'feed-sync-bench-fleet-'));
  const prefix = `{feed-sync-bench-fleet-${process.pid}-${tag}}`;
  const redis = new Redis(REDIS_URL);
  const workers: WorkerProcess[] = [];
  const store = await openQueueStore({ kind: 'redis', url: REDIS_URL }, prefix);
  try {
    const before = await usedMemory(redis);
    const due = new Date(Math.ceil((Date.now() + LEAD_MS) / 1000) * 1000);
    const config = writeConfig(dir, options, { url: sandbox.url, file, prefix, due });
    for (let i = 0; i < options.workers; i++) workers.push(startWorker(options, config, dir, i));
    const started = (w: WorkerProcess) => w.lines.find((l) => l.includes('"worker started"'));
    await until(
      () => {
        for (const w of workers)
          if (w.child.exitCode !== null) throw new Error(`a worker exited:\n${w.lines.join('\n')}`);
        return workers.every(started);
      },
      LEAD_MS,
      'the workers to start',
    );
    if (Date.now() > due.getTime() - 200)
      throw new Error('fleet bench: the workers started after the cron was due');
    const feedsAtOnce = Number(
      (JSON.parse(started(workers[0]!) ?? '{}') as { feedsAtOnce?: number }).feedsAtOnce,
    );
    sandbox.resetStats();
    const cpuAt = (ws: readonly WorkerProcess[]) => ws.reduce((n, w) => n + cpuMsOf(w.child.pid), 0);
    await until(() => Date.now() >= due.getTime(), LEAD_MS, 'the cron');
    const cpuBefore = cpuAt(workers);
    const ownBefore = process.cpuUsage();
    const commandsBefore = await commandCounts(redis);
    const samples: Array<[number, number]> = [];
    const sampler = setInterval(() => samples.push([Date.now(), sandbox.stats().inFlight]), 20);

    const serials = Array.from({ length: feeds }, (_, i) => `SN-FLEET-${i + 1}`);
    const queue = store.createQueue();
    // The create count, not the listings: `listings()` copies every record, CPU the platform would lose.
    await until(() => sandbox.stats().requests.create >= feeds * listings, 600_000, 'every listing created');
    // The run history (the jobs themselves are trimmed to removeOnComplete's 200): one report per run.
    const history = async () => {
      const lists = await Promise.all(
        serials.map((_, i) => redis.lrange(`${prefix}:state:runs:f${i + 1}`, 0, -1)),
      );
      return lists.flat().map((r) => JSON.parse(r) as RunReturn);
    };
    await until(
      async () => new Set((await history()).map((r) => r.feedId)).size >= feeds,
      60_000,
      'every run recorded',
    );
    clearInterval(sampler);
    const stats = sandbox.stats();
    const workerCpuMs = cpuAt(workers) - cpuBefore;
    const own = process.cpuUsage(ownBefore);
    const commandsAfter = await commandCounts(redis);
    const redisCommands = commandDelta(commandsBefore, commandsAfter);
    const runs = await history();
    const failed = await queue.getJobCountByTypes('failed');
    const finished = Math.max(...runs.map((r) => Date.parse(r.finishedAt ?? '')));
    const perFeed = new Map<string, number>();
    for (const r of runs) perFeed.set(r.feedId, (perFeed.get(r.feedId) ?? 0) + 1);
    const duplicates =
      failed +
      runs.length -
      perFeed.size +
      (stats.requests.create - feeds * listings) +
      serials.filter((s) => sandbox.listings(s).length !== listings).length;
    const redisBytes = await footprint(redis, prefix, before);
    await queue.close();

    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => (w.child.exitCode === null ? once(w.child, 'exit') : undefined)));
    const peakMb = workers.map((w) => Number(readFileSync(w.hwm, 'utf8')) / 1024);
    return {
      workers: options.workers,
      setting: options.workerConcurrency === undefined ? 'auto' : String(options.workerConcurrency),
      feedsAtOnce,
      roundMs: finished - due.getTime(),
      boundMs: (stats.totalRequests / options.concurrency) * options.latencyMs,
      calls: stats.totalRequests,
      peakInFlight: stats.peakInFlight,
      busyMs: stats.busyMs,
      workerCpuMs,
      sandboxCpuMs: (own.user + own.system) / 1000,
      redisCommands,
      inFlightFirstSeconds: Array.from({ length: 10 }, (_, k) =>
        meanOf(samples, due.getTime() + k * 1000, 1000),
      ),
      inFlightByTenth: Array.from({ length: 10 }, (_, k) => {
        const span = (finished - due.getTime()) / 10;
        return meanOf(samples, due.getTime() + k * span, span);
      }),
      duplicates,
      delaysMs: runs.map((r) => Date.parse(r.startedAt ?? '') - due.getTime()).sort((a, b) => a - b),
      peakMb,
      redis: redisBytes,
    };
  } finally {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await store.close();
    await cleanup(redis, prefix);
    redis.disconnect();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
