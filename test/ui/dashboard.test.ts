import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/reconcile/report-types.ts';
import { FIXTURE_FEED_IDS } from '../helpers/fixture-feeds.ts';
import { CHROMIUM_PATH, chromiumAvailable, redisAvailable } from '../helpers/services.ts';
import { fakeReport } from '../worker/helpers.ts';
import { type DashboardScene, PASSWORD, startDashboardScene, USER } from './dashboard-scene.ts';

/** A run that tripped the delete guard, as the sync reports one. */
function fakeGuardedReport(feedId: string): RunReport {
  const guard = {
    guard: 'max-delete-share' as const,
    tripped: true,
    message: 'deleting 9 of 10 owned listings (90%; limit 20%)',
  };
  const base = fakeReport(feedId, { chatbot: 'FIXTURES', created: 0, guards: [guard], heldDeletes: 9 });
  return { ...base, outcome: 'guarded', reason: 'a delete guard tripped' };
}

const AUTH = { authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}` };

let scene: DashboardScene;

describe.skipIf(!redisAvailable)('the feed dashboard', () => {
  beforeAll(async () => {
    scene = await startDashboardScene();
  }, 30_000);
  afterAll(async () => scene?.close());

  it('Run now on an unknown feed id answers 404 and queues nothing', async () => {
    const before = await scene.service.queue.getJobCountByTypes('waiting', 'active', 'completed', 'failed');
    const response = await fetch(`${scene.ui.url}/feeds/no-such-feed/run`, {
      method: 'POST',
      headers: { ...AUTH, accept: 'application/json' },
    });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('no feed "no-such-feed" in the config');
    expect(await scene.service.queue.getJobCountByTypes('waiting', 'active', 'completed', 'failed')).toBe(
      before,
    );
    expect((await fetch(`${scene.ui.url}/feeds/no-such-feed`, { headers: AUTH })).status).toBe(404);
  });

  it('Run now without JavaScript: the form post queues a full compare and redirects to the feed page', async () => {
    const response = await fetch(`${scene.ui.url}/feeds/zillow/run`, {
      method: 'POST',
      headers: AUTH,
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/feeds/zillow');
    const jobs = await scene.service.queue.getJobs(['waiting', 'active', 'completed', 'failed']);
    expect(
      jobs.some(
        (j) => j.data.feedId === 'zillow' && j.data.forceFull === true && j.data.trigger === 'manual',
      ),
    ).toBe(true);
  });

  it('Run now refuses a cross-site form post, which would ride on the browser credentials', async () => {
    const response = await fetch(`${scene.ui.url}/feeds/acme/run`, {
      method: 'POST',
      headers: { ...AUTH, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(response.status).toBe(403);
  });

  describe.skipIf(!chromiumAvailable)(`in headless Chromium (${CHROMIUM_PATH})`, () => {
    let browser: Browser;
    let page: Page;
    beforeAll(async () => {
      browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
        ],
      });
      const context = await browser.newContext({ httpCredentials: { username: USER, password: PASSWORD } });
      page = await context.newPage();
    });
    afterAll(async () => browser?.close());

    it('the feeds table shows every fixture feed with its schedule', async () => {
      await page.goto(scene.ui.url);
      for (const id of FIXTURE_FEED_IDS) {
        await expect(page.locator(`tr[data-feed-row="${id}"] .feed-id`).textContent()).resolves.toBe(id);
      }
      expect(await page.locator('tr[data-feed-row]').count()).toBe(FIXTURE_FEED_IDS.length);
      const acme = page.locator('tr[data-feed-row="acme"]');
      expect(await acme.textContent()).toMatch(/every 2 hours at :00\s*next .*America\/New_York/);
      expect(await acme.locator('.badge').textContent()).toBe('never run');
    });

    it('Run now on one feed shows its progress, then its result in place, without leaving the page', async () => {
      await page.goto(scene.ui.url);
      const row = page.locator('tr[data-feed-row="acme"]');
      // A slow platform, so the run is seen on its way.
      scene.sandbox.configure({ latencyMs: 1500 });
      await row.getByRole('button', { name: 'Run now' }).click();
      await page
        .locator('[data-progress="acme"]', {
          hasText: /^(queued…|(fetching|normalizing|snapshot|planning|applying) \d+%.*)$/,
        })
        .waitFor({ timeout: 10_000 });
      await page
        .locator('[data-progress="acme"]', { hasText: /(snapshot|planning|applying) \d+%/ })
        .waitFor({ timeout: 10_000 });
      scene.sandbox.configure({ latencyMs: 0 });
      // The row is replaced in place when the run ends: acme has rejected rows, so `partial`.
      await page
        .locator('tr[data-feed-row="acme"] .badge', { hasText: 'partial' })
        .waitFor({ timeout: 20_000 });
      expect(page.url()).toBe(`${scene.ui.url}/`);
      const text = (await page.locator('tr[data-feed-row="acme"]').textContent()) ?? '';
      expect(text).toMatch(/just now/);
      // A-1001, A-1002, A-1005 and the land lot A-1007 (its missing year and DOM: the unknown marker).
      expect(text).toContain('+4');
      const last = (await scene.service.state.getFeed('acme')).lastReport as {
        trigger?: string;
        created?: number;
      };
      expect(last).toMatchObject({ trigger: 'manual', created: 4 });
    });

    it('the feed page shows a changed field old → new and a rejected row with its reason', async () => {
      // Someone edits a listing's price by hand on the platform; the next run puts the feed's back.
      await scene.editOnPlatform('A-1002', { SalePrice: 899_000 });
      await page.goto(`${scene.ui.url}/feeds/acme`);
      await page.locator('.title-row').getByRole('button', { name: 'Run now' }).click();
      const change = page.locator('.changes-table tr', { hasText: 'A-1002' });
      await change.waitFor({ timeout: 20_000 });
      expect(await change.locator('.fields li').first().textContent()).toBe('SalePrice $899,000 → $415,000');
      const rejected = page.locator('table.rejections tr', { hasText: 'A-1003' });
      expect(await rejected.textContent()).toMatch(
        /8\s*A-1003\s*Bedrooms\s*"three"\s*Row 8 of acme-listings\.csv: Bedrooms "three" is not a number/,
      );
      // The run list: two runs, the newest selected, both started by hand.
      expect(await page.locator('table.runs tbody tr').count()).toBe(2);
      expect(await page.locator('table.runs tbody tr').first().textContent()).toContain('manual');
      // The rejections download as CSV.
      const csvUrl = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
      const csv = await (await fetch(`${scene.ui.url}${csvUrl}`, { headers: AUTH })).text();
      expect(csv.split('\r\n')[0]).toBe('row,key,field,value,reason,message');
      expect(csv).toContain(
        '8,A-1003,Bedrooms,three,not_a_number,"Row 8 of acme-listings.csv: Bedrooms ""three"" is not a number"',
      );
    });

    it('Run now asks first when the last run tripped the delete guard; without JS too', async () => {
      const guarded = fakeGuardedReport('listhub');
      await scene.service.state.recordRun('listhub', guarded);
      const runsOf = async () =>
        (await scene.service.queue.getJobs(['waiting', 'active', 'completed', 'failed'])).filter(
          (j) => j.data.feedId === 'listhub' && j.data.trigger === 'manual',
        ).length;
      await page.goto(scene.ui.url);
      const row = page.locator('tr[data-feed-row="listhub"]');
      expect(await row.locator('.badge').textContent()).toBe('guard tripped');
      expect(await row.getAttribute('class')).toContain('attention');
      const dialogs: string[] = [];
      page.once('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await row.getByRole('button', { name: 'Run now' }).click();
      await expect.poll(() => dialogs.length).toBe(1);
      expect(dialogs[0]).toContain('tripped a delete guard');
      expect(await runsOf()).toBe(0);
      // Without JavaScript the form post answers with a confirmation page, and queues nothing.
      const plain = await fetch(`${scene.ui.url}/feeds/listhub/run`, { method: 'POST', headers: AUTH });
      expect(plain.status).toBe(200);
      expect(await plain.text()).toContain('Yes, run now');
      expect(await runsOf()).toBe(0);
      page.once('dialog', (dialog) => void dialog.accept());
      await row.getByRole('button', { name: 'Run now' }).click();
      await page
        .locator('tr[data-feed-row="listhub"] .badge', { hasText: 'ok' })
        .waitFor({ timeout: 20_000 });
      expect(await runsOf()).toBe(1);
    });

    it('the deletes button allows the held deletes of that run only: its digest in the job, a forged value refused', async () => {
      const digest = 'b'.repeat(64);
      const guarded = Object.assign(fakeGuardedReport('listhub'), { heldDeletesDigest: digest });
      await scene.service.state.recordRun('listhub', guarded);
      const form = new URLSearchParams({ confirm: '1', allowDeletes: `${digest}:9` });
      const post = (body: URLSearchParams) =>
        fetch(`${scene.ui.url}/feeds/listhub/run`, {
          method: 'POST',
          headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' },
          body,
          redirect: 'manual',
        });
      expect((await post(new URLSearchParams({ confirm: '1', allowDeletes: 'all' }))).status).toBe(400);
      expect((await post(form)).status).toBe(303);
      const jobs = (await scene.service.queue.getJobs(['waiting', 'active', 'completed', 'failed'])).filter(
        (j) => j.data.feedId === 'listhub' && j.data.allowDeletes !== undefined,
      );
      expect(jobs.map((j) => j.data.allowDeletes)).toEqual([{ digest, count: 9 }]);
      expect(jobs[0]?.data.allowMassDelete).toBeUndefined();
    });

    it('filters the table by outcome and sorts it', async () => {
      await page.goto(`${scene.ui.url}/?outcome=partial`);
      expect(await page.locator('tr[data-feed-row] .feed-id').allTextContents()).toEqual(['acme']);
      await page.goto(`${scene.ui.url}/?sort=id&dir=desc`);
      const ids = await page.locator('tr[data-feed-row] .feed-id').allTextContents();
      expect(ids).toEqual([...FIXTURE_FEED_IDS].sort().reverse());
    });

    it('the feed page shows listings gone in grace, when they go, and why a listing is held', async () => {
      const report = fakeReport('kyero', {
        chatbot: 'FIXTURES',
        created: 0,
        inGrace: 1,
        graceKeys: [
          {
            key: 'KY-77',
            id: 41,
            reason: 'gone',
            since: '2026-11-20T06:00:00.000Z',
            until: '2026-11-23T06:00:00.000Z',
            action: 'markSold',
          },
        ],
        held: 1,
        heldKeys: [
          {
            key: 'KY-12',
            index: 11,
            row: 812,
            reason: 'in_broken_row',
            message: 'key appears in the shifted row 812 of kyero.xml',
            ids: [7],
          },
        ],
      });
      await scene.service.state.recordRun('kyero', report);
      await page.goto(`${scene.ui.url}/feeds/kyero`);
      const grace = page.locator('table.grace tr', { hasText: 'KY-77' });
      expect(await grace.textContent()).toMatch(
        /KY-77\s*41\s*2026-11-20 06:00 UTC\s*Sold\s*2026-11-23 06:00 UTC/,
      );
      const held = page.locator('table.held tr', { hasText: 'KY-12' });
      expect(await held.textContent()).toMatch(
        /812\s*KY-12\s*held: key appears in the shifted row 812 of kyero\.xml/,
      );
    });

    it('Chatbots: the settings in the config, the last push, Push now', async () => {
      await page.goto(`${scene.ui.url}/chatbots`);
      const row = page.locator('table.chatbots tbody tr').first();
      expect(await row.textContent()).toContain('Name, ChatBubbleColor');
      await page.getByRole('button', { name: 'Push now' }).click();
      await expect
        .poll(async () =>
          (await scene.service.queue.getJobs(['waiting', 'active', 'completed'])).some(
            (j) => j.name === 'push-settings' && j.data.trigger === 'manual' && j.data.force === true,
          ),
        )
        .toBe(true);
      await expect
        .poll(
          async () => {
            await page.goto(`${scene.ui.url}/chatbots`);
            return page.locator('table.chatbots tbody tr').first().textContent();
          },
          { timeout: 15_000 },
        )
        .toMatch(/pushed.*ChatBubbleColor, Name/);
    });
  });
});
