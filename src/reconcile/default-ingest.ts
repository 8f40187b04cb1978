import { ingestFeed } from '../ingest/index.ts';
import type { Ingest } from './ingest-contract.ts';

/** The production ingest: `ingestFeed` of src/sources. Tests and the bench pass their own `Ingest`. */
export const defaultIngest: Ingest = ingestFeed;
