import type { Queue } from 'bullmq';
import express, { type Router } from 'express';
import type { Config } from '../../config/index.ts';
import type { RunReport } from '../../reconcile/index.ts';
import { type StateStore, withCliHistory } from '../../state/index.ts';
import { CSS, JS } from './assets.ts';
import { chatbotRoutes } from './chatbot-routes.ts';
import { feedRoutes } from './feed-routes.ts';
import { page } from './html.ts';
import { LISTING_CSS } from './listing-page.ts';
import { defaultExplainer, type ListingExplainer, listingRoutes } from './listing-routes.ts';
import { type DashboardContext, notFound } from './route-context.ts';

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
  /** The config file's last change, when the worker refused it (a banner on every page). */
  configRefused?: () => { at: string; file: string; issues: readonly string[] } | undefined;
}

/**
 * The feed dashboard at `/`: feeds, one feed's runs, chatbots; Run now and Push now. Reads run
 * history from the state store and live progress from BullMQ, never from logs. The routes are
 * grouped by page: feed-routes.ts, listing-routes.ts, chatbot-routes.ts.
 */
export function dashboardRouter(options: DashboardOptions): Router {
  const router = express.Router();
  // A feed no worker ran shows the runs `feed-sync sync` made (the config's state file).
  const state = withCliHistory(options.state, () => options.getConfig()?.stateFile);
  const ctx: DashboardContext = {
    queue: options.queue,
    state,
    getConfig: () => options.getConfig(),
    readOnly: options.readOnly,
    runsShown: options.runsShown ?? 20,
    now: options.now ?? (() => new Date()),
    feedsOf: () => options.getConfig()?.feeds ?? [],
    send: (res, title, section, body) =>
      void res.type('html').send(
        page({
          title,
          section,
          body,
          readOnly: options.readOnly,
          configRefused: options.configRefused?.(),
        }),
      ),
    lastReport: async (feedId) => (await state.getFeed(feedId)).lastReport as RunReport | undefined,
    feedRow: async (feedId) => {
      const { lastReport, owned } = await state.getFeed(feedId);
      const last = lastReport as RunReport | undefined;
      // After a skipped run, the last that read the feed: what still stands.
      const lastRead =
        last?.outcome === 'skipped'
          ? ((await state.listRuns(feedId, 20)) as RunReport[]).find((r) => r.outcome !== 'skipped')
          : undefined;
      return {
        ...(last === undefined ? {} : { last }),
        ...(owned === undefined ? {} : { owned }),
        ...(lastRead === undefined ? {} : { lastRead }),
      };
    },
  };

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
  feedRoutes(router, ctx);
  listingRoutes(router, {
    getConfig: options.getConfig,
    explainer: options.explainer ?? defaultExplainer(state),
    send: (res, title, body) => ctx.send(res, title, 'feeds', body),
    notFound,
  });
  chatbotRoutes(router, ctx);
  return router;
}
