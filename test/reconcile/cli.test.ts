import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runDemo } from '../../src/cli/commands/demo.ts';
import { main } from '../../src/cli/main.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';

const HEADER = 'MLS,Status,Type,Price,Beds,Baths,SqFt,Lot,Built,DOM,Parking,Url\n';
const row = (n: number, price = 300_000) =>
  `M-${n},Active,Condo,${price},2,1,900,0,1990,3,1,https://cli.example/l/M-${n}\n`;
const CONFIG = (url: string) => `
api: { baseUrl: ${url}, concurrency: 4, pageSize: 20 }
stateFile: state.json
feeds:
  - id: cli-feed
    chatbot: CLI-BOT
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
  dir = await mkdtemp(join(tmpdir(), 'feed-sync-cli-'));
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
const feed = (rows: string) => writeFile(join(dir, 'feed.csv'), HEADER + rows);

describe('feed-sync plan / sync', () => {
  it('plan writes nothing; sync applies and keeps state; a second sync writes nothing', async () => {
    await feed([1, 2, 3].map((n) => row(n)).join(''));
    expect(await cli('plan', '--feed', 'cli-feed')).toBe(0);
    expect(out).toContain('Plan: 3 to create, 0 to update, 0 to delete');
    expect(out).toContain('+ create  M-1');
    expect(sandbox.listings('CLI-BOT')).toHaveLength(0);

    expect(await cli('sync', '--feed', 'cli-feed', '--json')).toBe(0);
    expect(JSON.parse(out.slice(out.indexOf('\n{') + 1))).toMatchObject({ outcome: 'ok', created: 3 });
    expect(sandbox.listings('CLI-BOT')).toHaveLength(3);
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    expect(state.feeds['cli-feed'].lastReport.created).toBe(3);

    out = '';
    expect(await cli('sync', '--all', '--force-full')).toBe(0);
    expect(out).toContain('API calls: list 1');
  });

  it('exits 2 when a guard holds deletes back, 0 with the override', async () => {
    await feed([1, 2, 3, 4, 5].map((n) => row(n)).join(''));
    expect(await cli('sync', '--feed', 'cli-feed')).toBe(0);
    await feed(row(1));
    expect(await cli('sync', '--feed', 'cli-feed')).toBe(2);
    expect(out).toContain('TRIPPED');
    expect(sandbox.listings('CLI-BOT')).toHaveLength(5);
    expect(await cli('sync', '--feed', 'cli-feed', '--allow-mass-delete')).toBe(0);
    expect(sandbox.listings('CLI-BOT')).toHaveLength(1);
  });

  it('exits 1 when the source fails, deleting nothing', async () => {
    await feed(row(1));
    expect(await cli('sync', '--feed', 'cli-feed')).toBe(0);
    await rm(join(dir, 'feed.csv'));
    expect(await cli('sync', '--feed', 'cli-feed')).toBe(1);
    expect(out).toContain('failed');
    expect(sandbox.listings('CLI-BOT')).toHaveLength(1);
  });

  it('names an unknown feed', async () => {
    expect(await cli('sync', '--feed', 'nope')).toBe(1);
  });
});

describe('feed-sync demo', () => {
  it('runs three syncs and ends with a run that writes nothing', async () => {
    const lines: string[] = [];
    expect(await runDemo((t) => lines.push(t))).toBe(0);
    const text = lines.join('\n');
    expect(text).toContain('Run 3 made 0 writes');
    expect(text).toContain('- delete  HH-2410');
    expect(text).toMatch(/Status: "Active" → "Sold"/);
  });
});
