import { randomUUID } from 'node:crypto';
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
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
 * holder. What the CLI's runs of one feed (`src/state/run-lock.ts`) and the writers of one state file
 * (`file-store.ts`) take, so two processes never both do what only one may.
 *
 * - Taken by writing the lock under a name of its own and linking it in place: the link fails when
 *   the name exists, so one process wins, and a reader never sees half a lock. Where the file system
 *   has no hard links, the lock file is created exclusively (`wx`) and written then.
 * - Held while its holder lives: the holder touches it every quarter of `staleMs`. On the holder's
 *   own host and in its pid namespace, a lock is stale as soon as its process is gone (or its pid was
 *   given to a process started later), or the host rebooted since (boot id), or its pid is this
 *   process's own and the lock is not one it holds (a container's node gets the same pid every
 *   time), and never while its process lives, however old. From another host or pid namespace only
 *   its age can tell: untouched for `staleMs`, it is stale (its holder was killed, its container is
 *   gone, its host is down). A lock of an earlier version (no token, never touched) is judged on
 *   its own host only.
 * - A stale lock is taken over under a second lock, `<name>.takeover`, created exclusively and
 *   judged as a lock: the one process that holds it reads the lock again, removes it if it is still
 *   the stale one (and the takeover still its own), and links its own. A live lock is never removed,
 *   and a lock released meanwhile is simply taken.
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
  /** When the process started (Linux, `/proc/<pid>/stat`): a pid given to another process since is not it. */
  since?: string;
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
  /**
   * A lock of another host or pid namespace untouched this long is stale (on its own host, whether
   * its process lives decides). Its holder touches it every quarter of it.
   */
  staleMs: number;
}

const BOOT_ID = '/proc/sys/kernel/random/boot_id';
const PID_NS = '/proc/self/ns/pid';

/** `read()` once a process (Linux facts): undefined when it fails or is empty. */
function once(read: () => string): () => string | undefined {
  let value: string | undefined | null = null;
  return () => {
    if (value === null) {
      try {
        value = read() || undefined;
      } catch {
        value = undefined;
      }
    }
    return value;
  };
}
const bootId = once(() => readFileSync(BOOT_ID, 'utf8').trim());
const pidNamespace = once(() => readlinkSync(PID_NS));

/** When process `pid` started, in clock ticks since boot (field 22 of `/proc/<pid>/stat`). */
function startOf(pid: number): string | undefined {
  return statOf(pid)?.[19];
}

/** The fields of `/proc/<pid>/stat` from the third on (its state: R, S, Z…), where /proc has them. */
function statOf(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from its end.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
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
    // A lock of an earlier version (the embedded store's: pid, host and since) has no token: it was never touched while held, so its age says
    // nothing (`stale`), and its `since` is when it was taken, not when its process started.
    const legacy = owner.token === undefined;
    const { since, ...rest } = owner;
    return {
      ...rest,
      ...(legacy || since === undefined ? {} : { since }),
      pid: owner.pid,
      host: owner.host,
      startedAt: owner.startedAt ?? (legacy ? since : undefined) ?? '?',
      token: owner.token ?? '',
    };
  } catch {
    return undefined;
  }
}

/** How often a folder's clock is read again (`folderNow`). */
const FOLDER_CLOCK_TTL_MS = 60_000;
/** Below this, the folder's clock is this host's own (a local disk, its timestamps' granularity). */
const FOLDER_CLOCK_NOISE_MS = 2000;
const folderClocks = new Map<string, { offset: number; readAt: number }>();

/**
 * Now, on the clock of the folder that holds `path`: its file system's (an NFS server's), or this
 * host's own on a local disk. A lock is created, touched and aged on it, so hosts whose clocks
 * differ agree on how long ago a lock was touched: a holder whose clock runs minutes behind does not
 * look stale to the others, nor a dead one fresh. Read by creating a file in the folder and taking
 * its stamp (the file system's), at most once a minute; this host's clock where the folder cannot
 * be written.
 */
function folderNow(path: string): number {
  const dir = dirname(path);
  const known = folderClocks.get(dir);
  const now = performance.now();
  if (known !== undefined && now - known.readAt < FOLDER_CLOCK_TTL_MS) return Date.now() + known.offset;
  let offset = 0;
  const probe = join(dir, `.clock-${randomUUID()}`);
  try {
    const before = Date.now();
    writeFileSync(probe, '', { flag: 'wx' });
    const after = Date.now();
    offset = statSync(probe).mtimeMs - (before + after) / 2;
  } catch {
    offset = 0;
  } finally {
    try {
      rmSync(probe, { force: true });
    } catch {
      // Left behind in a folder that took the file and refuses its removal: a few bytes.
    }
  }
  if (Math.abs(offset) < FOLDER_CLOCK_NOISE_MS) offset = 0;
  if (folderClocks.size > 100) folderClocks.clear();
  folderClocks.set(dir, { offset, readAt: now });
  return Date.now() + offset;
}

/** Milliseconds since the file was last touched, on its folder's clock; undefined when it is gone. */
function ageOf(path: string): number | undefined {
  try {
    const { mtimeMs } = statSync(path);
    return folderNow(path) - mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` is a live process of this host (EPERM: alive, another user's). A zombie (killed,
 * not yet reaped by its parent: a container's init can take a second) is not: it runs nothing.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return statOf(pid)?.[0] !== 'Z';
}

/**
 * Whether the lock at `path` (whose content is `owner`) is left over, not held. On the holder's own
 * host, boot and pid namespace, whether its process lives decides, whatever the lock's age (a
 * holder stopped with Ctrl-Z, a machine asleep, a long synchronous step keep it). Elsewhere only the
 * age can tell: a lock untouched for `staleMs` is left over (a lock of an earlier version, never
 * touched, never is: its holder's host must see it gone).
 */
function stale(path: string, owner: LockOwner | undefined, staleMs: number): boolean {
  const age = ageOf(path);
  if (age === undefined) return false;
  if (owner === undefined) return age > staleMs;
  const legacy = owner.token === '';
  const sameHost = owner.host === hostname();
  const mine = bootId();
  if (sameHost && owner.boot !== undefined && mine !== undefined && owner.boot !== mine) return true;
  const ns = pidNamespace();
  const sameNs = owner.ns === undefined || ns === undefined || owner.ns === ns;
  if (!sameHost || !sameNs) return !legacy && age > staleMs;
  if (owner.pid === process.pid) return !held.has(owner.token);
  if (!alive(owner.pid)) return true;
  // The pid lives, but is it the holder? Not if it started at another time (a pid given again).
  const started = owner.since === undefined ? undefined : startOf(owner.pid);
  return started !== undefined && started !== owner.since;
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

/** This process as the holder of a lock taken at `at`, with a token of its own. */
function ownerNow(at: Date): LockOwner {
  const boot = bootId();
  const ns = pidNamespace();
  const since = startOf(process.pid);
  return {
    pid: process.pid,
    host: hostname(),
    ...(boot ? { boot } : {}),
    ...(ns ? { ns } : {}),
    ...(since ? { since } : {}),
    startedAt: at.toISOString(),
    token: randomUUID(),
  };
}

/**
 * The takeover lock's holder: this process, for the few operations of one takeover. The guard names
 * its holder as a lock does and is judged alike (on its host by whether its process lives, else by
 * its age), so a takeover that stalls is never cut short by a second one while its process lives.
 */
function takeover<T>(path: string, staleMs: number, then: (ours: () => boolean) => T): T | undefined {
  const guard = `${path}.takeover`;
  const owner = ownerNow(new Date());
  const text = `${JSON.stringify(owner)}\n`;
  if (!create(guard, text)) {
    const found = readOwner(guard);
    if (!stale(guard, found, staleMs)) return undefined;
    // Left by a process that died taking it over: moved aside under a name of this process, and
    // removed only if it is still that one (another process may have cleared it and taken its own).
    const aside = `${guard}.${owner.token}`;
    try {
      renameSync(guard, aside);
    } catch {
      return undefined;
    }
    if (readOwner(aside)?.token !== found?.token) {
      try {
        linkSync(aside, guard);
      } catch {
        // Taken meanwhile by a third: it holds the takeover.
      }
      rmSync(aside, { force: true });
      return undefined;
    }
    rmSync(aside, { force: true });
    if (!create(guard, text)) return undefined;
  }
  const ours = () => readOwner(guard)?.token === owner.token;
  try {
    return then(ours);
  } finally {
    if (ours()) rmSync(guard, { force: true });
  }
}

/** Try once to take the lock at `path`: it, or who holds it. Throws only on a file system error. */
export function tryLock(path: string, options: LockOptions, now: Date = new Date()): LockAttempt {
  mkdirSync(dirname(path), { recursive: true });
  const owner = ownerNow(now);
  const text = `${JSON.stringify(owner)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(path, text)) return { lock: heldLock(path, owner, options.staleMs) };
    const found = readOwner(path);
    if (!stale(path, found, options.staleMs)) return { heldBy: found };
    // Stale: taken over under the takeover lock, if it is still the stale one then.
    // Released meanwhile (gone between the create and the read): simply tried again.
    if (found === undefined && ageOf(path) === undefined) continue;
    const taken = takeover(path, options.staleMs, (ours) => {
      const again = readOwner(path);
      if (again?.token !== found?.token || !stale(path, again, options.staleMs) || !ours()) return false;
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
        // On the folder's clock, as the others read its age (`folderNow`).
        if (ours()) {
          const now = new Date(folderNow(path));
          utimesSync(path, now, now);
        }
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
