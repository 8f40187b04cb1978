import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the worker writes its health for `feed-sync healthcheck` (the container's HEALTHCHECK). */
export const DEFAULT_HEALTH_FILE = join(tmpdir(), 'feed-sync-worker.health');

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
