/**
 * Sources: a feed opened by its transport (a file, HTTP with auth, gzip, bounds; transports/) and
 * read by its format (CSV, XML, BLM, RESO; formats/) into batches of raw records.
 */
export { FeedError, type FeedErrorCode, isFeedError } from './feed-error.ts';
export { RESO_PROVIDERS } from './formats/reso/profiles.ts';
export { openFeed } from './open-feed.ts';
export { SOURCE_FORMATS, type SourceConfig, sourceSchema } from './source-schema.ts';
export type {
  FeedOpener,
  FeedSpec,
  IngestDeps,
  KeySet,
  OpenedFeed,
  RawRecord,
  SourceEnd,
  SourcePause,
  StillListed,
} from './source-types.ts';
export { digestFile, type SourceDigest, statFile } from './transports/read-file.ts';
