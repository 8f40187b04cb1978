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
  await scene.service.applyConfig(fixed);
  await page.goto(`${scene.ui.url}/feeds/coastal-mls`);
  await page.locator('.title-row').getByRole('button', { name: 'Run now' }).click();
  await page
    .locator('#run-detail .badge', { hasText: /^(ok|partial)$/ })
    .waitFor({ timeout: 20_000 })
    .catch(async (error) => {
      console.error((await scene.service.state.getFeed('coastal-mls')).lastReport);
      throw error;
    });
  await page.screenshot({ path: new URL('dashboard-feed-fixed.png', OUT).pathname });
  await context.close();
} finally {
  await browser.close();
  await scene.close();
}
