import type { FeedConfig } from '../config/schema.ts';
import type { Logger } from '../logger.ts';
import type { Listing } from '../normalize/listing-schema.ts';
import type { FeedState } from '../state/state-store.ts';

/**
 * What the sync needs from ingestion (src/sources `ingestFeed`), stated here so the reconcile side
 * depends on the shape, not on the module: tests and the bench pass listings built in code.
 */
export interface IngestResult {
  feedId: string;
  /** The source answered 304 / unchanged validators: nothing to do. */
  notModified: boolean;
  mode: 'full' | 'incremental';
  /** Valid listings, deduped by the feed's key. */
  listings: Listing[];
  /** Keys whose feed status means the listing is removed. */
  removals: string[];
  rejections: unknown[];
  duplicates?: unknown;
  stats?: unknown;
  /** Validators and watermark to save once the run succeeded. */
  statePatch: Partial<FeedState>;
}

export interface IngestContext {
  state: FeedState;
  logger: Logger;
  signal?: AbortSignal | undefined;
  forceFull?: boolean | undefined;
  now?: (() => Date) | undefined;
}

export type Ingest = (feed: FeedConfig, context: IngestContext) => Promise<IngestResult>;

/** A feed that could not be fetched, parsed, or was empty: the run fails and deletes nothing. */
export function isFeedError(error: unknown): error is Error {
  return (
    error instanceof Error &&
    (error.name === 'FeedError' || (error as { code?: string }).code?.startsWith('E_FEED') === true)
  );
}
