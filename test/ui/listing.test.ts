import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, chromiumAvailable, redisAvailable } from '../helpers/services.ts';
import { type DashboardScene, PASSWORD, startDashboardScene, USER } from './dashboard-scene.ts';

/**
 * Issue 22 on the dashboard: a search box on the feed page and a listing page with the five parts
 * of `feed-sync explain`, linked from every key the dashboard shows. Real worker, Redis, sandbox.
 */
let scene: DashboardScene;
const AUTH = { authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}` };
const idOf = (key: string) => scene.sandbox.listings('FIXTURES').find((l) => l.MLSNumber === key)?.ID;

/**
 * A second feed for the search: six listings, then a day on which S-103's row is shifted (its
 * listing held by the broken row), S-104's row is rejected (its city Springfield), S-105 is gone (in
 * grace) — the keys the feed page shows without a valid record.
 */
const SEARCH_HEADER = 'MLS,Status,Type,Price,Beds,Baths,SqFt,Built,Address,City,Url\n';
const searchRow = (n: number, beds: number | string = 2, city = 'Shelbyville') =>
  `S-10${n},Active,Condo,300000,${beds},1,900,1990,${n} Oak St,${city},https://search.example/S-10${n}\n`;
let searchDir: string;
const searchCsv = () => join(searchDir, 'search.csv');
const searchFeedConfig = () => ({
  id: 'search',
  chatbot: 'SEARCH-BOT',
  gone: { afterDays: 3 },
  source: { format: 'csv', path: searchCsv() },
  mapping: {
    fields: {
      MLSNumber: 'MLS',
      Status: 'Status',
      SaleType: { const: 'for_sale' },
      PropertyType: 'Type',
      SalePrice: 'Price',
      CurrencySymbol: { const: '$' },
      Bedrooms: 'Beds',
      Bathrooms: 'Baths',
      BuildingArea: 'SqFt',
      YearBuilt: 'Built',
      Address: 'Address',
      City: 'City',
      Url: 'Url',
    },
  },
});

describe.skipIf(!redisAvailable)('the listing page', () => {
  beforeAll(async () => {
    searchDir = await mkdtemp(join(tmpdir(), 'feed-sync-search-'));
    await writeFile(searchCsv(), SEARCH_HEADER + [1, 2, 3, 4, 5, 6].map((n) => searchRow(n)).join(''));
    scene = await startDashboardScene([searchFeedConfig()]);
    await scene.runFeed('acme');
    await scene.runFeed('search');
    const shifted =
      'S-103,Active,Condo,300,000,2,1,900,1990,3 Oak St,Shelbyville,https://search.example/S-103\n';
    await writeFile(
      searchCsv(),
      SEARCH_HEADER +
        searchRow(1) +
        searchRow(2) +
        shifted +
        searchRow(4, 'three', 'Springfield') +
        searchRow(6),
    );
    await scene.runFeed('search');
    // Someone edits a price by hand on the platform: the next sync puts the feed's back.
    await scene.editOnPlatform('A-1002', { SalePrice: 899_000 });
  }, 90_000);
  afterAll(async () => {
    await scene?.close();
    if (searchDir) await rm(searchDir, { recursive: true, force: true });
  });

  it('reads without JavaScript; an unknown key says so with a 404; writes nothing', async () => {
    const before = scene.sandbox.stats().requests;
    const page = await fetch(`${scene.ui.url}/feeds/acme/listing?key=A-1002`, { headers: AUTH });
    expect(page.status).toBe(200);
    const text = await page.text();
    for (const part of ['id="verdict"', 'id="source"', 'id="listing"', 'id="platform"', 'id="history"'])
      expect(text).toContain(part);
    const unknown = await fetch(`${scene.ui.url}/feeds/acme/listing?key=NOPE-9`, { headers: AUTH });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('in neither the feed nor the platform');
    const after = scene.sandbox.stats().requests;
    expect({ create: after.create, update: after.update, delete: after.delete }).toEqual({
      create: before.create,
      update: before.update,
      delete: before.delete,
    });
    // One list call for the key the filter finds; the unknown key's adds one unfiltered page of this
    // small chatbot (a platform may filter by the exact text): never a scan of a large chatbot.
    expect(after.list - before.list).toBe(3);
    expect((await fetch(`${scene.ui.url}/feeds/nope/listing?key=A-1`, { headers: AUTH })).status).toBe(404);
  });

  describe.skipIf(!chromiumAvailable)(`in headless Chromium (${CHROMIUM_PATH})`, () => {
    let browser: Browser;
    let page: Page;
    beforeAll(async () => {
      browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: ['--headless', '--no-sandbox'],
      });
      const context = await browser.newContext({ httpCredentials: { username: USER, password: PASSWORD } });
      page = await context.newPage();
    });
    afterAll(async () => browser?.close());

    it('a key in the run’s changes links to its page: source, listing, platform side by side, verdict, history', async () => {
      await page.goto(`${scene.ui.url}/feeds/acme`);
      await page.locator('.changes-table a.key', { hasText: 'A-1002' }).click();
      await page.waitForURL(/\/feeds\/acme\/listing\?key=A-1002$/);
      expect(await page.locator('h1').textContent()).toBe('A-1002');
      // Verdict: the field a sync would write, old → new.
      const verdict = page.locator('#verdict');
      expect(await verdict.locator('.badge').textContent()).toBe('will write');
      expect(await verdict.textContent()).toContain(
        `a sync would update ID ${idOf('A-1002')}: 1 field differs`,
      );
      expect(await verdict.locator('.fields li').first().textContent()).toBe('SalePrice $899,000 → $415,000');
      // Source: the CSV row and its raw cells.
      expect(await page.locator('#source h3').textContent()).toContain('row 6 of acme-listings.csv');
      expect(await page.locator('#source table.raw tr', { hasText: 'List Price' }).textContent()).toContain(
        '"$415,000.00"',
      );
      // Listing: each field, where it came from, the conversion.
      const price = page.locator('#listing tr[data-field="SalePrice"]');
      expect(await price.textContent()).toMatch(
        /SalePrice\s*\$415,000\s*"List Price" "\$415,000\.00" \(money\)\s*config/,
      );
      expect(await page.locator('#listing tr[data-field="Status"]').textContent()).toContain(
        '"Active Under Contract" → Active',
      );
      // Platform: the feed's listing beside the platform's, the differing cell marked.
      const row = page.locator('#platform tr[data-field="SalePrice"]');
      expect(await row.locator('td.differs').textContent()).toBe('$899,000');
      expect(await page.locator('#platform th').nth(2).textContent()).toContain(
        `Platform ID ${idOf('A-1002')}`,
      );
      // History: the run that created it.
      expect(await page.locator('#history table.history tr', { hasText: 'created' }).count()).toBe(1);
    });

    it('a rejected row’s key links to its page: the problem, the hold, why nothing is written', async () => {
      await page.goto(`${scene.ui.url}/feeds/acme`);
      await page.locator('table.rejections a.key', { hasText: 'A-1003' }).click();
      await page.waitForURL(/key=A-1003$/);
      expect(await page.locator('#verdict .badge').textContent()).toBe('nothing written');
      expect(await page.locator('#verdict').textContent()).toContain(
        'held: its last feed record is rejected',
      );
      expect(await page.locator('#listing tr.problem[data-field="Bedrooms"]').textContent()).toContain(
        '✗ Bedrooms "three" is not a number',
      );
      // The held listings table links the same page.
      await page.goto(`${scene.ui.url}/feeds/acme`);
      expect(await page.locator('table.held a.key', { hasText: 'A-1003' }).getAttribute('href')).toBe(
        '/feeds/acme/listing?key=A-1003',
      );
    });

    it('the search box: a key goes straight to its page, part of an address lists the matches', async () => {
      await page.goto(`${scene.ui.url}/feeds/acme`);
      await page.getByRole('searchbox', { name: 'Find a listing of acme' }).fill('A-1005');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.waitForURL(/key=A-1005$/);
      expect(await page.locator('#verdict .badge').textContent()).toBe('in sync');
      await page.goto(`${scene.ui.url}/feeds/acme`);
      await page.getByRole('searchbox').fill('river rd');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.waitForURL(/q=river\+rd$/);
      const hits = page.locator('table.search-results tbody tr');
      expect(await hits.count()).toBe(1);
      expect(await hits.first().textContent()).toMatch(
        /A-1002\s*88 River Rd, Unit 4, Springfield\s*row 6 of acme-listings\.csv/,
      );
      await hits.first().locator('a.key').click();
      await page.waitForURL(/key=A-1002$/);
      // Nothing in the feed: the page offers the key's own page (a listing gone from the feed).
      await page.goto(`${scene.ui.url}/feeds/acme/listing?q=ZZ-9`);
      expect(await page.locator('main').textContent()).toContain('No listing of the feed');
      expect(await page.getByRole('link', { name: 'look up ZZ-9 as a key' }).getAttribute('href')).toBe(
        '/feeds/acme/listing?key=ZZ-9',
      );
    });

    it('the search finds every key the feed page shows: held by a shifted row, in grace, rejected (by its city)', async () => {
      const search = async (feedId: string, text: string) => {
        await page.goto(`${scene.ui.url}/feeds/${feedId}`);
        await page.getByRole('searchbox').fill(text);
        await page.getByRole('button', { name: 'Find' }).click();
      };
      // The feed page lists them: S-103 held, S-105 gone and kept for now.
      await page.goto(`${scene.ui.url}/feeds/search`);
      expect(await page.locator('table.held a.key', { hasText: 'S-103' }).count()).toBe(1);
      expect(await page.locator('table.grace a.key', { hasText: 'S-105' }).count()).toBe(1);
      // Each key the page shows goes straight to its page.
      for (const key of ['S-103', 'S-105', 'S-104']) {
        await search('search', key);
        await page.waitForURL(new RegExp(`/feeds/search/listing\\?key=${key}$`));
        expect(await page.locator('h1').textContent()).toBe(key);
      }
      // Part of a key: every one, with what its record is and what the last run said.
      await search('search', 's-10');
      await page.waitForURL(/q=s-10$/);
      const rows = page.locator('table.search-results tbody tr');
      const text = await rows.allTextContents();
      expect(text.map((t) => t.match(/S-10\d/)?.[0])).toEqual([
        'S-101',
        'S-102',
        'S-104',
        'S-106',
        'S-103',
        'S-105',
      ]);
      expect(await rows.filter({ hasText: 'S-103' }).textContent()).toMatch(
        /S-103\s*row 4 of search\.csv\s*in a broken row\s*held: key appears in the shifted row 4 of search\.csv/,
      );
      expect(await rows.filter({ hasText: 'S-105' }).textContent()).toMatch(
        /S-105\s*not in the feed\s*gone from the feed since .* UTC; deleted from .* UTC/,
      );
      // Part of an address: the rejected row's city, as the mapping read it.
      await search('search', 'springfield');
      const found = page.locator('table.search-results tbody tr');
      expect(await found.count()).toBe(1);
      expect(await found.first().textContent()).toMatch(
        /S-104\s*4 Oak St, Springfield\s*row 5 of search\.csv\s*rejected\s*held: its record was rejected: Row 5 of search\.csv: Bedrooms "three" is not a number/,
      );
      // And acme's rejected rows by their city, beside its listings.
      await search('acme', 'springfield');
      const acme = await page.locator('table.search-results tbody tr').allTextContents();
      expect(acme.some((t) => /A-1003.*rejected/.test(t))).toBe(true);
    });

    it('a key held by a shifted row: its page shows the row as read and why it is broken', async () => {
      await page.goto(`${scene.ui.url}/feeds/search/listing?key=S-103`);
      const source = page.locator('#source');
      expect(await source.locator('p.broken').textContent()).toBe(
        'row 4 of search.csv is broken and its text holds S-103, so it holds the listing: Row 4 of search.csv: has 12 fields, the header has 11 (an unquoted delimiter in a value, or a row cut short?)',
      );
      const cells = await source.locator('table.broken-row tr').allTextContents();
      expect(cells.slice(0, 5)).toEqual([
        'MLS"S-103"',
        'Status"Active"',
        'Type"Condo"',
        'Price"300"',
        'Beds"000"',
      ]);
      expect(cells.at(-1)).toBe('(field 12, beyond the header)"https://search.example/S-103"');
      expect(await page.locator('#listing').textContent()).toContain(
        'None readable: the record is broken (above), so its listing is held as it is on the platform.',
      );
      expect(await page.locator('#verdict .badge').textContent()).toBe('nothing written');
    });
  });
});
