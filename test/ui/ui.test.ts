import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerService, type WorkerService } from '../../jobs/worker-service.ts';
import { silentLogger } from '../../src/logger.ts';
import { enqueueFeedSync } from '../../src/queue/enqueue.ts';
import type { RunFeed } from '../../src/reconcile/index.ts';
import { syncFeed } from '../../src/reconcile/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { listings } from '../../src/testing/listing.ts';
import { recordsFeed } from '../../src/testing/records-feed.ts';
import {
  createMetrics,
  serveUi,
  startStandaloneUi,
  startUi,
  UiExposureError,
  type UiServer,
} from '../../src/ui/index.ts';
import { CHROMIUM_PATH as CHROMIUM, chromiumAvailable, redisAvailable } from '../helpers/services.ts';
import { makeConfig } from '../reconcile/fixtures.ts';
import { cleanupPrefix, REDIS_URL, uniquePrefix, waitFor } from '../worker/helpers.ts';

const AUTH = `Basic ${Buffer.from('operator:s3cret').toString('base64')}`;

let sandbox: Sandbox;
let service: WorkerService;
let ui: UiServer;
const prefix = uniquePrefix();

const sync: RunFeed = (config, feed, deps, options) =>
  syncFeed(config, feed, { ...deps, open: recordsFeed(listings(1, 3)) }, options);

describe.skipIf(!redisAvailable)('queue UI', () => {
  beforeAll(async () => {
    sandbox = await startSandbox();
    const config = makeConfig([{ schedule: { cron: '0 3 * * *', timezone: 'UTC' } }], {
      baseUrl: sandbox.url,
    });
    const metrics = createMetrics();
    service = await startWorkerService({
      config,
      store: { kind: 'redis', url: REDIS_URL },
      prefix,
      logger: silentLogger,
      sync,
      metrics,
    });
    const env = { UI_HOST: '127.0.0.1', UI_PORT: 0, UI_USER: 'operator', UI_PASSWORD: 's3cret' };
    ui = await startUi({ service, env, logger: silentLogger, metrics });
  });

  afterAll(async () => {
    await ui?.close();
    await service?.close();
    await sandbox?.close();
    await cleanupPrefix(prefix);
  });

  describe.skipIf(!redisAvailable)('queue UI over HTTP', () => {
    it('answers 401 without credentials, serves the board with them', async () => {
      const anonymous = await fetch(ui.url);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
      expect(
        (
          await fetch(ui.url, {
            headers: { authorization: `Basic ${Buffer.from('operator:wrong').toString('base64')}` },
          })
        ).status,
      ).toBe(401);
      expect((await fetch(`${ui.url}/metrics`)).status).toBe(401);
      const board = await fetch(`${ui.url}/queues`, { headers: { authorization: AUTH } });
      expect(board.status).toBe(200);
      expect(await board.text()).toContain('<html');
      const dashboard = await fetch(ui.url, { headers: { authorization: AUTH } });
      expect(await dashboard.text()).toContain('<h1>Feeds</h1>');
    });

    it('/healthz is open and says Redis and the worker are up', async () => {
      const response = await fetch(`${ui.url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true, store: true, worker: true, missingSchedulers: [] });
    });

    it('/metrics counts runs by feed and outcome, listings and API calls', async () => {
      await enqueueFeedSync(service.queue, { feedId: 'feed1' });
      await waitFor(async () => (await service.state.getFeed('feed1')).lastReport, 10_000, 'a run');
      const text = await waitFor(async () => {
        const body = await (await fetch(`${ui.url}/metrics`, { headers: { authorization: AUTH } })).text();
        return body.includes('feed_sync_runs_total{') ? body : undefined;
      });
      expect(text).toMatch(/feed_sync_runs_total\{feed="feed1",outcome="ok"\} 1/);
      expect(text).toMatch(/feed_sync_listings_total\{feed="feed1",change="created"\} 3/);
      expect(text).toMatch(/feed_sync_api_calls_total\{operation="create"\} 3/);
      expect(text).toMatch(/feed_sync_run_duration_seconds_count\{feed="feed1"\} 1/);
      // Where its time went, a phase a series.
      for (const phase of ['feed', 'pages', 'plan', 'writes'])
        expect(text).toMatch(
          new RegExp(`feed_sync_run_phase_seconds_count\\{feed="feed1",phase="${phase}"\\} 1`),
        );
      expect(text).toMatch(/feed_sync_jobs\{state="completed"\}/);
    });

    it('feed-sync ui on its own serves the dashboard from the same Redis: the feeds and their last run', async () => {
      await waitFor(async () => (await service.state.getFeed('feed1')).lastReport, 10_000, 'a run');
      const standalone = await startStandaloneUi({
        store: { kind: 'redis', url: REDIS_URL },
        prefix,
        config: service.config(),
        env: { UI_HOST: '127.0.0.1', UI_PORT: 0, UI_USER: 'operator', UI_PASSWORD: 's3cret' },
        logger: silentLogger,
      });
      try {
        const page = await (await fetch(standalone.url, { headers: { authorization: AUTH } })).text();
        expect(page).toContain('data-feed-row="feed1"');
        expect(page).toMatch(/badge-ok">ok</);
        const feedPage = await fetch(`${standalone.url}/feeds/feed1`, { headers: { authorization: AUTH } });
        expect(feedPage.status).toBe(200);
        expect(await feedPage.text()).toContain('Last runs');
      } finally {
        await standalone.close();
      }
    });

    it('refuses a non-loopback address without credentials; read-only on loopback', async () => {
      const base = {
        queue: service.queue,
        port: 0,
        health: async () => ({ ok: true }),
        registry: createMetrics().registry,
        logger: silentLogger,
      };
      await expect(serveUi({ ...base, host: '0.0.0.0' })).rejects.toBeInstanceOf(UiExposureError);
      const readOnly = await serveUi({
        ...base,
        host: '127.0.0.1',
        dashboard: { state: service.state, getConfig: () => service.config() },
      });
      try {
        // The dashboard reads, and offers no action.
        const home = await (await fetch(readOnly.url)).text();
        expect(home).toContain('data-feed-row="feed1"');
        expect(home).toContain('read-only');
        expect(home).not.toContain('Run now');
        const run = await fetch(`${readOnly.url}/feeds/feed1/run`, { method: 'POST' });
        expect(run.status).toBe(403);
        const added = await fetch(`${readOnly.url}/queues/api/queues/feed-sync/add`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'sync-feed', data: { feedId: 'feed1' } }),
        });
        expect(added.status).toBeGreaterThanOrEqual(400);
        // A second UI on its port (a second worker with the same UI_PORT) is told what to do.
        const port = Number(new URL(readOnly.url).port);
        const second = serveUi({ ...base, host: '127.0.0.1', port });
        await expect(second).rejects.toMatchObject({
          code: 'EADDRINUSE',
          message: expect.stringMatching(
            new RegExp(
              `^127\\.0\\.0\\.1:${port} is taken by another process \\(EADDRINUSE\\): give each process on this host its own port`,
            ),
          ),
        });
      } finally {
        await readOnly.close();
      }
    });
  });

  describe.skipIf(!redisAvailable || !chromiumAvailable)(
    `queue UI in headless Chromium (${CHROMIUM}; skipped when missing)`,
    () => {
      let browser: Browser;
      beforeAll(async () => {
        browser = await chromium.launch({
          executablePath: CHROMIUM,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        });
      });
      afterAll(async () => browser?.close());

      it('without credentials the browser gets 401', async () => {
        const page = await browser.newPage();
        const statuses: number[] = [];
        page.on('response', (response) => statuses.push(response.status()));
        // With no credentials to answer the challenge, headless Chromium ends the navigation on the 401.
        await expect(page.goto(ui.url)).rejects.toThrow(/ERR_INVALID_AUTH_CREDENTIALS/);
        expect(statuses).toEqual([401]);
        await page.close();
      });

      it("an operator starts a feed's sync from the scheduler and sees the job complete with its report", async () => {
        const context = await browser.newContext({
          httpCredentials: { username: 'operator', password: 's3cret' },
        });
        const page = await context.newPage();
        await page.goto(`${ui.url}/queues`);
        await page.getByText('Schedulers').first().click();
        await page.getByText('sync-feed:feed1').waitFor();
        const before = (await service.queue.getJobs(['completed'])).length;
        await page.getByRole('button', { name: 'Run now' }).click();
        await page.getByRole('button', { name: 'Confirm' }).click();
        await waitFor(
          async () => (await service.queue.getJobs(['completed'])).length >= before + 2,
          10_000,
          'the run to complete',
        );
        await page.goto(`${ui.url}/queues/queue/feed-sync?status=completed`);
        const body = page.locator('body');
        await body.getByText('dedup sync-feed:feed1').first().waitFor();
        const text = (await body.textContent()) ?? '';
        expect(text).toContain('outcome:"ok"');
        expect(text).toContain('feedId:"feed1"');
        await context.close();
      });
    },
  );
});
