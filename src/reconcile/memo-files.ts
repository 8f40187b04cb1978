import { randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  futimesSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MEMO_HEADER_BYTES } from '../ingest/index.ts';
import type { MemoStore } from './run-memo.ts';

/** A memo file larger than this is not read (26 bytes and the key a record: 1M URL keys ~110 MB). */
const MAX_MEMO_BYTES = 1 << 30;
/**
 * A half-written memo (`.next`) not touched for this long is one a process that died left: it is
 * removed when a run starts or ends a memo. A live writer touches its file every `TOUCH_MS`.
 */
const STALE_NEXT_MS = 10 * 60_000;
const TOUCH_MS = 60_000;
/**
 * A memo no run has replaced for this long is removed by the same sweep: one under a name no run
 * reads any more (the worker's memos before they were scoped, a feed removed, a chatbot or platform
 * changed: up to ~130 MB each at 1M listings). A record memo is used for a day at most; a page memo
 * this old only costs its feed's next run the decoding of its pages.
 */
const STALE_MEMO_MS = 7 * 24 * 3_600_000;

/**
 * Record memos as files in `dir`, one per feed (`<feed id>.memo`), each replaced whole: written to
 * a file of its own beside it (a random name, created exclusively), flushed to disk, then renamed,
 * so a run killed while it writes, or two writing at once, leave one whole memo or none. The folder
 * is made private to the user; one that is not (a link, another owner, writable by others) is not
 * used. A file that cannot be read is no memo; one that cannot be written is left to the next run
 * (`onError` says why).
 */
export function memoFiles(dir: string, onError?: (error: Error) => void): MemoStore {
  const file = (feedId: string) => join(dir, `${encodeURIComponent(feedId)}.memo`);
  let checked: boolean | undefined;
  const usable = (make: boolean): boolean => {
    if (checked !== undefined) return checked;
    try {
      if (make) mkdirSync(dir, { recursive: true, mode: 0o700 });
      else if (!existsSync(dir)) return false;
      const stat = lstatSync(dir);
      const uid = process.getuid?.();
      checked = stat.isDirectory() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0;
      if (!checked)
        onError?.(
          new Error(
            `${dir} is not a private folder of this user (a link, another owner's, or writable by others): no record memo is read or kept there`,
          ),
        );
    } catch (error) {
      onError?.(error as Error);
      checked = false;
    }
    return checked;
  };
  return {
    stamp: codeStamp(),
    read(feedId, maxBytes = MAX_MEMO_BYTES) {
      if (!usable(false)) return undefined;
      try {
        const path = file(feedId);
        // A link is not followed: the memo is a file of this folder or none.
        const stat = lstatSync(path);
        if (!stat.isFile() || stat.size > Math.min(maxBytes, MAX_MEMO_BYTES)) return undefined;
        return readFileSync(path);
      } catch {
        return undefined;
      }
    },
    begin(feedId) {
      if (!usable(true)) return undefined;
      sweep(dir);
      const path = file(feedId);
      const next = `${path}.${randomUUID()}.next`;
      let fd: number | undefined;
      let at = MEMO_HEADER_BYTES;
      // A live writer's file is kept fresh, so no other run's sweep takes it for a dead one's
      // (a slow feed can go minutes between two chunks).
      let touch: NodeJS.Timeout | undefined;
      const fail = (error: unknown) => {
        clearInterval(touch);
        try {
          if (fd !== undefined) closeSync(fd);
          rmSync(next, { force: true });
        } catch {
          // Left to the sweep.
        }
        fd = undefined;
        if (error !== undefined) onError?.(error as Error);
      };
      try {
        fd = openSync(next, 'wx', 0o600);
        const open = fd;
        touch = setInterval(() => {
          try {
            const now = new Date();
            futimesSync(open, now, now);
          } catch {
            // The sweep's age is ten times the interval: one missed touch does not matter.
          }
        }, TOUCH_MS).unref();
      } catch (error) {
        fail(error);
        return undefined;
      }
      return {
        write(chunk) {
          if (fd === undefined) return;
          try {
            writeAll(fd, chunk, at);
            at += chunk.length;
          } catch (error) {
            fail(error);
          }
        },
        commit(header) {
          if (fd === undefined) return false;
          clearInterval(touch);
          let kept = false;
          try {
            writeAll(fd, header, 0);
            fsyncSync(fd);
            closeSync(fd);
            fd = undefined;
            renameSync(next, path);
            kept = true;
          } catch (error) {
            fail(error);
          }
          sweep(dir);
          return kept;
        },
        abort() {
          if (fd !== undefined) fail(undefined);
        },
      };
    },
    remove(feedId) {
      try {
        rmSync(file(feedId), { force: true });
      } catch (error) {
        onError?.(error as Error);
      }
    },
  };
}

function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

/** Remove the half-written memos of processes that died while they wrote (best effort). */
function sweep(dir: string): void {
  try {
    const now = Date.now();
    for (const name of readdirSync(dir)) {
      const stale = name.endsWith('.next')
        ? STALE_NEXT_MS
        : name.endsWith('.memo')
          ? STALE_MEMO_MS
          : undefined;
      if (stale === undefined) continue;
      const path = join(dir, name);
      if (now - statSync(path).mtimeMs > stale) rmSync(path, { force: true });
    }
  } catch {
    // Another process swept first, or the folder went: nothing to do.
  }
}

let stamp: string | undefined;

/**
 * What names the code that maps and digests records, so a memo written by other code is not used.
 * The build's chunks are named by their content hash (dist/src/cli/chunks/, the dependencies it
 * bundles included): their names. The sources (a checkout, tests): the size and time of every
 * file under src/, and of package-lock.json (a dependency upgraded).
 */
export function codeStamp(): string {
  if (stamp !== undefined) return stamp;
  const here = dirname(fileURLToPath(import.meta.url));
  const parts: string[] = [];
  const chunks = here.endsWith('chunks') ? here : join(here, 'chunks');
  const stat = (path: string) => {
    try {
      const { size, mtimeMs } = statSync(path);
      parts.push(`${path}:${size}:${mtimeMs}`);
    } catch {
      parts.push(`${path}: none`);
    }
  };
  if (existsSync(chunks)) parts.push(...readdirSync(chunks).sort());
  else {
    const walk = (dir: string) => {
      const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) stat(path);
      }
    };
    walk(join(here, '..'));
    stat(join(here, '..', '..', 'package-lock.json'));
  }
  stamp = parts.join('\n');
  return stamp;
}

/**
 * `store` with each feed's memos under a scope of their own (`<feed>@<scope>`): the worker's folder
 * is one per user of a host, so two deployments with a feed of the same id (another platform,
 * another chatbot) would replace each other's memos on every run, each then mapping every record.
 */
export function scopedMemo(store: MemoStore, scope: string): MemoStore {
  const id = (feedId: string) => `${feedId}@${scope}`;
  return {
    read: (feedId, maxBytes) => store.read(id(feedId), maxBytes),
    begin: (feedId) => store.begin(id(feedId)),
    remove: (feedId) => store.remove(id(feedId)),
    get stamp() {
      return store.stamp;
    },
  };
}
