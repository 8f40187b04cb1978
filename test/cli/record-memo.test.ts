import { chmod, mkdir, readdir, readFile, rename, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvFeedConfig, csvRow, useCliFeed } from '../helpers/cli-feed.ts';

// The record memo (src/ingest/record-memo.ts) through the real CLI: a second run maps only the
// records that changed, and writes exactly what a run without a memo would.
const BOT = 'MEMO-BOT';
const t = useCliFeed((url) => csvFeedConfig(url, { id: 'acme', chatbot: BOT }));
const rows = (prices: Record<number, number> = {}) =>
  [1, 2, 3, 4].map((n) => csvRow(n, { price: prices[n] ?? 300_000 + n, host: 'memo.example' })).join('');
const sync = async (...args: string[]) => {
  t.reset();
  const code = await t.cli('sync', '--feed', 'acme', '--json', ...args);
  return { code, report: JSON.parse(t.out()) };
};
const memoFile = () => join(t.dir, '.feed-sync-memo', 'acme.memo');
const listing = (mls: string) => t.sandbox.listings(BOT).find((l) => l.MLSNumber === mls);
/** The platform's copy of every listing, without its ID: what two runs must leave alike. */
const platform = () =>
  t.sandbox
    .listings(BOT)
    .map(({ ID: _id, ...rest }) => rest)
    .sort((a, b) => String(a.MLSNumber).localeCompare(String(b.MLSNumber)));

describe('the record memo', () => {
  it('a second run knows the unchanged records, maps the changed one, and writes what it must', async () => {
    await t.feed(rows());
    const first = await sync();
    expect(first).toMatchObject({ code: 0, report: { created: 4, read: 4, known: 0 } });
    // The feed's record memo, its page memo (src/reconcile/page-memo.ts) and its reading
    // (src/reconcile/feed-reading.ts).
    expect((await readdir(join(t.dir, '.feed-sync-memo'))).sort()).toEqual([
      'acme%00pages.memo',
      'acme%40reading.memo',
      'acme.memo',
    ]);
    const created = platform();

    // Nothing changed: every record is known, nothing is written.
    expect(await sync()).toMatchObject({ code: 0, report: { unchanged: 4, updated: 0, known: 4 } });

    // One price changed: that record alone is mapped again, and updated.
    await t.feed(rows({ 3: 275_000 }));
    expect(await sync()).toMatchObject({ code: 0, report: { updated: 1, unchanged: 3, known: 3 } });
    expect(listing('M-3')?.SalePrice).toBe(275_000);
    expect(await sync()).toMatchObject({ code: 0, report: { updated: 0, unchanged: 4, known: 4 } });
    expect(platform().filter((l) => l.MLSNumber !== 'M-3')).toEqual(
      created.filter((l) => l.MLSNumber !== 'M-3'),
    );
  });

  it('a listing edited on the platform behind the feed is written back whole, from a record the memo knew', async () => {
    await t.feed(rows());
    expect((await sync()).code).toBe(0);
    const before = platform();
    // Someone edits M-2 on the platform: its price, and its hash tag gone.
    const response = await fetch(`${t.sandbox.url}/chat/Chatbot/RealEstateUpdate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        SerialNumber: BOT,
        Key: 'M-2',
        KeyType: 'MLSNumber',
        SalePrice: 1,
        ExtensionColumn: [{ Key: 'feed-sync:feed', value: 'acme' }],
      }),
    });
    expect(response.ok).toBe(true);
    expect(listing('M-2')?.SalePrice).toBe(1);

    // The feed is unchanged, so M-2's record is known: its listing is made again from its fields.
    expect(await sync()).toMatchObject({ code: 0, report: { updated: 1, unchanged: 3, known: 4 } });
    expect(platform()).toEqual(before);
  });

  it('a memo of another mapping, or a torn one, is not used, and costs nothing but time', async () => {
    await t.feed(rows());
    expect((await sync()).code).toBe(0);
    const memo = await readFile(memoFile());

    // The mapping changed (Bedrooms from another column): no record is known, every listing is updated.
    const config = await readFile(join(t.dir, 'feed-sync.yaml'), 'utf8');
    await t.writeConfig(config.replace('Bedrooms: Beds', 'Bedrooms: Baths'));
    expect(await sync()).toMatchObject({ code: 0, report: { updated: 4, known: 0 } });
    expect(listing('M-1')?.Bedrooms).toBe(1);

    // Back to the first mapping, with the first run's memo torn: read as none, the run is right.
    await t.writeConfig(config);
    await writeFile(memoFile(), memo.subarray(0, memo.length - 3));
    expect(await sync()).toMatchObject({ code: 0, report: { updated: 4, known: 0 } });
    expect(listing('M-1')?.Bedrooms).toBe(2);
    expect(await sync()).toMatchObject({ code: 0, report: { updated: 0, unchanged: 4, known: 4 } });
  });

  it('plan reads the memo and leaves it as it was; --dry-run too', async () => {
    await t.feed(rows());
    expect((await sync()).code).toBe(0);
    const memo = await readFile(memoFile());
    await t.feed(rows({ 1: 250_000 }));
    t.reset();
    expect(await t.cli('plan', '--feed', 'acme', '--json')).toBe(0);
    expect(JSON.parse(t.out())).toMatchObject({
      plan: { updates: [expect.objectContaining({ key: 'M-1' })] },
      report: { updated: 1, known: 3 },
    });
    expect(await sync('--dry-run')).toMatchObject({
      code: 0,
      report: { updated: 1, known: 3, dryRun: true },
    });
    expect(await readFile(memoFile())).toEqual(memo);
  });

  it('says in the text report how many records it knew', async () => {
    await t.feed(rows());
    expect((await sync()).code).toBe(0);
    t.reset();
    expect(await t.cli('sync', '--feed', 'acme')).toBe(0);
    expect(t.out()).toContain('record memo: 4 of 4 record(s) known from the last run, not mapped again');
  });

  it('a memo that is a link, or a folder others can write to, is not used: one line says so, and the run is right', async () => {
    await t.feed(rows());
    expect((await sync()).code).toBe(0);
    const dir = join(t.dir, '.feed-sync-memo');
    // The memo file made a link to a copy of itself elsewhere: not followed.
    const elsewhere = join(t.dir, 'elsewhere.memo');
    await rename(memoFile(), elsewhere);
    await symlink(elsewhere, memoFile());
    expect(await sync()).toMatchObject({ code: 0, report: { unchanged: 4, known: 0 } });
    // A folder anyone can write to: not read, nothing kept, said once, in one line.
    await chmod(dir, 0o777);
    t.reset();
    expect(await t.cli('sync', '--feed', 'acme', '--json')).toBe(0);
    expect(JSON.parse(t.out())).toMatchObject({ unchanged: 4, known: 0 });
    const said = t
      .err()
      .split('\n')
      .filter((line) => line.includes('record memo'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('is not a private folder of this user');
    expect(said[0]).not.toContain('    at ');
  });

  it('a half-written memo a killed run left is removed once it is 10 minutes old', async () => {
    await t.feed(rows());
    const dir = join(t.dir, '.feed-sync-memo');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const stale = join(dir, 'acme.memo.dead.next');
    const fresh = join(dir, 'acme.memo.live.next');
    await writeFile(stale, 'x');
    await writeFile(fresh, 'x');
    const old = new Date(Date.now() - 11 * 60_000);
    await utimes(stale, old, old);
    expect((await sync()).code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual([
      'acme%00pages.memo',
      'acme%40reading.memo',
      'acme.memo',
      'acme.memo.live.next',
    ]);
  });

  it('--no-memo maps every record and leaves the memo as it was (sync and plan)', async () => {
    await t.feed(rows());
    expect((await sync()).code).toBe(0);
    const memo = await readFile(memoFile());
    await t.feed(rows({ 2: 199_000 }));
    const { code, report } = await sync('--no-memo');
    expect(code).toBe(0);
    expect(report).toMatchObject({ updated: 1, unchanged: 3 });
    expect(report.known).toBeUndefined();
    expect(await readFile(memoFile())).toEqual(memo);
    t.reset();
    expect(await t.cli('plan', '--feed', 'acme', '--json', '--no-memo')).toBe(0);
    expect(JSON.parse(t.out()).report.known).toBeUndefined();
  });
});
