import type { z } from 'zod';
import { type Config, configSchema, type feedConfigSchema } from '../../src/config/schema.ts';
import type { Listing } from '../../src/normalize/listing-schema.ts';
import { type IngestResult, ingestResultOf } from '../../src/reconcile/index.ts';

/** A feed as written in a config file (before defaults): what `makeConfig` takes. */
export type FeedInput = Partial<z.input<typeof feedConfigSchema>>;

export function makeConfig(feeds: FeedInput[], api: Record<string, unknown> = {}): Config {
  return configSchema.parse({
    api: { baseUrl: 'http://127.0.0.1:1', concurrency: 4, pageSize: 50, timeoutMs: 2000, ...api },
    feeds: feeds.map((f, i) => ({
      id: `feed${i + 1}`,
      chatbot: 'SN-1',
      source: { format: 'csv', path: 'unused.csv' },
      ...f,
    })),
  });
}

export function ingested(feedId: string, items: Listing[], extra: Partial<IngestResult> = {}): IngestResult {
  return ingestResultOf(feedId, items, extra);
}
