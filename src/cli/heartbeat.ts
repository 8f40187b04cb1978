import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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
  /**
   * The worker was told to stop and is finishing its running jobs (within its `shutdownGraceMs`): it
   * takes no new job, and is not unhealthy for that.
   */
  stopping?: boolean;
  /** ms since the epoch. */
  at: number;
}

/**
 * The worker's heartbeat: its health (Redis answers, the worker takes jobs) written to a file
 * every `intervalMs`, so the health check needs neither the UI nor a network port. `stopping`: the
 * worker drains (its running jobs finish): it beats on, saying so, until `stop` removes the file
 * once it has stopped, so a long run's last minutes do not read as a worker that is gone.
 */
export function startHeartbeat(
  file: string,
  health: () => Promise<Omit<Health, 'at'>>,
  intervalMs = 10_000,
): { stopping(): void; stop(): Promise<void> } {
  let writing: Promise<unknown> = Promise.resolve();
  let stopping = false;
  let stopped = false;
  const beat = () => {
    // One write at a time, in order: a slow health answer must not land after the file is removed.
    writing = writing
      .then(async () => {
        const h = await health();
        if (stopped) return;
        // Written whole, then renamed over the last: a check never reads a half-written beat.
        const next = `${file}.${process.pid}.tmp`;
        // Draining is healthy (`healthProblem`): `ok` says so to whatever reads the file itself.
        await writeFile(
          next,
          JSON.stringify({ ...h, ...(stopping ? { ok: true, stopping } : {}), at: Date.now() }),
        );
        await rename(next, file);
      })
      .catch(() => {});
  };
  beat();
  const timer = setInterval(beat, intervalMs);
  timer.unref();
  return {
    stopping() {
      if (stopping) return;
      stopping = true;
      beat();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A beat whose health call hangs (a store closed under it) must not hold the exit: none is
      // written once stopped, so the file is removed whatever it does.
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([writing, new Promise((done) => (wait = setTimeout(done, 2_000)))]);
      clearTimeout(wait);
      await rm(file, { force: true });
    },
  };
}

/**
 * Remove the heartbeat files of workers that are gone (killed before they could remove theirs:
 * `kill -9`, the OOM killer) from `dir`: a worker does at its start, so they do not pile up in a
 * long-lived temp folder. The check already leaves them out.
 */
export async function removeDeadHeartbeats(
  dir = healthDir(),
  alive: (pid: number) => boolean = pidAlive,
): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const pid = Number(HEALTH_FILE.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    await rm(join(dir, name), { force: true });
    removed++;
  }
  return removed;
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
  // Draining: its store may still answer or not, its worker takes no job; it beats until it exits.
  if (health.ok || health.stopping === true) return undefined;
  const missing = health.missingSchedulers?.length
    ? `, no scheduler for ${health.missingSchedulers.join(', ')}`
    : '';
  return `unhealthy: store ${health.store ? 'up' : 'down'}, worker ${health.worker ? 'up' : 'down'}${missing}`;
}

/**
 * Whether a process of this id runs (EPERM: it does, as another user). A zombie (killed, not yet
 * reaped by its parent: `kill -9` of a worker whose PID 1 is slow to reap) answers signal 0 but
 * runs nothing: on Linux its state in /proc says so, and it counts as gone.
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' && !isZombie(pid);
  }
  return !isZombie(pid);
}

/** `Z` in /proc/PID/stat's state field (after the command's closing parenthesis); false where there is no /proc. */
export function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
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
