import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { csvFeedConfig, csvRow, useCliFeed } from '../helpers/cli-feed.ts';

// The production path: the feed's records are spilled to a temporary file while the run plans with
// digests, then read back for the writes. Nothing may be left behind, whatever the run's outcome.
const t = useCliFeed((url) => csvFeedConfig(url, { id: 'spill-feed', chatbot: 'SPILL-BOT' }));
const row = (n: number, price = 300_000) => csvRow(n, { price, beds: 2, host: 'spill.example' });

describe('the spilled records of a run', () => {
  let temp: string;
  let saved: string | undefined;
  beforeEach(async () => {
    temp = await mkdtemp(join(tmpdir(), 'feed-sync-spill-'));
    saved = process.env.TMPDIR;
    process.env.TMPDIR = temp;
  });
  afterEach(async () => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    await rm(temp, { recursive: true, force: true });
  });

  /** Whether this process holds an unlinked spill file open under `temp` (Linux: /proc/self/fd). */
  const spillOpen = () =>
    readdirSync('/proc/self/fd').some((fd) => {
      try {
        const target = readlinkSync(`/proc/self/fd/${fd}`);
        return target.startsWith(temp) && target.endsWith('records.jsonl (deleted)');
      } catch {
        return false;
      }
    });

  it('are read back for creates and updates exactly as normalized, and leave no file', async () => {
    await t.feed(Array.from({ length: 40 }, (_, i) => row(i + 1)).join(''));
    // The run really spills: while it runs, its records are in an unlinked file under TMPDIR.
    let seen = false;
    const watch = setInterval(() => {
      seen ||= spillOpen();
    }, 1);
    const code = await t.cli('sync', '--feed', 'spill-feed');
    clearInterval(watch);
    expect(code).toBe(0);
    expect(seen).toBe(true);
    expect(spillOpen()).toBe(false);
    const listings = t.sandbox.listings('SPILL-BOT');
    expect(listings).toHaveLength(40);
    expect(listings.find((l) => l.MLSNumber === 'M-7')).toMatchObject({ SalePrice: 300_000, Bedrooms: 2 });
    expect(await readdir(temp)).toEqual([]);

    // Day 2: one price moves; the update sends the spilled record of that listing.
    await t.feed(Array.from({ length: 40 }, (_, i) => row(i + 1, i === 6 ? 275_000 : 300_000)).join(''));
    t.reset();
    expect(await t.cli('sync', '--feed', 'spill-feed', '--json')).toBe(0);
    const report = JSON.parse(t.out()) as { updated: number; unchanged: number; created: number };
    expect(report).toMatchObject({ created: 0, updated: 1, unchanged: 39 });
    expect(t.sandbox.listings('SPILL-BOT').find((l) => l.MLSNumber === 'M-7')).toMatchObject({
      SalePrice: 275_000,
    });
    expect(await readdir(temp)).toEqual([]);
  });

  it('leave no file when the snapshot fails either', async () => {
    await t.feed(row(1));
    await t.sandbox.close();
    expect(await t.cli('sync', '--feed', 'spill-feed')).not.toBe(0);
    expect(await readdir(temp)).toEqual([]);
  });
});
