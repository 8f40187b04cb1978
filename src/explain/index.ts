export { type ExplainDeps, explainListing, INCOMPLETE, isUnknownKey } from './explain-listing.ts';
export { extensionField, fieldsOf } from './listing-fields.ts';
export { noListing, renderExplanation, renderHistory, unknownKeyLine } from './render-explain.ts';
export { type SearchHit, type SearchResult, searchFeed } from './search-feed.ts';
export type {
  BrokenMention,
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
