import { chmod, mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { FeedSyncError } from '../errors.ts';
import { tryLock } from '../state/index.ts';

/** The embedded store is held by another live process. */
export class StoreLockedError extends FeedSyncError {
  constructor(message: string) {
    super(message, { kind: 'SERVICE_UNAVAILABLE', code: 'E_STORE_LOCKED' });
  }
}

/** A store's lock untouched this long is left over, from any host (its holder touches it meanwhile). */
const STORE_LOCK_STALE_MS = 120_000;

/**
 * Take `<dir>/lock` (`state/file-lock.ts`): PGlite is one process's database, and a second process
 * on the same files would corrupt them. A lock left by a process that is gone (kill -9, a crash, a
 * reboot) is stale and taken over, under the takeover lock, so two processes never both take it;
 * one of another host (a shared folder) once it is 2 minutes untouched. Returns the release function.
 */
export async function lockStore(dir: string): Promise<() => Promise<void>> {
  // Owner only: the folder holds the database and its socket (trust auth: whoever reaches it is in).
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const attempt = tryLock(join(dir, 'lock'), { staleMs: STORE_LOCK_STALE_MS });
  if ('lock' in attempt) {
    const { lock } = attempt;
    return async () => lock.release();
  }
  const held = attempt.heldBy;
  const who = held
    ? `pid ${held.pid}${held.host === hostname() ? '' : ` on ${held.host}`}, since ${held.startedAt}`
    : 'its lock is being written';
  throw new StoreLockedError(
    `the embedded queue store ${dir} is in use by another feed-sync process (${who}): one process per ` +
      'embedded store; set REDIS_URL or DATABASE_URL to run several workers',
  );
}
