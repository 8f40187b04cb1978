import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * One CLI run of a feed at a time (the worker runs one per feed through its queue): two
 * `feed-sync sync` of one feed at once (a cron run and a person's, two crons) would both write
 * every change, and both create a listing the platform lacks, a duplicate. A run takes
 * `.feed-sync-locks/<feed>.lock` beside the state file; a second run of the feed while it is held
 * is skipped, and its report names the run that holds it. A dry run and `plan` write nothing and
 * take no lock.
 *
 * A lock whose process is gone (killed, Ctrl-C twice, a reboot) is taken over by the next run: the
 * file names its process, host and boot, so a run on the same host sees that process is no longer
 * there. A lock of another host (a state file on a shared disk) is never taken over: its report
 * says which host holds it.
 */
export interface LockOwner {
  pid: number;
  host: string;
  /** The kernel's boot id (Linux): a lock from before a reboot is stale whatever its pid now is. */
  boot?: string;
  startedAt: string;
  token: string;
}

export type LockResult = { release: () => void } | { heldBy: LockOwner | undefined };

const BOOT_ID = '/proc/sys/kernel/random/boot_id';

function bootId(): string | undefined {
  try {
    return readFileSync(BOOT_ID, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number' || typeof owner.host !== 'string' || typeof owner.token !== 'string')
      return undefined;
    return owner as LockOwner;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a live process of this host (EPERM: alive, another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock this host can tell is left over: its process is gone, or the host rebooted since. */
function stale(owner: LockOwner | undefined, self: { host: string; boot: string | undefined }): boolean {
  // Unreadable: not ours to judge (the file is written whole before it is linked in place).
  if (owner === undefined || owner.host !== self.host) return false;
  if (owner.boot !== undefined && self.boot !== undefined && owner.boot !== self.boot) return true;
  return owner.pid !== process.pid && !alive(owner.pid);
}

/** The lock file of `feedId`'s CLI runs: `.feed-sync-locks/<feed>.lock` beside the state file. */
export function lockPathOf(stateFile: string, feedId: string): string {
  return join(dirname(resolve(stateFile)), '.feed-sync-locks', `${feedId}.lock`);
}

/**
 * Take the lock of `feedId`'s runs, or say who holds it. The lock file is written whole under a
 * name of its own, then linked in place (a link fails if the name exists: one run wins), so a
 * reader never sees half a lock. A stale one is moved aside under a name of this run before it is
 * checked again and removed: of two runs that found it stale, one moves it, the other finds it gone
 * and takes the lock by the link, never removing a live run's lock.
 */
export function lockFeedRun(stateFile: string, feedId: string, now: Date = new Date()): LockResult {
  const path = lockPathOf(stateFile, feedId);
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const self = { host: hostname(), boot: bootId() };
  const me: LockOwner = {
    pid: process.pid,
    host: self.host,
    ...(self.boot ? { boot: self.boot } : {}),
    startedAt: now.toISOString(),
    token: randomUUID(),
  };
  const written = join(dir, `.${feedId}.${me.token}.new`);
  writeFileSync(written, `${JSON.stringify(me)}\n`, { flag: 'wx', mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(written, path);
        return { release: () => releaseIfOurs(path, me.token) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = readOwner(path);
      if (!stale(owner, self)) return { heldBy: owner };
      const aside = join(dir, `.${feedId}.${me.token}.stale`);
      try {
        renameSync(path, aside);
      } catch (error) {
        // Another run moved it first: try the link again.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      const moved = readOwner(aside);
      if (moved?.token === owner?.token) {
        rmSync(aside, { force: true });
        continue;
      }
      // Between the check and the move another run took the lock: it is put back, and holds it.
      try {
        linkSync(aside, path);
      } catch {
        // A third run took the name meanwhile: it holds the lock.
      }
      rmSync(aside, { force: true });
      return { heldBy: moved };
    }
    return { heldBy: readOwner(path) };
  } finally {
    rmSync(written, { force: true });
  }
}

/** Remove the lock if it is still this run's (a run taken for stale and replaced keeps its own). */
function releaseIfOurs(path: string, token: string): void {
  try {
    if (readOwner(path)?.token === token) rmSync(path, { force: true });
  } catch {
    // Left for the next run to find stale: a lock never fails a run that is over.
  }
}

/** The reason a run was skipped, as its report says it. */
export function heldReason(feedId: string, owner: LockOwner | undefined, path: string): string {
  const who =
    owner === undefined
      ? `its lock file ${path} is unreadable: delete it if no run is going on`
      : `process ${owner.pid} on ${owner.host}, started ${owner.startedAt}`;
  return `another run of feed ${feedId} is going on (${who}); this one was skipped, that one syncs it`;
}
