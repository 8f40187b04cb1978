import type { z } from 'zod';
import type { RemoteListing } from '../../src/api/canonicalize.ts';
import { canonicalizeRemote } from '../../src/api/canonicalize.ts';
import { type Config, configSchema, type feedConfigSchema } from '../../src/config/schema.ts';
import type { Listing } from '../../src/normalize/listing-schema.ts';
import { desiredOf, withBriefs } from '../../src/reconcile/desired.ts';
import {
  DEFAULT_HASH_KEY,
  desiredByKey,
  type IngestResult,
  ingestResultOf,
  keyOf,
  makePlan,
  type Plan,
  type PlanPolicy,
} from '../../src/reconcile/index.ts';
import { memoryRecords, type RecordStore } from '../../src/reconcile/record-store.ts';
import { remoteEntries } from '../../src/reconcile/remote-entries.ts';
import { toListRecord } from '../../src/sandbox/index.ts';

/** What the list operation would return for a stored listing, canonicalized, with ID `id`. */
export function remote(id: number, stored: Listing): RemoteListing {
  const record = toListRecord({ ...stored, ID: id, SerialNumber: 'SN' });
  return canonicalizeRemote({ ...record });
}

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

/**
 * `makePlan` over whole listings, as a run makes it: the feed's listings digested (records kept in
 * memory), the remote ones reduced to entries compared with them. `records` reads a planned record back.
 */
export function planOf(
  desired: readonly Listing[],
  remotes: readonly RemoteListing[],
  policy: PlanPolicy,
): Plan & { records: RecordStore } {
  const tags = { ownerKey: policy.ownerKey, hashKey: policy.hashKey ?? DEFAULT_HASH_KEY };
  const records = memoryRecords();
  const entries = desired.map((l) =>
    desiredOf(l, keyOf(l, policy.keyField) ?? '', policy.feedId, tags, records),
  );
  const byKey = desiredByKey(entries);
  const set = { load: (d: { ref: number }) => records.get(d.ref) };
  const sink = remoteEntries(policy.keyField, tags, byKey, set);
  for (const r of remotes) sink.keep(1, r);
  return { ...withBriefs(makePlan(byKey, sink.finish().listings, policy), set), records };
}
