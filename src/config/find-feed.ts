import { FeedSyncError } from '../errors.ts';
import type { Config, FeedConfig } from './schema.ts';

/** A feed id that is not in the config: a config problem, never a silent no-op. */
export class UnknownFeedError extends FeedSyncError {
  constructor(id: string, known: readonly string[]) {
    super(`no feed "${id}" in the config (feeds: ${known.join(', ') || 'none'})`, {
      kind: 'CONFIG_INVALID',
      code: 'E_UNKNOWN_FEED',
    });
  }
}

/**
 * The feed of the config with this id, enabled or not: the one lookup of the CLI, the worker's job,
 * the dashboard and the demo. An unknown id is an `UnknownFeedError` naming the known ones.
 */
export function findFeed(config: Pick<Config, 'feeds'>, id: string): FeedConfig {
  const feed = config.feeds.find((f) => f.id === id);
  if (!feed)
    throw new UnknownFeedError(
      id,
      config.feeds.map((f) => f.id),
    );
  return feed;
}
