/**
 * Sources: a feed opened by its transport (a file, HTTP with auth, gzip, bounds; transports/) and
 * read by its format (CSV, XML, BLM, RESO; formats/) into batches of raw records.
 */
export { FeedError, type FeedErrorCode, isFeedError } from './feed-error.ts';
export { openFeed } from './open-feed.ts';
export { type SourceConfig, sourceSchema } from './source-schema.ts';
export type { FeedSpec, IngestDeps, OpenedFeed, RawRecord } from './source-types.ts';
