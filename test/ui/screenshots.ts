/**
 * Takes the dashboard screenshots in docs/img/ (not a test): `npx node test/ui/screenshots.ts`.
 * Needs Redis on 127.0.0.1:6379 and Chromium. The scene is the browser test's, lived in a little:
 * every fixture feed has run, one feed's file has gone missing, one listing was edited by hand.
 */
import { mkdir } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '../helpers/services.ts';
import { BROKEN_FEED, PASSWORD, startDashboardScene, USER } from './dashboard-scene.ts';

const OUT = new URL('../../docs/img/', import.meta.url);
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
  await context.close();
} finally {
  await browser.close();
  await scene.close();
}
