import { dirname, join, resolve } from 'node:path';
import { type LockAttempt, type LockOwner, tryLock } from './file-lock.ts';
import { realStatePath } from './file-store.ts';

/**
 * One run of a feed at a time: two `feed-sync sync` of one feed at once (a cron run and a person's,
 * two crons), or the worker's run and a person's `sync`, would both write every change, and both
 * create a listing the platform lacks, a duplicate. A run takes `.feed-sync-locks/<feed>.lock`
 * beside the config's state file (`state/file-lock.ts`): the CLI's `sync`, and the worker's runs
 * (its runs of one feed are one at a time through its queue; the lock keeps a `sync` by hand out).
 * A second run of the feed while it is held is skipped, and its report names the run that holds it.
 * A dry run and `plan` write nothing and take no lock.
 *
 * The run touches its lock every 30 s: a lock untouched for 2 minutes is left over whatever host
 * wrote it (a container killed, a host gone), and one whose process is gone (kill -9) or from
 * before a reboot is left over at once on its own host. The next run takes a left-over lock over.
 */
export const RUN_LOCK_STALE_MS = 120_000;

/**
 * The lock file of `feedId`'s CLI runs: `.feed-sync-locks/<feed>.lock` beside the state file (the
 * file a link to it points to: two folders sharing one state file share its locks).
 */
export function lockPathOf(stateFile: string, feedId: string): string {
  return join(dirname(resolve(realStatePath(stateFile))), '.feed-sync-locks', `${feedId}.lock`);
}

/** Take the lock of `feedId`'s runs, or say who holds it. Throws on a file system error only. */
export function lockFeedRun(stateFile: string, feedId: string, now: Date = new Date()): LockAttempt {
  return tryLock(lockPathOf(stateFile, feedId), { staleMs: RUN_LOCK_STALE_MS }, now);
}

/** The reason a run was skipped, as its report says it. */
export function heldReason(feedId: string, owner: LockOwner | undefined, path: string): string {
  const who =
    owner === undefined
      ? `its lock file ${path} is being written, or cannot be read; it is taken over once 2 minutes old`
      : `process ${owner.pid} on ${owner.host}, started ${owner.startedAt}`;
  return `another run of feed ${feedId} is going on (${who}); this one was skipped, that one syncs it`;
}

/**
 * The feed's run lock, or who holds it; undefined when the lock cannot be taken for a reason of the
 * file system (a read-only folder, no hard links and no exclusive create, another user's folder):
 * the run goes on without it, and `unlocked` says why (a lock that stopped every run would be worse
 * than the doubled writes it prevents).
 */
export function takeRunLock(
  stateFile: string,
  feedId: string,
  unlocked: (message: string) => void,
): LockAttempt | undefined {
  try {
    return lockFeedRun(stateFile, feedId);
  } catch (error) {
    unlocked(
      `feed ${feedId}: the run lock ${lockPathOf(stateFile, feedId)} cannot be taken (${(error as Error).message}); syncing without it`,
    );
    return undefined;
  }
}
