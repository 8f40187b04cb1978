import type { Queue } from 'bullmq';
import type { Request, Response } from 'express';
import type { Config } from '../../config/index.ts';
import type { RunReport } from '../../reconcile/index.ts';
import type { StateStore } from '../../state/index.ts';
import type { FeedRow } from './feed-summary.ts';
import type { html } from './html.ts';

/** What the dashboard's routes share: the options, read once, and the helpers every page uses. */
export interface DashboardContext {
  queue: Queue;
  state: StateStore;
  getConfig(): Config | undefined;
  readOnly: boolean;
  runsShown: number;
  now: () => Date;
  /** The running config's feeds (none without a config). */
  feedsOf(): Config['feeds'];
  /** The page `body` in the dashboard's frame, under `section`. */
  send(res: Response, title: string, section: 'feeds' | 'chatbots', body: ReturnType<typeof html>): void;
  lastReport(feedId: string): Promise<RunReport | undefined>;
  /** The feed's last report and what it owns after the last run that compared (`FeedState.owned`). */
  feedRow(feedId: string): Promise<FeedRow>;
}

/** A POST from another site would ride on the browser's basic-auth credentials: refused. */
export function crossSite(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return true;
  const origin = req.get('origin');
  return Boolean(origin && origin !== 'null' && new URL(origin).host !== req.get('host'));
}

export const wantsJson = (req: Request) => (req.get('accept') ?? '').includes('application/json');

export function notFound(res: Response, message: string): void {
  res.status(404).type('text/plain').send(message);
}
