export { FeedError, type FeedErrorCode, isFeedError } from './feed-error.ts';
export { collectFeed, ingestFeed } from './ingest-feed.ts';
export { readFeed } from './read-feed.ts';
export { type SourceConfig, sourceSchema } from './source-schema.ts';
export type {
  DuplicateKey,
  FeedItem,
  IngestDeps,
  IngestResult,
  RawRecord,
  RecordRef,
  Rejection,
} from './types.ts';
