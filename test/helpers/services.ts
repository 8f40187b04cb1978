import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

/**
 * Which real services this machine has. On a developer's fresh machine (only Node and npm) the
 * tests that need Redis, Postgres or Chromium are skipped with a visible reason; under CI (CI=true,
 * which .ci/run sets) a missing service fails the run instead, so nothing is skipped silently there.
 */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The worker's Postgres store in tests: DATABASE_URL, or the CI machines' server (trust auth, database `test`). */
export const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Something listens at the URL's host and port. */
export function reachable(url: string, defaultPort = 6379): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || defaultPort) });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function required(name: string, present: boolean): boolean {
  if (!present && process.env.CI) throw new Error(`${name} is required under CI but is not available`);
  if (!present) console.warn(`[tests] ${name} not available: its tests are skipped`);
  return present;
}

export const redisAvailable = required(`Redis at ${REDIS_URL}`, await reachable(REDIS_URL));
export const chromiumAvailable = required(`Chromium at ${CHROMIUM_PATH}`, existsSync(CHROMIUM_PATH));
export const postgresAvailable = required(`Postgres at ${DATABASE_URL}`, await reachable(DATABASE_URL, 5432));

/** A key prefix of our own per test, so tests never see each other's keys (BullMQ tests do the same). */
export function testPrefix(): string {
  return `{feed-sync-test-${randomUUID().slice(0, 8)}}`;
}
