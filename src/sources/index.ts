export { collectFeed, ingestFeed } from '../ingest/ingest-feed.ts';
export { readFeed } from '../ingest/read-feed.ts';
export type {
  DuplicateKey,
  FeedItem,
  IngestDeps,
  IngestResult,
  RawRecord,
  RecordRef,
  Rejection,
} from '../ingest/types.ts';
export { FeedError, type FeedErrorCode, isFeedError } from './feed-error.ts';
export { type SourceConfig, sourceSchema } from './source-schema.ts';
