import type { Ingest, IngestResult } from './ingest-contract.ts';

// Ingestion (src/sources) lands separately; until its module exists this resolves it at run time.
// TODO: a static `import { ingestFeed } from '../sources/index.ts'` once it is in the tree.
const SOURCES = '../sources/index.ts';

/** The production ingest: `ingestFeed` of src/sources. */
export const defaultIngest: Ingest = async (feed, context) => {
  const mod = (await import(SOURCES)) as {
    ingestFeed?: (feed: unknown, deps: unknown) => Promise<IngestResult>;
  };
  if (!mod.ingestFeed) throw new Error('src/sources does not export ingestFeed');
  return mod.ingestFeed(feed, context);
};
