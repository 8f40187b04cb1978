import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.ts';
import { csvFeedConfig, csvRow, HEADER, useCliFeed } from '../helpers/cli-feed.ts';

// Listings edited or deleted on the platform behind feed-sync's back, under an unchanged feed file.
const CONFIG = (url: string) => csvFeedConfig(url, { id: 'drift-feed', chatbot: 'DRIFT-BOT' });
const t = useCliFeed(CONFIG);
const row = (n: number) => csvRow(n, { host: 'drift.example' });
const cli = (...args: string[]) => t.cli(...args);

describe('drift is repaired', () => {
  it('a manual sync of an unchanged feed restores a listing deleted and one edited on the platform', async () => {
    await writeFile(join(t.dir, 'feed.csv'), HEADER + [1, 2, 3].map(row).join(''));
    expect(await cli('sync', '--feed', 'drift-feed')).toBe(0);
    const state = JSON.parse(await readFile(join(t.dir, 'state.json'), 'utf8'));
    expect(state.feeds['drift-feed'].etag).toBeDefined(); // the file's validator is kept

    // Behind feed-sync's back, through the platform's own API.
    const client = createClient({ baseUrl: t.sandbox.url, timeoutMs: 5_000 });
    const byKey = (k: string) => t.sandbox.listings('DRIFT-BOT').find((l) => l.MLSNumber === k);
    const two = byKey('M-2');
    const three = byKey('M-3');
    if (!two?.ID || !three) throw new Error('not created');
    await client.deleteListings({ SerialNumber: 'DRIFT-BOT', Keys: [String(two.ID)], KeyType: 'NewOaks' });
    await client.updateListing({ ...three, Key: String(three.ID), KeyType: 'NewOaks', SalePrice: 1 });
    expect(byKey('M-2')).toBeUndefined();
    expect(byKey('M-3')?.SalePrice).toBe(1);

    t.reset();
    expect(await cli('sync', '--feed', 'drift-feed', '--json')).toBe(0);
    expect(JSON.parse(t.out())).toMatchObject({ outcome: 'ok', created: 1, updated: 1, unchanged: 1 });
    expect(byKey('M-2')).toBeDefined();
    expect(byKey('M-3')?.SalePrice).toBe(300_000);
  });
});

describe('the state file is checked before any write', () => {
  it('a state path that cannot be written stops sync before it touches the platform (exit 2)', async () => {
    await writeFile(join(t.dir, 'feed.csv'), HEADER + [1, 2].map(row).join(''));
    // The state file's folder is a regular file: even root cannot write there.
    await writeFile(
      join(t.dir, 'feed-sync.yaml'),
      CONFIG(t.sandbox.url).replace('stateFile: state.json', 'stateFile: feed.csv/state.json'),
    );
    expect(await cli('sync', '--feed', 'drift-feed')).toBe(2);
    expect(t.err()).toMatch(
      /the state file .*feed\.csv\/state\.json cannot be written \((ENOTDIR|EEXIST)\): nothing was synced/,
    );
    expect(t.sandbox.stats().requests).toMatchObject({ create: 0, list: 0 });
  });
});
