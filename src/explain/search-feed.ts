import type { FeedConfig } from '../config/index.ts';
import { type FeedItem, mappingFor } from '../ingest/index.ts';
import type { CompiledMapping } from '../normalize/index.ts';
import type { RunReport } from '../reconcile/index.ts';
import type { IngestDeps, RawRecord } from '../sources/index.ts';
import { placeOf } from './find-record.ts';
import { keysOfReport, type ReportKey } from './report-keys.ts';
import { keyOfItem, scanFeed } from './scan-feed.ts';

/** One listing of the feed that matches a search. */
export interface SearchHit {
  /** Absent for a broken row no key can be read from, and that held no listing in the last run. */
  key?: string;
  /** `12 Oak St, Port Harbor` when the record has an address. */
  address?: string;
  /** Where its record is; absent for a key only the last run names (gone from the feed since). */
  where?: string;
  /** What its record is now: a listing, a removal, a rejected or broken record, or none (gone). */
  kind: 'listing' | 'remove' | 'rejected' | 'broken' | 'gone';
  /** What the feed's last run said of it (`held: …`, `gone from the feed since …`). */
  lastRun?: string[];
}

export interface SearchResult {
  hits: SearchHit[];
  /** More records matched than `limit`. */
  more: boolean;
  records: number;
}

export interface SearchOptions {
  /** Hits kept (default 50). */
  limit?: number;
  /** The feed's last run: the keys it names (held, in grace, deleted…) are searched too. */
  lastRun?: RunReport;
}

/** The address fields a search reads, of a listing or of what the mapping read of a rejected record. */
const ADDRESS_FIELDS = ['Address', 'City', 'State', 'ZIP'] as const;

/**
 * The feed's listings whose key or address holds `query` (case and spacing ignored): every record
 * with a key (valid, no longer listed, rejected: its address as the mapping read it), broken rows
 * whose text holds it, and the keys the last run names that the feed no longer has (a listing in
 * grace, one deleted), as the feed page shows them. The last record of each key; at most `limit`.
 * Reads the whole feed as a run does; keeps only the hits.
 */
export async function searchFeed(
  feed: FeedConfig,
  query: string,
  deps: Pick<IngestDeps, 'signal' | 'logger' | 'now' | 'budget'>,
  options: SearchOptions = {},
): Promise<SearchResult> {
  const limit = options.limit ?? 50;
  const needle = fold(query);
  const reported = new Map(keysOfReport(options.lastRun).map((k) => [k.key, k]));
  const hits = new Map<string, SearchHit>();
  const broken: SearchHit[] = [];
  let more = false;
  let mapping: CompiledMapping | undefined;
  const add = (id: string, hit: SearchHit) => {
    if (!hits.has(id) && hits.size >= limit) {
      more = true;
      return;
    }
    hits.delete(id);
    hits.set(id, hit);
  };
  const scanned = await scanFeed(feed, deps, (item, record, name) => {
    if (needle === '') return;
    mapping ??= mappingFor(feed, record, { ...deps, state: {} });
    const key = keyOfItem(item);
    if (key === undefined) {
      if (item.kind === 'rejected' && item.broken && fold(item.broken.cells.join(' ')).includes(needle))
        broken.push({
          where: placeOf(record, name).where,
          kind: 'broken',
          lastRun: [item.rejection.message],
        });
      return;
    }
    const address = addressOf(item, record, mapping);
    if (!fold(key).includes(needle) && !fold(address.join(' ')).includes(needle)) return;
    const shown = address.slice(0, 2).filter(Boolean).join(', ');
    const said = reported.get(key)?.said;
    add(key, {
      key,
      ...(shown ? { address: shown } : {}),
      where: placeOf(record, name).where,
      kind: item.kind,
      ...(said ? { lastRun: said } : {}),
    });
  });
  for (const hit of broken)
    for (const held of heldBy(hit, reported)) add(held.key, { ...hit, key: held.key, lastRun: held.said });
  for (const hit of broken) if (!heldBy(hit, reported).length) add(`\u0000${hit.where}`, hit);
  for (const reportedKey of reported.values())
    if (!hits.has(reportedKey.key) && fold(reportedKey.key).includes(needle) && needle !== '')
      add(reportedKey.key, {
        key: reportedKey.key,
        kind: reportedKey.brokenRow ? 'broken' : 'gone',
        ...(reportedKey.brokenRow ? { where: reportedKey.brokenRow } : {}),
        lastRun: reportedKey.said,
      });
  return { hits: [...hits.values()], more, records: scanned.records };
}

/** The keys the last run held by this broken row (`the shifted row 4 of acme.csv`). */
function heldBy(hit: SearchHit, reported: Map<string, ReportKey>): ReportKey[] {
  return [...reported.values()].filter(
    (k) => k.brokenRow !== undefined && hit.where && k.brokenRow.endsWith(hit.where),
  );
}

/** Address, City, State, ZIP of a listing, or what the mapping read of a rejected record. */
function addressOf(item: FeedItem, record: RawRecord, mapping: CompiledMapping): string[] {
  // A rejected or removed record: the values the mapping could read of it, kept raw.
  const values: Record<string, unknown> =
    item.kind === 'listing' ? item.listing : mapping.map(record.fields, true).listing;
  return ADDRESS_FIELDS.map((f) => values[f]).map((v) =>
    typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '',
  );
}

function fold(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
