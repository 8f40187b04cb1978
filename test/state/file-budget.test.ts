import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileStateStore } from '../../src/state/index.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function stateFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'feed-sync-file-budget-'));
  dirs.push(dir);
  return join(dir, 'state.json');
}

const T0 = Date.UTC(2026, 11, 1, 12);
const limits = { perHour: 1000 };

describe('provider budgets in the state file, two processes on one key', () => {
  it('a 429 one process heard holds back the other at its next request, reserved or not, until it resets', async () => {
    const file = await stateFile();
    // Two stores on one file: two `feed-sync` processes.
    const a = createFileStateStore(file).budgets!;
    const b = createFileStateStore(file).budgets!;
    expect((await b.take('mls', limits, T0)).ok).toBe(true);
    expect((await b.take('mls', limits, T0 + 10)).ok).toBe(true);
    expect((await a.take('mls', limits, T0 + 20)).ok).toBe(true);
    await a.announce('mls', { name: 'retry-after', remaining: 0, resetAt: T0 + 5000 }, T0 + 100);
    expect(await b.take('mls', limits, T0 + 200)).toMatchObject({
      ok: false,
      window: 'provider',
      retryAt: T0 + 5000,
    });
    // A write of something else (a feed's state) does not lose it.
    await createFileStateStore(file).updateFeed('acme', { etag: '"v2"' });
    expect(await b.take('mls', limits, T0 + 300)).toMatchObject({ ok: false, window: 'provider' });
    expect((await b.take('mls', limits, T0 + 5001)).ok).toBe(true);
  });

  it('a file not replaced since it was last read is not parsed again for each request', async () => {
    const file = await stateFile();
    const b = createFileStateStore(file).budgets!;
    expect((await b.take('mls', limits, T0)).ok).toBe(true);
    expect((await b.take('mls', limits, T0 + 10)).ok).toBe(true);
    // The same file (inode, size, time) with bytes no parser reads: a request that parsed it would fail.
    const { atimeMs, mtimeMs } = await stat(file);
    const text = await readFile(file, 'utf8');
    await writeFile(file, '#'.repeat(Buffer.byteLength(text)));
    await utimes(file, atimeMs / 1000, mtimeMs / 1000);
    expect((await stat(file)).mtimeMs).toBe(mtimeMs);
    expect((await b.take('mls', limits, T0 + 20)).ok).toBe(true);
  });
});
