import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writevSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MemoStore } from './run-memo.ts';

/** A memo file larger than this is not read (about 25 bytes and the key a listing: 1M listings ~40 MB). */
const MAX_MEMO_BYTES = 1 << 30;

/**
 * Record memos as files in `dir`, one per feed (`<feed id>.memo`), each replaced whole (written
 * beside it, then renamed), so a run killed while it writes leaves the last memo or none, never a
 * torn one. A file that cannot be read is no memo; one that cannot be written is left to the next
 * run (`onError` says why). The folder is made on first write, private to the user.
 */
export function memoFiles(dir: string, onError?: (error: Error) => void): MemoStore {
  const file = (feedId: string) => join(dir, `${encodeURIComponent(feedId)}.memo`);
  return {
    stamp: codeStamp(),
    read(feedId) {
      try {
        const path = file(feedId);
        if (statSync(path).size > MAX_MEMO_BYTES) return undefined;
        return readFileSync(path);
      } catch {
        return undefined;
      }
    },
    write(feedId, parts) {
      const path = file(feedId);
      const next = `${path}.${process.pid}.next`;
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const fd = openSync(next, 'w', 0o600);
        try {
          let written = 0;
          const total = parts.reduce((sum, part) => sum + part.length, 0);
          while (written < total) written += writevSync(fd, unwritten(parts, written));
        } finally {
          closeSync(fd);
        }
        renameSync(next, path);
      } catch (error) {
        rmSync(next, { force: true });
        onError?.(error as Error);
      }
    },
  };
}

/** The parts from byte `from` of their whole on (a `writev` may write less than it was given). */
function unwritten(parts: readonly Uint8Array[], from: number): Uint8Array[] {
  const rest: Uint8Array[] = [];
  let at = 0;
  for (const part of parts) {
    const end = at + part.length;
    if (end > from) rest.push(from > at ? part.subarray(from - at) : part);
    at = end;
  }
  return rest;
}

let stamp: string | undefined;

/**
 * What names the code that maps and digests records, so a memo written by other code is not used.
 * The build's chunks are named by their content hash (dist/src/cli/chunks/): their names. The
 * sources (a checkout, tests): the size and time of every file under src/.
 */
export function codeStamp(): string {
  if (stamp !== undefined) return stamp;
  const here = dirname(fileURLToPath(import.meta.url));
  const parts: string[] = [];
  const chunks = here.endsWith('chunks') ? here : join(here, 'chunks');
  if (existsSync(chunks)) parts.push(...readdirSync(chunks).sort());
  else {
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
        a.name < b.name ? -1 : 1,
      )) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
          const { size, mtimeMs } = statSync(path);
          parts.push(`${path}:${size}:${mtimeMs}`);
        }
      }
    };
    walk(join(here, '..'));
  }
  stamp = parts.join('\n');
  return stamp;
}
