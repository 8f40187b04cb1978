import type { Ingest } from './ingest-contract.ts';

/**
 * The production ingest: `ingestFeed` of src/sources, loaded on first use so that code syncing
 * listings it already has (tests, the bench) does not load every feed format.
 */
export const defaultIngest: Ingest = async (feed, context) => {
  const { ingestFeed } = await import('../sources/index.ts');
  return ingestFeed(feed, context);
};
