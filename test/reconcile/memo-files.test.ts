import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { memoScope } from '../../jobs/sync-feed.ts';
import { memoFiles, scopedMemo } from '../../src/reconcile/index.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const written = (store: ReturnType<typeof memoFiles>, feedId: string, bytes: number[]) => {
  const sink = store.begin(feedId);
  expect(sink).toBeDefined();
  sink?.write(Uint8Array.from(bytes.slice(1)));
  sink?.commit(Uint8Array.from(bytes.slice(0, 1)));
};

it("two deployments' feeds of one id keep their own memos in the worker's shared folder", () => {
  dir = mkdtempSync(join(tmpdir(), 'feed-sync-memo-test-'));
  const shared = memoFiles(join(dir, 'memos'));
  const a = scopedMemo(shared, memoScope('https://platform.example', 'BOT-A'));
  const b = scopedMemo(shared, memoScope('https://platform.example', 'BOT-B'));
  written(a, 'acme', [1, 2, 3]);
  written(b, 'acme', [7, 8]);
  written(a, 'acme\0pages', [4]);
  // Each memo is its header (in its slot, first) and its rows.
  const rows = (bytes: Uint8Array | undefined) => [...(bytes ?? [])].filter((byte) => byte !== 0);
  expect(rows(a.read('acme'))).toEqual([1, 2, 3]);
  expect(rows(b.read('acme'))).toEqual([7, 8]);
  expect(b.read('acme\0pages')).toBeUndefined();
  b.remove('acme');
  expect(b.read('acme')).toBeUndefined();
  expect(rows(a.read('acme'))).toEqual([1, 2, 3]);
  expect(a.stamp).toBe(shared.stamp);
  // Another platform is another scope; the same one is the same.
  expect(memoScope('https://other.example', 'BOT-A')).not.toBe(
    memoScope('https://platform.example', 'BOT-A'),
  );
  expect(memoScope('https://platform.example', 'BOT-A')).toBe(memoScope('https://platform.example', 'BOT-A'));
  expect(readdirSync(join(dir, 'memos')).filter((f) => f.endsWith('.memo'))).toHaveLength(2);
});

it('a memo no run has replaced for a week (an old name, a feed gone) is removed when a run writes one', () => {
  dir = mkdtempSync(join(tmpdir(), 'feed-sync-memo-test-'));
  const folder = join(dir, 'memos');
  const store = memoFiles(folder);
  written(store, 'fresh', [1, 2]);
  const old = join(folder, 'acme.memo');
  const recent = join(folder, 'recent.memo');
  const other = join(folder, 'notes.txt');
  for (const path of [old, recent, other]) writeFileSync(path, 'x');
  const weekAgo = new Date(Date.now() - 8 * 24 * 3_600_000);
  utimesSync(old, weekAgo, weekAgo);
  utimesSync(other, weekAgo, weekAgo);
  utimesSync(recent, new Date(Date.now() - 2 * 24 * 3_600_000), new Date(Date.now() - 2 * 24 * 3_600_000));
  written(store, 'fresh', [3]);
  expect(readdirSync(folder).sort()).toEqual(['fresh.memo', 'notes.txt', 'recent.memo']);
});
