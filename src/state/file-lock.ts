import { randomUUID } from 'node:crypto';
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A lock between processes that share a folder: one file, created whole or not at all, naming its
 * holder. What the CLI's runs of one feed (`src/cli/run-lock.ts`) and the writers of one state file
 * (`file-store.ts`) take, so two processes never both do what only one may.
 *
 * - Taken by writing the lock under a name of its own and linking it in place: the link fails when
 *   the name exists, so one process wins, and a reader never sees half a lock. Where the file system
 *   has no hard links, the lock file is created exclusively (`wx`) and written then.
 * - Held while its holder lives: the holder touches it every quarter of `staleMs`. A lock untouched
 *   for `staleMs` is stale on any host (its holder was killed, its container is gone, its host is
 *   down); on the holder's own host and in its pid namespace a lock is stale as soon as its process
 *   is gone, or the host rebooted since (boot id), or its pid is this process's own and the lock is
 *   not one it holds (a container's node gets the same pid every time). Pids of another namespace
 *   (another container with the same host name) are never compared.
 * - A stale lock is taken over under a second lock, `<name>.takeover`, created exclusively: the one
 *   process that holds it reads the lock again, removes it if it is still the stale one, and links
 *   its own. A live lock is never removed, and a lock released meanwhile is simply taken.
 * - Released by its holder (when the lock is still its own), and by the process's exit, whatever
 *   ends it (`process.exit` included), so a second Ctrl-C leaves none behind.
 */
export interface LockOwner {
  pid: number;
  host: string;
  /** The kernel's boot id (Linux): a lock from before a reboot is stale whatever its pid now is. */
  boot?: string;
  /**
   * The pid namespace (Linux, `/proc/self/ns/pid`): pids are only compared within one. Containers
   * that share a host name each have their own, and the same pid (1) every time.
   */
  ns?: string;
  startedAt: string;
  token: string;
}

export interface HeldLock {
  readonly owner: LockOwner;
  /** Remove the lock, if it is still this one. Idempotent; never throws. */
  release(): void;
}

/** The lock, or who holds it (undefined: a lock file that cannot be read yet, and is not stale). */
export type LockAttempt = { lock: HeldLock } | { heldBy: LockOwner | undefined };

export interface LockOptions {
  /** A lock untouched this long is stale on any host. Its holder touches it every quarter of it. */
  staleMs: number;
}

const BOOT_ID = '/proc/sys/kernel/random/boot_id';
const PID_NS = '/proc/self/ns/pid';
/** A takeover is a few file operations: one older than this was left by a process that died in it. */
const TAKEOVER_STALE_MS = 10_000;

let boot: string | undefined | null = null;
function bootId(): string | undefined {
  if (boot === null) {
    try {
      boot = readFileSync(BOOT_ID, 'utf8').trim() || undefined;
    } catch {
      boot = undefined;
    }
  }
  return boot;
}

let pidNs: string | undefined | null = null;
function pidNamespace(): string | undefined {
  if (pidNs === null) {
    try {
      pidNs = readlinkSync(PID_NS) || undefined;
    } catch {
      pidNs = undefined;
    }
  }
  return pidNs;
}

/** The locks this process holds, by token: released at exit. */
const held = new Map<string, () => void>();
let exitHook = false;
function hold(token: string, release: () => void): void {
  held.set(token, release);
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const release of [...held.values()]) release();
  });
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner> & { since?: string };
    if (typeof owner.pid !== 'number' || typeof owner.host !== 'string') return undefined;
    // A lock of an earlier version (the embedded store's: pid, host and since) reads as one too.
    return {
      ...owner,
      pid: owner.pid,
      host: owner.host,
      startedAt: owner.startedAt ?? owner.since ?? '?',
      token: owner.token ?? '',
    };
  } catch {
    return undefined;
  }
}

/** Milliseconds since the file was last touched; undefined when it is gone. */
function ageOf(path: string): number | undefined {
  try {
    return Date.now() - statSync(path).mtimeMs;
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

/** Whether the lock at `path` (whose content is `owner`) is left over, not held. */
function stale(path: string, owner: LockOwner | undefined, staleMs: number): boolean {
  const age = ageOf(path);
  if (age === undefined) return false;
  if (age > staleMs) return true;
  if (owner === undefined || owner.host !== hostname()) return false;
  const mine = bootId();
  if (owner.boot !== undefined && mine !== undefined && owner.boot !== mine) return true;
  // Another pid namespace's pid says nothing here: its lock is stale once untouched for staleMs.
  const ns = pidNamespace();
  if (owner.ns !== undefined && ns !== undefined && owner.ns !== ns) return false;
  if (owner.pid === process.pid) return !held.has(owner.token);
  return !alive(owner.pid);
}

const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/** Put `text` at `path` if nothing is there: true when it was put, false when the name exists. */
function create(path: string, text: string): boolean {
  const written = join(dirname(path), `.${basename(path)}.${randomUUID()}.new`);
  try {
    writeFileSync(written, text, { flag: 'wx' });
    try {
      linkSync(written, path);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') return false;
      if (!NO_LINKS.has(code)) throw error;
    }
  } finally {
    rmSync(written, { force: true });
  }
  // No hard links here: created exclusively, then written (a reader may find it empty meanwhile).
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The takeover lock's holder: this process, for the few operations of one takeover. */
function takeover<T>(path: string, staleMs: number, then: () => T): T | undefined {
  const guard = `${path}.takeover`;
  const text = `${JSON.stringify({ pid: process.pid, host: hostname(), at: new Date().toISOString() })}\n`;
  if (!create(guard, text)) {
    const age = ageOf(guard);
    // Left by a process that died taking it over: removed, and tried once more.
    if (age === undefined || age <= Math.min(staleMs, TAKEOVER_STALE_MS)) return undefined;
    rmSync(guard, { force: true });
    if (!create(guard, text)) return undefined;
  }
  try {
    return then();
  } finally {
    rmSync(guard, { force: true });
  }
}

/** Try once to take the lock at `path`: it, or who holds it. Throws only on a file system error. */
export function tryLock(path: string, options: LockOptions, now: Date = new Date()): LockAttempt {
  mkdirSync(dirname(path), { recursive: true });
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    ...(bootId() ? { boot: bootId() as string } : {}),
    ...(pidNamespace() ? { ns: pidNamespace() as string } : {}),
    startedAt: now.toISOString(),
    token: randomUUID(),
  };
  const text = `${JSON.stringify(owner)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(path, text)) return { lock: heldLock(path, owner, options.staleMs) };
    const found = readOwner(path);
    if (!stale(path, found, options.staleMs)) return { heldBy: found };
    // Stale: taken over under the takeover lock, if it is still the stale one then.
    const taken = takeover(path, options.staleMs, () => {
      const again = readOwner(path);
      if (again?.token !== found?.token || !stale(path, again, options.staleMs)) return false;
      rmSync(path, { force: true });
      return create(path, text);
    });
    if (taken === true) return { lock: heldLock(path, owner, options.staleMs) };
    // Another process is taking it over, or took it: look again.
  }
  return { heldBy: readOwner(path) };
}

/**
 * Take the lock at `path`, waiting while another process holds it (a few ms a try, growing to
 * `pollMs`), at most `timeoutMs`: then an error naming its holder.
 */
export async function waitForLock(
  path: string,
  options: LockOptions & { timeoutMs: number; pollMs?: number },
): Promise<HeldLock> {
  const deadline = Date.now() + options.timeoutMs;
  let wait = 2;
  for (;;) {
    const attempt = tryLock(path, options);
    if ('lock' in attempt) return attempt.lock;
    if (Date.now() >= deadline) {
      const who = attempt.heldBy
        ? `process ${attempt.heldBy.pid} on ${attempt.heldBy.host} since ${attempt.heldBy.startedAt}`
        : 'a process whose lock cannot be read';
      throw new Error(`${path} is locked by ${who}; waited ${options.timeoutMs} ms`);
    }
    await sleep(wait);
    wait = Math.min(wait * 2, options.pollMs ?? 100);
  }
}

function heldLock(path: string, owner: LockOwner, staleMs: number): HeldLock {
  let released = false;
  const ours = () => readOwner(path)?.token === owner.token;
  // Touched while held, so that no process on another host finds it stale.
  const beat = setInterval(
    () => {
      try {
        if (ours()) utimesSync(path, new Date(), new Date());
      } catch {
        // Touched again at the next beat.
      }
    },
    Math.max(1, Math.floor(staleMs / 4)),
  );
  beat.unref();
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(beat);
    held.delete(owner.token);
    try {
      if (ours()) rmSync(path, { force: true });
    } catch {
      // Left for the next process to find stale: a lock never fails work that is over.
    }
  };
  hold(owner.token, release);
  return { owner, release };
}
