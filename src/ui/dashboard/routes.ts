import type { Queue } from 'bullmq';
import express, { type Request, type Response, type Router } from 'express';
import type { Config } from '../../config/index.ts';
import { enqueueFeedSync, enqueueSettingsPush } from '../../queue/index.ts';
import type { RunReport } from '../../reconcile/index.ts';
import type { StateStore } from '../../state/index.ts';
import { CSS, JS } from './assets.ts';
import { chatbotsPage } from './chatbots-page.ts';
import { lastPushes, liveRuns, pendingPushes } from './data.ts';
import { feedPage } from './feed-page.ts';
import { type SortKey, sortSummaries, summarizeFeed } from './feed-summary.ts';
import { feedsPage, liveText } from './feeds-page.ts';
import { html, page } from './html.ts';
import { LISTING_CSS } from './listing-page.ts';
import { defaultExplainer, type ListingExplainer, listingRoutes } from './listing-routes.ts';
import { rejectionsCsv } from './rejections-csv.ts';

export interface DashboardOptions {
  queue: Queue;
  state: StateStore;
  /** The running config (the worker's, reloaded on change); undefined when the UI runs without one. */
  getConfig(): Config | undefined;
  /** Without credentials the dashboard only reads: no Run now, no Push now. */
  readOnly: boolean;
  /** Runs listed on a feed page. Default 20. */
  runsShown?: number;
  /** How a listing's page is explained (issue 22). Default: read live, from the running config. */
  explainer?: ListingExplainer;
  now?: () => Date;
}

const SORT_KEYS: readonly SortKey[] = ['id', 'chatbot', 'outcome', 'last', 'next', 'rejected'];

/** A POST from another site would ride on the browser's basic-auth credentials: refused. */
function crossSite(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return true;
  const origin = req.get('origin');
  return Boolean(origin && origin !== 'null' && new URL(origin).host !== req.get('host'));
}

const wantsJson = (req: Request) => (req.get('accept') ?? '').includes('application/json');

/**
 * The feed dashboard at `/`: feeds, one feed's runs, chatbots; Run now and Push now. Reads run
 * history from the state store and live progress from BullMQ, never from logs.
 */
export function dashboardRouter(options: DashboardOptions): Router {
  const router = express.Router();
  const now = options.now ?? (() => new Date());
  const runsShown = options.runsShown ?? 20;
  const feedsOf = () => options.getConfig()?.feeds ?? [];
  const send = (res: Response, title: string, section: 'feeds' | 'chatbots', body: ReturnType<typeof html>) =>
    res.type('html').send(page({ title, section, body, readOnly: options.readOnly }));
  const lastReport = async (feedId: string) =>
    (await options.state.getFeed(feedId)).lastReport as RunReport | undefined;

  router.use(express.urlencoded({ extended: false, limit: '10kb' }));
  router.get('/assets/dashboard.css', (_req, res) => {
    res
      .type('css')
      .set('cache-control', 'no-cache')
      .send(CSS + LISTING_CSS);
  });
  router.get('/assets/dashboard.js', (_req, res) => {
    res.type('js').set('cache-control', 'no-cache').send(JS);
  });

  router.get('/', async (req, res) => {
    const at = now();
    const rows = await Promise.all(feedsOf().map(async (f) => summarizeFeed(f, await lastReport(f.id), at)));
    const sort = SORT_KEYS.includes(req.query.sort as SortKey) ? (req.query.sort as SortKey) : 'id';
    const descending = req.query.dir === 'desc';
    const outcome = typeof req.query.outcome === 'string' ? req.query.outcome : undefined;
    const view = {
      rows: sortSummaries(rows, sort, descending),
      sort,
      descending,
      live: await liveRuns(options.queue),
    };
    send(
      res,
      'Feeds',
      'feeds',
      feedsPage({ ...view, ...(outcome ? { outcome } : {}), readOnly: options.readOnly, now: at }),
    );
  });

  router.get('/feeds/:id', async (req, res) => {
    const feed = feedsOf().find((f) => f.id === req.params.id);
    if (!feed) return void notFound(res, `no feed "${req.params.id}" in the config`);
    const at = now();
    const runs = (await options.state.listRuns(feed.id, runsShown)) as RunReport[];
    const selected =
      req.query.run === undefined
        ? latestCompared(runs)
        : Math.min(Math.max(Number(req.query.run) || 0, 0), Math.max(runs.length - 1, 0));
    const live = (await liveRuns(options.queue)).get(feed.id);
    const summary = summarizeFeed(feed, await lastReport(feed.id), at);
    send(
      res,
      feed.id,
      'feeds',
      feedPage({ summary, runs, selected, ...(live ? { live } : {}), readOnly: options.readOnly, now: at }),
    );
  });

  listingRoutes(router, {
    getConfig: options.getConfig,
    explainer: options.explainer ?? defaultExplainer(options.state),
    send: (res, title, body) => send(res, title, 'feeds', body),
    notFound,
  });

  router.get('/feeds/:id/runs/:index/rejections.csv', async (req, res) => {
    const feed = feedsOf().find((f) => f.id === req.params.id);
    const runs = feed ? ((await options.state.listRuns(feed.id, runsShown)) as RunReport[]) : [];
    const run = runs[Number(req.params.index)];
    if (!feed || !run) return void notFound(res, 'no such feed or run');
    const name = `${feed.id}-${run.startedAt.replace(/[:.]/g, '-')}-rejections.csv`;
    res.type('text/csv').attachment(name).send(rejectionsCsv(run.rejections));
  });

  router.get('/feeds/:id/status', async (req, res) => {
    const feed = feedsOf().find((f) => f.id === req.params.id);
    if (!feed) return void res.status(404).json({ error: `no feed "${req.params.id}" in the config` });
    const live = (await liveRuns(options.queue)).get(feed.id);
    const last = await lastReport(feed.id);
    res.json({
      feedId: feed.id,
      running: live ? { ...live, text: liveText(live) } : null,
      last: last ? { startedAt: last.startedAt, outcome: last.outcome } : null,
    });
  });

  router.post('/feeds/:id/run', async (req, res) => {
    const feed = feedsOf().find((f) => f.id === req.params.id);
    // Unknown ids never reach the queue: a typo is a 404, not a green job that did nothing.
    if (!feed) return void notFound(res, `no feed "${req.params.id}" in the config`);
    if (options.readOnly)
      return void res.status(403).send('read-only: set UI_USER and UI_PASSWORD to run feeds');
    if (crossSite(req)) return void res.status(403).send('cross-site request refused');
    const body = (req.body ?? {}) as Record<string, string>;
    const allowMassDelete = body.allowMassDelete === '1';
    const last = await lastReport(feed.id);
    if ((allowMassDelete || last?.outcome === 'guarded') && body.confirm !== '1')
      return void send(res, feed.id, 'feeds', confirmPage(feed.id, allowMassDelete));
    // A full compare: Run now must not end `skipped` because the feed file did not change.
    const jobId = await enqueueFeedSync(options.queue, {
      feedId: feed.id,
      trigger: 'manual',
      forceFull: true,
      ...(allowMassDelete ? { allowMassDelete } : {}),
    });
    if (wantsJson(req)) return void res.status(202).json({ feedId: feed.id, jobId });
    res.redirect(303, `/feeds/${encodeURIComponent(feed.id)}`);
  });

  router.get('/chatbots', async (_req, res) => {
    const config = options.getConfig();
    const feeds = new Map<string, string[]>();
    for (const f of config?.feeds ?? []) feeds.set(f.chatbot, [...(feeds.get(f.chatbot) ?? []), f.id]);
    const view = {
      chatbots: config?.chatbots ?? [],
      feeds,
      lastPush: await lastPushes(options.queue),
      pending: await pendingPushes(options.queue),
      readOnly: options.readOnly,
      now: now(),
    };
    send(res, 'Chatbots', 'chatbots', chatbotsPage(view));
  });

  router.post('/chatbots/:chatbot/push', async (req, res) => {
    const chatbot = options.getConfig()?.chatbots.find((c) => c.chatbot === req.params.chatbot);
    if (!chatbot?.settings)
      return void notFound(res, `no chatbot "${req.params.chatbot}" with settings in the config`);
    if (options.readOnly)
      return void res.status(403).send('read-only: set UI_USER and UI_PASSWORD to push settings');
    if (crossSite(req)) return void res.status(403).send('cross-site request refused');
    const jobId = await enqueueSettingsPush(options.queue, {
      chatbot: chatbot.chatbot,
      trigger: 'manual',
      force: true,
    });
    if (wantsJson(req)) return void res.status(202).json({ chatbot: chatbot.chatbot, jobId });
    res.redirect(303, '/chatbots');
  });

  return router;
}

function notFound(res: Response, message: string): void {
  res.status(404).type('text/plain').send(message);
}

/** Without JavaScript, the confirmation is a page with the same form and `confirm=1`. */
function confirmPage(feedId: string, allowMassDelete: boolean) {
  const question = allowMassDelete
    ? `Run ${feedId} now and let it delete the listings its delete guard held back?`
    : `The last run of ${feedId} tripped a delete guard. Run it again now? Deletes stay held unless you allow them.`;
  return html`<h1>Confirm</h1><p>${question}</p>
<form method="post" action="/feeds/${encodeURIComponent(feedId)}/run"><input type="hidden" name="confirm" value="1">${
    allowMassDelete ? html`<input type="hidden" name="allowMassDelete" value="1">` : ''
  }<button type="submit"${allowMassDelete ? html` class="danger"` : ''}>Yes, run now</button> <a href="/feeds/${encodeURIComponent(feedId)}">Cancel</a></form>`;
}

/**
 * The run a feed page shows first: the newest that compared the feed with the platform. A skipped
 * run (the feed had not changed) has counts only; the held listings, the grace and the changes are
 * those of the last run that looked.
 */
export function latestCompared(runs: readonly { outcome: string }[]): number {
  const at = runs.findIndex((run) => run.outcome !== 'skipped');
  return at === -1 ? 0 : at;
}
