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

describe.skipIf(!redisAvailable)('the listing page', () => {
  beforeAll(async () => {
    scene = await startDashboardScene();
    await scene.runFeed('acme');
    // Someone edits a price by hand on the platform: the next sync puts the feed's back.
    await scene.editOnPlatform('A-1002', { SalePrice: 899_000 });
  }, 60_000);
  afterAll(async () => scene?.close());

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
    // One list call a page, filtered by the key: never a scan of the chatbot.
    expect(after.list - before.list).toBe(2);
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
  });
});
