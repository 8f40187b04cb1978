import { z } from 'zod';
import type { ResolvedReso } from './resolve-options.ts';

/**
 * Where a replication stands after its last completed page: the position it goes on from. By
 * timestamp: the ModificationTimestamp of the last record read and every key already read at that
 * instant (the next query asks `ge` it and skips those keys, so records sharing one timestamp across
 * a page boundary or across runs are neither lost nor read twice). By key: the last ListingKey.
 */
const positionSchema = z.union([
  z.strictObject({ timestamp: z.string(), keys: z.array(z.string()) }),
  z.strictObject({ key: z.string() }),
]);
export type ReplicationPosition = z.infer<typeof positionSchema>;

/**
 * A replication under way, kept in the feed's state (`resoCheckpoint`) after every page a run
 * wrote: the query (what is read: all of the feed, or what changed since `since`) and the position
 * in it. A paused, capped or killed run leaves it; the next run goes on from it; the run that reads
 * the last page removes it.
 */
export const checkpointSchema = z.strictObject({
  /** `full`: every listing of the feed (the first import, a periodic full read); `incremental`: changes since `since`. */
  kind: z.enum(['full', 'incremental']),
  /** ISO time the replication began (run clock). */
  startedAt: z.string(),
  /** Incremental: ISO lower bound of ModificationTimestamp, fixed for the whole replication. */
  since: z.string().optional(),
  position: positionSchema.optional(),
  /** The server's link to the next page, and when it was given (Trestle's expire after 5 minutes idle). */
  nextLink: z.string().optional(),
  linkAt: z.string().optional(),
  /** Newest ModificationTimestamp read in this replication (ISO): the watermark once it completes. */
  newest: z.string().optional(),
  /**
   * The earliest first-read timestamp (ISO) of a record read twice in this replication: it changed
   * while the pages were read, and moved to the end of a timestamp order. A provider that pages by
   * `$skip` then skips the record after its old place, whose timestamp is at or after this one: the
   * watermark goes no later, so the next replication reads it (a tester's MLS Grid-like server).
   */
  movedFloor: z.string().optional(),
  pages: z.number().int().min(0),
  records: z.number().int().min(0),
  /** Runs this replication has taken so far, this one included. */
  runs: z.number().int().min(1),
});
export type ResoCheckpoint = z.infer<typeof checkpointSchema>;

/** What the RESO source keeps in the feed's state (a slice of `FeedState`). */
export interface ResoState {
  resoWatermark?: string | undefined;
  lastFullRunAt?: string | undefined;
  resoCheckpoint?: unknown;
  resoSweepAt?: string | undefined;
  resoSweepDue?: boolean | undefined;
  resoFullDue?: boolean | undefined;
}

/** A record as the checkpoint sees it. */
export interface PositionedRecord {
  key: string | undefined;
  /** Epoch ms of its ModificationTimestamp, when it has one. */
  modified: number | undefined;
}

/** A stored checkpoint, if it is one this version can read. */
export function storedCheckpoint(value: unknown): ResoCheckpoint | undefined {
  const parsed = checkpointSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The replication this run reads: the stored one goes on (unless the run forces a full read, or
 * the config no longer asks for its kind), else a new one: full on the first run, when the config
 * says `full`, or when a full read is due; incremental from the watermark minus the overlap otherwise.
 */
export function startReplication(
  options: Pick<ResolvedReso, 'mode' | 'overlapMs' | 'fullEveryMs'>,
  state: ResoState,
  now: Date,
  forceFull: boolean,
  parse: (value: unknown) => number | undefined,
): { checkpoint: ResoCheckpoint; resumed: boolean } {
  const stored = storedCheckpoint(state.resoCheckpoint);
  if (stored && !forceFull && !(options.mode === 'full' && stored.kind === 'incremental'))
    return { checkpoint: { ...stored, runs: stored.runs + 1 }, resumed: true };
  const fresh = { startedAt: now.toISOString(), pages: 0, records: 0, runs: 1 };
  const watermark = parse(state.resoWatermark);
  const lastFull = parse(state.lastFullRunAt);
  const fullDue =
    options.fullEveryMs !== undefined &&
    lastFull !== undefined &&
    now.getTime() - lastFull >= options.fullEveryMs;
  if (
    options.mode === 'full' ||
    forceFull ||
    state.resoFullDue === true ||
    watermark === undefined ||
    lastFull === undefined ||
    fullDue
  )
    return { checkpoint: { kind: 'full', ...fresh }, resumed: false };
  const since = new Date(watermark - options.overlapMs).toISOString();
  return { checkpoint: { kind: 'incremental', since, ...fresh }, resumed: false };
}

/**
 * The checkpoint after one more page: its records (in the order read), and the link to the next
 * page. Pure. By timestamp, the keys read at the last instant accumulate while pages share it.
 */
export function advanced(
  checkpoint: ResoCheckpoint,
  records: readonly PositionedRecord[],
  order: 'timestamp' | 'key',
  nextLink: string | undefined,
  now: Date,
): ResoCheckpoint {
  const next: ResoCheckpoint = {
    ...checkpoint,
    pages: checkpoint.pages + 1,
    records: checkpoint.records + records.length,
  };
  delete next.nextLink;
  delete next.linkAt;
  if (nextLink) {
    next.nextLink = nextLink;
    next.linkAt = now.toISOString();
  }
  let newest = checkpoint.newest ? Date.parse(checkpoint.newest) : undefined;
  for (const r of records)
    if (r.modified !== undefined && (newest === undefined || r.modified > newest)) newest = r.modified;
  if (newest !== undefined) next.newest = new Date(newest).toISOString();
  const position = positionAfter(checkpoint.position, records, order);
  if (position) next.position = position;
  return next;
}

function positionAfter(
  position: ReplicationPosition | undefined,
  records: readonly PositionedRecord[],
  order: 'timestamp' | 'key',
): ReplicationPosition | undefined {
  if (order === 'key') {
    const last = [...records].reverse().find((r) => r.key !== undefined);
    return last?.key !== undefined ? { key: last.key } : position;
  }
  let at = position && 'timestamp' in position ? Date.parse(position.timestamp) : undefined;
  let keys = new Set(position && 'timestamp' in position ? position.keys : []);
  for (const r of records) {
    if (r.modified === undefined) continue;
    if (at === undefined || r.modified > at) {
      at = r.modified;
      keys = new Set();
    }
    if (r.modified === at && r.key !== undefined) keys.add(r.key);
  }
  return at === undefined ? position : { timestamp: new Date(at).toISOString(), keys: [...keys].sort() };
}

/**
 * Whether a record of a replication that goes on by timestamp was read already: at the position's
 * instant exactly and with a key read there. A record modified since has a later timestamp and is read.
 */
export function readAlready(position: ReplicationPosition | undefined, record: PositionedRecord): boolean {
  if (!position || !('timestamp' in position) || record.key === undefined) return false;
  return record.modified === Date.parse(position.timestamp) && position.keys.includes(record.key);
}

/**
 * The watermark once a replication completes: the newest timestamp it read, but never after the
 * instant it began (records ordered by key and modified meanwhile are read by the next one), and
 * never before the last watermark but for `movedFloor`. Undefined when it read nothing newer.
 */
export function watermarkAfter(checkpoint: ResoCheckpoint, previous: number | undefined): string | undefined {
  if (!checkpoint.newest) return previous === undefined ? undefined : new Date(previous).toISOString();
  const reached = Math.min(Date.parse(checkpoint.newest), Date.parse(checkpoint.startedAt));
  const after = previous === undefined ? reached : Math.max(previous, reached);
  // A record read twice (it moved while the pages were read): no later than its first timestamp,
  // even before the last watermark, so what the paging skipped after its old place is read next.
  if (checkpoint.movedFloor === undefined) return new Date(after).toISOString();
  return new Date(Math.min(Date.parse(checkpoint.movedFloor), after)).toISOString();
}

/**
 * Whether this run ends with a key sweep: a full read that took several runs (its last run cannot see
 * which listings left), one that a run before could not finish, or the period is due.
 */
export function sweepDue(
  options: Pick<ResolvedReso, 'sweepEveryMs'>,
  state: ResoState,
  completed: ResoCheckpoint | undefined,
  now: Date,
  parse: (value: unknown) => number | undefined,
): boolean {
  if (completed?.kind === 'full' && completed.runs === 1) return false;
  if (completed?.kind === 'full' || state.resoSweepDue) return true;
  if (options.sweepEveryMs === undefined) return false;
  const last = parse(state.resoSweepAt) ?? parse(state.lastFullRunAt);
  return last === undefined || now.getTime() - last >= options.sweepEveryMs;
}
