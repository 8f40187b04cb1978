export { type ExplainDeps, explainListing, isUnknownKey } from './explain-listing.ts';
export { renderExplanation, unknownKeyLine } from './render-explain.ts';
export { type SearchHit, type SearchResult, searchFeed } from './search-feed.ts';
export type {
  Classification,
  Explanation,
  FieldTrace,
  HistoryEntry,
  ListingPart,
  PlatformPart,
  PlatformRecord,
  SourcePart,
  Verdict,
} from './types.ts';
