/**
 * Ingest: the one loop from a feed's raw records to listings, removals and rejections (normalize
 * each record, dedupe by key, hold the keys of rejected records), read whole (`ingestFeed`,
 * `collectFeed`) or item by item (`readFeed`).
 */
export { HeldKeyColumns, HeldKeys } from './held-keys.ts';
export { BROKEN_ROWS_KEPT, type CollectOptions, collectFeed, ingestFeed } from './ingest-feed.ts';
export {
  type FeedReadEnd,
  itemsOf,
  listingOfFields,
  type MemoReading,
  mappingFor,
  memoSeedOf,
  readFeed,
} from './read-feed.ts';
export {
  fingerprintCheck,
  fingerprintOf,
  forEachMemoRow,
  MEMO_HEADER_BYTES,
  MEMO_MAX_AGE_MS,
  type MemoEntry,
  type MemoHeader,
  MemoWriter,
  memoHeaderOf,
  memoizableKey,
  RecordMemo,
} from './record-memo.ts';
export type {
  BrokenRow,
  DuplicateKey,
  FeedItem,
  HeldKey,
  HeldKeyList,
  IngestResult,
  IngestSpec,
  KnownItem,
  ProblemCount,
  RecordProblem,
  RecordRef,
  Rejection,
  RejectionCount,
} from './types.ts';
