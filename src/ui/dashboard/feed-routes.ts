import type { Request, Response, Router } from 'express';
import { enqueueFeedSync } from '../../queue/index.ts';
import type { RunReport } from '../../reconcile/index.ts';
import { liveRuns } from './data.ts';
import { feedPage } from './feed-page.ts';
import { type SortKey, sortSummaries, summarizeFeed } from './feed-summary.ts';
import { feedsPage, liveText } from './feeds-page.ts';
import { html } from './html.ts';
import { rejectionsCsv } from './rejections-csv.ts';
import { crossSite, type DashboardContext, notFound, wantsJson } from './route-context.ts';

const SORT_KEYS: readonly SortKey[] = ['id', 'chatbot', 'outcome', 'last', 'next', 'rejected'];

/** The feeds page, one feed's page and its live status, a run's rejections as CSV, and Run now. */
export function feedRoutes(router: Router, ctx: DashboardContext): void {
  router.get('/', (req, res) => showFeeds(ctx, req, res));
  router.get('/feeds/:id', (req, res) => showFeed(ctx, req, res));
  router.get('/feeds/:id/runs/:index/rejections.csv', (req, res) => sendRejections(ctx, req, res));
  router.get('/feeds/:id/status', (req, res) => sendStatus(ctx, req, res));
  router.post('/feeds/:id/run', (req, res) => runNow(ctx, req, res));
}

/** The feeds page: every feed's last run, sorted and filtered as the query asks, and the live runs. */
async function showFeeds(ctx: DashboardContext, req: Request, res: Response): Promise<void> {
  const at = ctx.now();
  const rows = await Promise.all(
    ctx.feedsOf().map(async (f) => summarizeFeed(f, await ctx.feedRow(f.id), at)),
  );
  const sort = SORT_KEYS.includes(req.query.sort as SortKey) ? (req.query.sort as SortKey) : 'id';
  const descending = req.query.dir === 'desc';
  const outcome = typeof req.query.outcome === 'string' ? req.query.outcome : undefined;
  const view = {
    rows: sortSummaries(rows, sort, descending),
    sort,
    descending,
    live: await liveRuns(ctx.queue),
  };
  ctx.send(
    res,
    'Feeds',
    'feeds',
    feedsPage({ ...view, ...(outcome ? { outcome } : {}), readOnly: ctx.readOnly, now: at }),
  );
}

/** One feed's page: its runs, the last that compared shown first unless `run` picks another. */
async function showFeed(ctx: DashboardContext, req: Request, res: Response): Promise<void> {
  const feed = ctx.feedsOf().find((f) => f.id === req.params.id);
  if (!feed) return void notFound(res, `no feed "${req.params.id}" in the config`);
  const at = ctx.now();
  const runs = (await ctx.state.listRuns(feed.id, ctx.runsShown)) as RunReport[];
  const selected =
    req.query.run === undefined
      ? latestCompared(runs)
      : Math.min(Math.max(Number(req.query.run) || 0, 0), Math.max(runs.length - 1, 0));
  const live = (await liveRuns(ctx.queue)).get(feed.id);
  const summary = summarizeFeed(feed, await ctx.feedRow(feed.id), at);
  ctx.send(
    res,
    feed.id,
    'feeds',
    feedPage({ summary, runs, selected, ...(live ? { live } : {}), readOnly: ctx.readOnly, now: at }),
  );
}

/** One run's rejections as a CSV file. */
async function sendRejections(ctx: DashboardContext, req: Request, res: Response): Promise<void> {
  const feed = ctx.feedsOf().find((f) => f.id === req.params.id);
  const runs = feed ? ((await ctx.state.listRuns(feed.id, ctx.runsShown)) as RunReport[]) : [];
  const run = runs[Number(req.params.index)];
  if (!feed || !run) return void notFound(res, 'no such feed or run');
  const name = `${feed.id}-${run.startedAt.replace(/[:.]/g, '-')}-rejections.csv`;
  res.type('text/csv').attachment(name).send(rejectionsCsv(run.rejections));
}

/** The feed's live run and last outcome as JSON, for the page's script. */
async function sendStatus(ctx: DashboardContext, req: Request, res: Response): Promise<void> {
  const feed = ctx.feedsOf().find((f) => f.id === req.params.id);
  if (!feed) return void res.status(404).json({ error: `no feed "${req.params.id}" in the config` });
  const live = (await liveRuns(ctx.queue)).get(feed.id);
  const last = await ctx.lastReport(feed.id);
  res.json({
    feedId: feed.id,
    running: live ? { ...live, text: liveText(live) } : null,
    last: last ? { startedAt: last.startedAt, outcome: last.outcome } : null,
  });
}

/** Run now: a full compare queued; a held delete or `allowMassDelete` asks to confirm first. */
async function runNow(ctx: DashboardContext, req: Request, res: Response): Promise<void> {
  const feed = ctx.feedsOf().find((f) => f.id === req.params.id);
  // Unknown ids never reach the queue: a typo is a 404, not a green job that did nothing.
  if (!feed) return void notFound(res, `no feed "${req.params.id}" in the config`);
  if (ctx.readOnly) return void res.status(403).send('read-only: set UI_USER and UI_PASSWORD to run feeds');
  if (crossSite(req)) return void res.status(403).send('cross-site request refused');
  const body = (req.body ?? {}) as Record<string, string>;
  // The deletes allowed are those a run held, named by its digest: never whatever the feed drops
  // between the page and the click (a tester: 15 named, 54 deleted). The replaces, apart.
  const allowDeletes = allowDeletesOf(body.allowDeletes);
  if (body.allowDeletes !== undefined && !allowDeletes)
    return void res.status(400).send('allowDeletes: not the held deletes of a run (digest:count)');
  const allowReplaces = allowDeletesOf(body.allowReplaces);
  if (body.allowReplaces !== undefined && !allowReplaces)
    return void res.status(400).send('allowReplaces: not the held replaces of a run (digest:count)');
  const allowing = allowDeletes !== undefined || allowReplaces !== undefined;
  const last = await ctx.lastReport(feed.id);
  if ((allowing || last?.outcome === 'guarded') && body.confirm !== '1')
    return void ctx.send(res, feed.id, 'feeds', confirmPage(feed.id, body));
  // A full compare: Run now must not end `skipped` because the feed file did not change.
  const jobId = await enqueueFeedSync(ctx.queue, {
    feedId: feed.id,
    trigger: 'manual',
    forceFull: true,
    ...(allowDeletes ? { allowDeletes } : {}),
    ...(allowReplaces ? { allowReplaces } : {}),
  });
  if (wantsJson(req)) return void res.status(202).json({ feedId: feed.id, jobId });
  res.redirect(303, `/feeds/${encodeURIComponent(feed.id)}`);
}

/** `DIGEST:COUNT`, the form's value for the held deletes of a run (`RunReport.heldDeletesDigest`). */
function allowDeletesOf(value: string | undefined): { digest: string; count: number } | undefined {
  const match = /^([0-9a-f]{64}):(\d{1,9})$/.exec(value ?? '');
  return match ? { digest: match[1]!, count: Number(match[2]) } : undefined;
}

/** Without JavaScript, the confirmation is a page with the same form and `confirm=1`. */
function confirmPage(feedId: string, body: Record<string, string>) {
  const deletes = allowDeletesOf(body.allowDeletes);
  const replaces = allowDeletesOf(body.allowReplaces);
  const question = deletes
    ? `Run ${feedId} now and let it delete the ${deletes.count} listings its delete guard held back? If the feed has changed since, it deletes none of them.`
    : replaces
      ? `Run ${feedId} now and let it replace the ${replaces.count} listings its replace guard held back? If the feed has changed since, it replaces none of them.`
      : `The last run of ${feedId} tripped a delete guard. Run it again now? Deletes stay held unless you allow them.`;
  return html`<h1>Confirm</h1><p>${question}</p>
<form method="post" action="/feeds/${encodeURIComponent(feedId)}/run"><input type="hidden" name="confirm" value="1">${
    deletes ? html`<input type="hidden" name="allowDeletes" value="${body.allowDeletes ?? ''}">` : ''
  }${replaces ? html`<input type="hidden" name="allowReplaces" value="${body.allowReplaces ?? ''}">` : ''}<button type="submit"${deletes || replaces ? html` class="danger"` : ''}>Yes, run now</button> <a href="/feeds/${encodeURIComponent(feedId)}">Cancel</a></form>`;
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
