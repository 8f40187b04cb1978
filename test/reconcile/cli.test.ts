import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/cli/commands/demo.ts';
import { csvFeedConfig, csvRow, useCliFeed } from '../helpers/cli-feed.ts';

const t = useCliFeed((url) => csvFeedConfig(url, { id: 'cli-feed', chatbot: 'CLI-BOT' }));
const row = (n: number, price = 300_000) => csvRow(n, { price });
const cli = (...args: string[]) => t.cli(...args);
const feed = (rows: string) => t.feed(rows);

describe('feed-sync plan / sync', () => {
  it('plan writes nothing; sync applies and keeps state; a second sync writes nothing', async () => {
    await feed([1, 2, 3].map((n) => row(n)).join(''));
    expect(await cli('plan', '--feed', 'cli-feed')).toBe(0);
    expect(t.out()).toContain('Plan: 3 to create, 0 to update, 0 to delete');
    expect(t.out()).toContain('+ create  M-1');
    expect(t.sandbox.listings('CLI-BOT')).toHaveLength(0);

    expect(await cli('sync', '--feed', 'cli-feed', '--json')).toBe(0);
    expect(JSON.parse(t.out().slice(t.out().indexOf('\n{') + 1))).toMatchObject({
      outcome: 'ok',
      created: 3,
    });
    expect(t.sandbox.listings('CLI-BOT')).toHaveLength(3);
    const state = JSON.parse(await readFile(join(t.dir, 'state.json'), 'utf8'));
    expect(state.feeds['cli-feed'].lastReport.created).toBe(3);

    t.reset();
    expect(await cli('sync', '--all', '--force-full')).toBe(0);
    expect(t.out()).toContain('API calls: list 1');
  });

  it('plan prints per-listing field changes and deletes, terraform style; --json has all of it', async () => {
    await feed([1, 2, 3, 4, 5, 6].map((n) => row(n)).join(''));
    expect(await cli('sync', '--feed', 'cli-feed')).toBe(0);
    await feed([row(1), row(2, 250_000), row(4), row(5), row(6), row(7)].join(''));
    t.reset();
    expect(await cli('plan', '--feed', 'cli-feed')).toBe(0);
    expect(t.out()).toContain('Plan: 1 to create, 1 to update, 1 to delete, 4 unchanged, 0 foreign.');
    expect(t.out()).toContain('  + create  M-7');
    expect(t.out()).toMatch(/ {2}~ update {2}M-2 {2}\(ID \d+\)\n {6}SalePrice: \$300,000 → \$250,000\n/);
    expect(t.out()).toMatch(/ {2}- delete {2}M-3 {2}\(ID \d+\): gone from the feed/);
    expect(t.out()).toContain('✓ max-delete-share: deleting 1 of 6 owned listings (16.7%; limit 20%)');

    t.reset();
    expect(await cli('plan', '--feed', 'cli-feed', '--json')).toBe(0);
    const { plan, report } = JSON.parse(t.out());
    expect(plan).toMatchObject({
      creates: [{ key: 'M-7' }],
      updates: [
        {
          key: 'M-2',
          changes: [
            { field: 'SalePrice', from: 300_000, to: 250_000 },
            { field: 'ExtensionColumn[feed-sync:hash]', from: expect.any(String), to: expect.any(String) },
          ],
        },
      ],
      deletes: [{ key: 'M-3', reason: 'gone' }],
      unchanged: ['M-1', 'M-4', 'M-5', 'M-6'],
    });
    // What a create is and the whole record it would send, not where the run kept it.
    expect(plan.creates[0].brief).toMatchObject({ Status: 'Active', SalePrice: 300_000 });
    expect(plan.creates[0].listing).toMatchObject({ MLSNumber: 'M-7', SalePrice: 300_000 });
    expect(plan.creates[0].listing.ExtensionColumn).toContainEqual({
      Key: 'feed-sync:feed',
      value: 'cli-feed',
    });
    expect(plan.updates[0].listing).toMatchObject({ MLSNumber: 'M-2', SalePrice: 250_000 });
    expect(plan.creates[0]).not.toHaveProperty('desired');
    expect(report).toMatchObject({ dryRun: true, outcome: 'ok', created: 1, updated: 1, deleted: 1 });
    expect(t.sandbox.listings('CLI-BOT')).toHaveLength(6);
    expect(t.sandbox.stats().requests).toMatchObject({ create: 6, update: 0, delete: 0 });
  });

  it('sync names each rejected row and field in the text report; --json has the rejections', async () => {
    await feed(`${row(1)}M-2,Active,Condo,cheap,2,1,900,0,1990,3,1,https://cli.example/l/M-2\n`);
    expect(await cli('sync', '--feed', 'cli-feed')).toBe(4);
    expect(t.out()).toContain(
      'rejected 1 feed record(s):\n    Row 3 of feed.csv (M-2): SalePrice "cheap" is not a number',
    );
    t.reset();
    expect(await cli('sync', '--feed', 'cli-feed', '--json', '--force-full')).toBe(4);
    expect(JSON.parse(t.out())).toMatchObject({
      rejected: 1,
      rejections: [{ row: 3, key: 'M-2', field: 'SalePrice', value: 'cheap', reason: 'not_a_number' }],
    });
  });

  it('exits 3 when a guard holds deletes back, 0 with the override', async () => {
    await feed([1, 2, 3, 4, 5].map((n) => row(n)).join(''));
    expect(await cli('sync', '--feed', 'cli-feed')).toBe(0);
    await feed(row(1));
    expect(await cli('sync', '--feed', 'cli-feed')).toBe(3);
    expect(t.out()).toContain('TRIPPED');
    expect(t.sandbox.listings('CLI-BOT')).toHaveLength(5);
    expect(await cli('sync', '--feed', 'cli-feed', '--allow-mass-delete')).toBe(0);
    expect(t.sandbox.listings('CLI-BOT')).toHaveLength(1);
  });

  it('exits 1 when the source fails, deleting nothing', async () => {
    await feed(row(1));
    expect(await cli('sync', '--feed', 'cli-feed')).toBe(0);
    await rm(join(t.dir, 'feed.csv'));
    expect(await cli('sync', '--feed', 'cli-feed')).toBe(1);
    expect(t.out()).toContain('failed');
    expect(t.sandbox.listings('CLI-BOT')).toHaveLength(1);
  });

  it('names an unknown feed: a usage error, exit 2', async () => {
    expect(await cli('sync', '--feed', 'nope')).toBe(2);
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
    // The deliberately bad row, named by feed file, row, field and value.
    expect(text).toContain(
      'rejected 1 feed record(s):\n    Row 14 of harbor-homes.csv (HH-2499): Bedrooms "three" is not a number',
    );
  });
});
