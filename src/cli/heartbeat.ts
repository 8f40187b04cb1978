import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where workers write their heartbeats for `feed-sync healthcheck` (the container's HEALTHCHECK):
 * the temp folder, one file per worker process. A container's /tmp is its own, so the files there
 * are that container's workers'; several workers on one host each keep theirs.
 */
export const healthDir = () => tmpdir();

const HEALTH_FILE = /^feed-sync-worker\.(\d+)\.health$/;

/** The heartbeat file of the worker process `pid` (default: this one). */
export function healthFileOf(pid = process.pid, dir = healthDir()): string {
  return join(dir, `feed-sync-worker.${pid}.health`);
}

/** A heartbeat older than this is a worker that stopped beating: unhealthy. */
export const HEALTH_MAX_AGE_MS = 60_000;

export interface Health {
  ok: boolean;
  /** The queue store (Redis, Postgres or the embedded one) answers. */
  store: boolean;
  worker: boolean;
  /** Feeds whose job scheduler is missing (being re-created from the config). */
  missingSchedulers?: string[];
  /** ms since the epoch. */
  at: number;
}

/**
 * The worker's heartbeat: its health (Redis answers, the worker takes jobs) written to a file
 * every `intervalMs`, so the health check needs neither the UI nor a network port.
 */
export function startHeartbeat(
  file: string,
  health: () => Promise<Omit<Health, 'at'>>,
  intervalMs = 10_000,
): { stop(): Promise<void> } {
  let writing: Promise<unknown> = Promise.resolve();
  const beat = () => {
    writing = health()
      .then((h) => writeFile(file, JSON.stringify({ ...h, at: Date.now() })))
      .catch(() => {});
  };
  beat();
  const timer = setInterval(beat, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await writing;
      await rm(file, { force: true });
    },
  };
}

/** Why the worker is not healthy, or undefined when its last heartbeat is fresh and ok. */
export async function healthProblem(file: string, now = Date.now(), maxAgeMs = HEALTH_MAX_AGE_MS) {
  let health: Health;
  try {
    health = JSON.parse(await readFile(file, 'utf8')) as Health;
  } catch {
    return `no heartbeat at ${file}: the worker is not running`;
  }
  const age = now - health.at;
  if (age > maxAgeMs) return `the last heartbeat is ${Math.round(age / 1000)} s old: the worker is stuck`;
  if (health.ok) return undefined;
  const missing = health.missingSchedulers?.length
    ? `, no scheduler for ${health.missingSchedulers.join(', ')}`
    : '';
  return `unhealthy: store ${health.store ? 'up' : 'down'}, worker ${health.worker ? 'up' : 'down'}${missing}`;
}

/** Whether a process of this id runs (EPERM: it does, as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The heartbeats of the running workers in `dir`: files of processes that are gone (killed before
 * they could remove theirs) are left out, so a dead worker never makes the live ones unhealthy.
 */
export async function workerHeartbeats(
  dir = healthDir(),
  alive: (pid: number) => boolean = pidAlive,
): Promise<Array<{ pid: number; file: string }>> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .map((name) => ({ name, pid: Number(HEALTH_FILE.exec(name)?.[1]) }))
    .filter(({ pid }) => Number.isInteger(pid) && pid > 0 && alive(pid))
    .map(({ name, pid }) => ({ pid, file: join(dir, name) }))
    .sort((a, b) => a.pid - b.pid);
}

/**
 * Why the workers in `dir` are not healthy (one line), or undefined when every running worker's
 * heartbeat is fresh and ok. No worker at all is a problem.
 */
export async function workersProblem(dir = healthDir(), now = Date.now(), alive = pidAlive) {
  const beats = await workerHeartbeats(dir, alive);
  const problems: string[] = [];
  let running = 0;
  for (const { pid, file } of beats) {
    // Gone since the folder was read: a worker that stopped cleanly, not an unhealthy one.
    if (!existsSync(file)) continue;
    running++;
    const problem = await healthProblem(file, now);
    if (problem) problems.push(`worker ${pid}: ${problem}`);
  }
  if (running === 0) return `no heartbeat in ${dir} (feed-sync-worker.<pid>.health): no worker is running`;
  return problems.length > 0 ? problems.join('; ') : undefined;
}
