import type { IngestResult, IngestSpec } from '../ingest/index.ts';
import type { IngestDeps } from '../sources/index.ts';

export type { IngestResult };

/**
 * How the sync gets its listings: `ingestFeed` of src/sources in production (see default-ingest.ts),
 * a function returning listings built in code in tests and the bench.
 */
export type Ingest = (feed: IngestSpec, deps: IngestDeps) => Promise<IngestResult>;

/** An ingest result for listings that are already normalized (tests, the bench, other callers). */
export function ingestResultOf(
  feedId: string,
  listings: IngestResult['listings'],
  extra: Partial<IngestResult> = {},
): IngestResult {
  return {
    feedId,
    notModified: false,
    mode: 'full',
    listings,
    removals: [],
    rejections: [],
    held: [],
    rejectedWithoutKey: 0,
    duplicates: [],
    stats: { records: listings.length, valid: listings.length, rejected: 0, removed: 0, duplicates: 0 },
    sourceState: {},
    mapping: undefined,
    unknownMarkers: {},
    ...extra,
  };
}
