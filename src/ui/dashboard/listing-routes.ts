import type { Response, Router } from 'express';
import { clientFromConfig } from '../../api/index.ts';
import type { Config, FeedConfig } from '../../config/index.ts';
import {
  type Explanation,
  explainListing,
  isUnknownKey,
  type SearchResult,
  searchFeed,
} from '../../explain/index.ts';
import type { RunReport } from '../../reconcile/index.ts';
import { isFromStateFile, type StateStore } from '../../state/index.ts';
import type { Html } from './html.ts';
import { listingHref, listingPage } from './listing-page.ts';
import { searchPage } from './listing-search.ts';

/** How the dashboard explains a listing and searches a feed (issue 22); tests may hand their own. */
export interface ListingExplainer {
  explain(config: Config, feed: FeedConfig, key: string): Promise<Explanation>;
  search(feed: FeedConfig, query: string): Promise<SearchResult>;
}

/**
 * The explainer a dashboard uses by default: the feed read as a run reads it, the platform through
 * a client built from the running config (one or two list calls a page), the worker's own history.
 */
export function defaultExplainer(
  state: Pick<StateStore, 'getFeed' | 'listRuns' | 'budgets'>,
): ListingExplainer {
  return {
    explain: async (config, feed, key) => {
      // Runs made from the command line are the state file's (`withCliHistory`): said so.
      const runs = (await state.listRuns(feed.id)) as Record<string, unknown>[];
      const cliRuns = runs.filter(isFromStateFile).length;
      const historyFrom =
        cliRuns === 0
          ? "the worker's run history"
          : cliRuns === runs.length
            ? 'the runs feed-sync sync made from the command line (the state file: no worker has run this feed)'
            : `the worker's run history and the state file: ${cliRuns} of them made by feed-sync sync from the command line`;
      return explainListing(config, feed, key, { client: clientFromConfig(config), state, historyFrom });
    },
    search: async (feed, query) => {
      // The keys the feed page shows come from its last run: searched too (held, in grace, deleted).
      const [lastRun] = (await state.listRuns(feed.id)) as RunReport[];
      return searchFeed(
        feed,
        query,
        state.budgets ? { budget: state.budgets } : {},
        lastRun ? { lastRun } : {},
      );
    },
  };
}

interface ListingRouteOptions {
  getConfig(): Config | undefined;
  explainer: ListingExplainer;
  send(res: Response, title: string, body: Html): void;
  notFound(res: Response, message: string): void;
}

/**
 * `GET /feeds/:id/listing?key=K`: one listing's page (source, listing, platform, verdict, history);
 * `?q=…`: the feed's listings whose key or address holds the text, or straight to the key's page
 * when one key is exactly it. Reads only, in read-only mode too.
 */
export function listingRoutes(router: Router, options: ListingRouteOptions): void {
  router.get('/feeds/:id/listing', async (req, res) => {
    const config = options.getConfig();
    const feed = config?.feeds.find((f) => f.id === req.params.id);
    if (!config || !feed) return void options.notFound(res, `no feed "${req.params.id}" in the config`);
    const key = typeof req.query.key === 'string' ? req.query.key.trim() : '';
    const query = typeof req.query.q === 'string' ? req.query.q.trim() : '';
    if (key) {
      const explanation = await options.explainer.explain(config, feed, key);
      // A key in neither the feed nor the platform: the page says so, with the status of a miss.
      if (isUnknownKey(explanation)) res.status(404);
      return void options.send(res, `${key} · ${feed.id}`, listingPage(explanation));
    }
    if (!query) return void res.redirect(303, `/feeds/${encodeURIComponent(feed.id)}`);
    const result = await options.explainer.search(feed, query);
    const exact = result.hits.find((h) => h.key === query);
    if (exact?.key) return void res.redirect(303, listingHref(feed.id, exact.key));
    options.send(res, `Find ${query} · ${feed.id}`, searchPage(feed.id, query, result));
  });
}
