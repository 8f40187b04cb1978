import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/api/index.ts';
import { main } from '../../src/cli/main.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';

// Listings edited or deleted on the platform behind feed-sync's back, under an unchanged feed file.
const HEADER = 'MLS,Status,Type,Price,Beds,Baths,SqFt,Lot,Built,DOM,Parking,Url\n';
const row = (n: number) => `M-${n},Active,Condo,300000,2,1,900,0,1990,3,1,https://drift.example/l/M-${n}\n`;
const CONFIG = (url: string) => `
api: { baseUrl: ${url}, concurrency: 4, pageSize: 20 }
stateFile: state.json
feeds:
  - id: drift-feed
    chatbot: DRIFT-BOT
    source: { format: csv, path: feed.csv }
    mapping:
      fields:
        MLSNumber: MLS
        Status: Status
        SaleType: { const: for_sale }
        PropertyType: Type
        SalePrice: Price
        CurrencySymbol: { const: "$" }
        Bedrooms: Beds
        Bathrooms: Baths
        BuildingArea: SqFt
        LotArea: Lot
        YearBuilt: Built
        DaysOnMarket: DOM
        ParkingSpots: Parking
        Url: Url
`;

let dir: string;
let sandbox: Sandbox;
let out: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'feed-sync-drift-'));
  sandbox = await startSandbox();
  await writeFile(join(dir, 'feed-sync.yaml'), CONFIG(sandbox.url));
  out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  main(['node', 'feed-sync', ...args, '--config', join(dir, 'feed-sync.yaml')]);

describe('drift is repaired', () => {
  it('a manual sync of an unchanged feed restores a listing deleted and one edited on the platform', async () => {
    await writeFile(join(dir, 'feed.csv'), HEADER + [1, 2, 3].map(row).join(''));
    expect(await cli('sync', '--feed', 'drift-feed')).toBe(0);
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    expect(state.feeds['drift-feed'].etag).toBeDefined(); // the file's validator is kept

    // Behind feed-sync's back, through the platform's own API.
    const client = createClient({ baseUrl: sandbox.url, timeoutMs: 5_000 });
    const byKey = (k: string) => sandbox.listings('DRIFT-BOT').find((l) => l.MLSNumber === k);
    const two = byKey('M-2');
    const three = byKey('M-3');
    if (!two?.ID || !three) throw new Error('not created');
    await client.deleteListings({ SerialNumber: 'DRIFT-BOT', Keys: [String(two.ID)], KeyType: 'NewOaks' });
    await client.updateListing({ ...three, Key: String(three.ID), KeyType: 'NewOaks', SalePrice: 1 });
    expect(byKey('M-2')).toBeUndefined();
    expect(byKey('M-3')?.SalePrice).toBe(1);

    out = '';
    expect(await cli('sync', '--feed', 'drift-feed', '--json')).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ outcome: 'ok', created: 1, updated: 1, unchanged: 1 });
    expect(byKey('M-2')).toBeDefined();
    expect(byKey('M-3')?.SalePrice).toBe(300_000);
  });
});

describe('the state file is checked before any write', () => {
  it('a state path that cannot be written stops sync before it touches the platform (exit 2)', async () => {
    await writeFile(join(dir, 'feed.csv'), HEADER + [1, 2].map(row).join(''));
    // The state file's folder is a regular file: even root cannot write there.
    await writeFile(
      join(dir, 'feed-sync.yaml'),
      CONFIG(sandbox.url).replace('stateFile: state.json', 'stateFile: feed.csv/state.json'),
    );
    let err = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err += String(chunk);
      return true;
    });
    expect(await cli('sync', '--feed', 'drift-feed')).toBe(2);
    expect(err).toMatch(
      /the state file .*feed\.csv\/state\.json cannot be written \((ENOTDIR|EEXIST)\): nothing was synced/,
    );
    expect(sandbox.stats().requests).toMatchObject({ create: 0, list: 0 });
  });
});
