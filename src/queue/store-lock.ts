import { chmod, link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { FeedSyncError } from '../errors.ts';

/** The embedded store is held by another live process. */
export class StoreLockedError extends FeedSyncError {
  constructor(message: string) {
    super(message, { kind: 'SERVICE_UNAVAILABLE', code: 'E_STORE_LOCKED' });
  }
}

interface LockInfo {
  pid: number;
  host: string;
  since: string;
}

/** True when a process with this pid runs on this machine (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Take `<dir>/lock`, holding this process's pid: PGlite is one process's database, and a second
 * process on the same files would corrupt them. A lock left by a process that is gone (kill -9, a
 * crash, a reboot) is stale and taken over. Returns the release function.
 */
export async function lockStore(dir: string): Promise<() => Promise<void>> {
  // Owner only: the folder holds the database and its socket (trust auth: whoever reaches it is in).
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const file = join(dir, 'lock');
  const mine: LockInfo = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // Written whole beside the lock, then linked into place: a lock file is never seen empty, so a
      // process starting at the same moment cannot take it for a stale one and open the store too.
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, `${JSON.stringify(mine)}\n`);
      try {
        await link(temp, file);
      } finally {
        await rm(temp, { force: true });
      }
      return async () => {
        const held = await readLock(file);
        if (held?.pid === process.pid) await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = await readLock(file);
    // A lock from another machine (a shared folder) cannot be checked: only its owner may take it back.
    const stale = !held || (held.host === mine.host && held.pid !== process.pid && !alive(held.pid));
    if (!stale) {
      throw new StoreLockedError(
        `the embedded queue store ${dir} is in use by another feed-sync process (pid ${held.pid}` +
          `${held.host === mine.host ? '' : ` on ${held.host}`}, since ${held.since}): one process per ` +
          'embedded store; set REDIS_URL or DATABASE_URL to run several workers',
      );
    }
    await rm(file, { force: true });
  }
  throw new StoreLockedError(`could not take the lock of the embedded queue store ${dir}`);
}

async function readLock(file: string): Promise<LockInfo | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<LockInfo>;
    return typeof parsed.pid === 'number'
      ? { pid: parsed.pid, host: parsed.host ?? '', since: parsed.since ?? '?' }
      : undefined;
  } catch {
    // Unreadable or half-written (a crash between open and write): stale.
    return undefined;
  }
}
