/**
 * Takes the dashboard screenshots in docs/img/ (not a test): `npx node test/ui/screenshots.ts`.
 * Needs Redis on 127.0.0.1:6379 and Chromium. The scene is the browser test's, lived in a little:
 * every fixture feed has run, one feed's file has gone missing, one listing was edited by hand.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { parseConfig } from '../../src/config/load.ts';
import { CHROMIUM_PATH } from '../helpers/services.ts';
import { BROKEN_FEED, PASSWORD, startDashboardScene, USER } from './dashboard-scene.ts';

const OUT = new URL('../../docs/img/', import.meta.url);
const DEMO = new URL('../../fixtures/demo', import.meta.url).pathname;
const scene = await startDashboardScene([BROKEN_FEED]);
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: ['--headless', '--no-sandbox'],
});
try {
  for (const feed of scene.config.feeds) await scene.runFeed(feed.id);
  await scene.editOnPlatform('A-1002', { SalePrice: 899_000, Bedrooms: 2 });
  await scene.runFeed('acme');
  // Edited by hand again after that run: its listing page shows what the next sync writes back.
  await scene.editOnPlatform('A-1002', { SalePrice: 899_000 });
  await mkdir(OUT, { recursive: true });
  const context = await browser.newContext({
    httpCredentials: { username: USER, password: PASSWORD },
    viewport: { width: 1360, height: 900 },
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  await page.goto(scene.ui.url);
  await page.screenshot({ path: new URL('dashboard-feeds.png', OUT).pathname, fullPage: true });
  await page.goto(`${scene.ui.url}/feeds/acme`);
  await page.screenshot({ path: new URL('dashboard-feed.png', OUT).pathname, fullPage: true });
  await page.goto(`${scene.ui.url}/chatbots`);
  await page.screenshot({ path: new URL('dashboard-chatbots.png', OUT).pathname });
  await page.goto(`${scene.ui.url}/feeds/coastal-mls`);
  await page.screenshot({ path: new URL('dashboard-feed-failed.png', OUT).pathname });
  // The fix: the feed's new export location goes into the config; the worker reloads it.
  // (Here: the demo's harbor-homes export and mapping stand in for the coastal MLS's new export.)
  const demo = parseConfig(readFileSync(`${DEMO}/feed-sync.yaml`, 'utf8'), { baseDir: DEMO });
  const harbor = demo.feeds.find((f) => f.id === 'harbor-homes');
  if (!harbor) throw new Error('no harbor-homes feed in the demo config');
  const fixed = {
    ...scene.config,
    feeds: scene.config.feeds.map((f) =>
      f.id === 'coastal-mls' ? { ...f, source: harbor.source, mapping: harbor.mapping } : f,
    ),
  };
  // The worker runs a feed whose source changed at once, with trigger `config`: no Run now needed.
  await scene.service.applyConfig(fixed);
  const ran = async () => {
    const last = (await scene.service.state.getFeed('coastal-mls')).lastReport as
      | { trigger?: string }
      | undefined;
    return last?.trigger === 'config';
  };
  for (let i = 0; i < 200 && !(await ran()); i++) await new Promise((r) => setTimeout(r, 100));
  await page.goto(`${scene.ui.url}/feeds/coastal-mls`);
  await page
    .locator('#run-detail .badge', { hasText: /^(ok|partial)$/ })
    .waitFor({ timeout: 20_000 })
    .catch(async (error) => {
      console.error((await scene.service.state.getFeed('coastal-mls')).lastReport);
      throw error;
    });
  await page.screenshot({ path: new URL('dashboard-feed-fixed.png', OUT).pathname });
  // Issue 22: "why does this listing look like that?" An agent says 88 River Rd shows the wrong
  // price; the operator finds it from the feed page's search box and opens its page.
  await page.goto(`${scene.ui.url}/feeds/acme`);
  await page.getByRole('searchbox').fill('river rd');
  await page.getByRole('button', { name: 'Find' }).click();
  await page.locator('table.search-results').waitFor();
  await page.screenshot({ path: new URL('dashboard-search.png', OUT).pathname });
  await page.goto(`${scene.ui.url}/feeds/acme/listing?key=A-1002`);
  await page.screenshot({ path: new URL('dashboard-listing.png', OUT).pathname, fullPage: true });
  await page.goto(`${scene.ui.url}/feeds/acme/listing?key=A-1003`);
  await page.screenshot({ path: new URL('dashboard-listing-held.png', OUT).pathname, fullPage: true });
  await context.close();
} finally {
  await browser.close();
  await scene.close();
}
