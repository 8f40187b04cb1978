import type { PlatformClient } from '../api/index.ts';
import { AmbiguousCreateError, canonicalizeRemote, PlatformError, RETURNED_FIELDS } from '../api/index.ts';
import { HttpStatusError } from '../http/index.ts';
import { type Listing, listingSchema, type MappingHint, type MarkerField } from '../normalize/index.ts';
import { isClear, isUnset, leavesUnset } from './compare.ts';
import { createPlanned, LISTING_CHECKED } from './create-listing.ts';
import type { DesiredLoader } from './desired.ts';
import { FailureLog, toFailure } from './failure-log.ts';
import { KeyRefusals } from './key-refusals.ts';
import type { TagKeys } from './ownership.ts';
import type { FieldChange, Plan, PlannedCreate, PlannedDelete, PlannedUpdate } from './plan-types.ts';
import { inStoreOrder, itemsOf } from './planned-creates.ts';
import { type Failure, type NotApplied, notAppliedCount } from './report-types.ts';
import { unknownLeftOut, withoutUnknown, withoutUnknownJson } from './update-body.ts';

export interface ApplyOptions {
  chatbot: string;
  tags: TagKeys;
  /** Where the records the plan's creates and updates send are read back from, one at a time. */
  loader: DesiredLoader;
  /** Writes in flight at once (the client's limiter bounds every attempt as well). */
  concurrency: number;
  /** Keys per RealEstateDelete call. */
  deleteBatchSize: number;
  /** Stops issuing new writes; the ones in flight finish. */
  signal?: AbortSignal | undefined;
  onProgress?: (done: number, total: number) => void;
}

export interface ApplyResult {
  created: number;
  updated: number;
  adopted: number;
  /** Updates that marked a listing gone from the feed Sold (counted in `updated` too). */
  markedSold: number;
  /** Updates made as a replace: created anew, the old listing deleted (counted in `updated` too). */
  replaced: number;
  /** The fields each replace cleared, by key (the first `CLEARED_KEPT`): the next run's `clearedBefore`. */
  cleared: Record<string, string[]>;
  /** The new ID of each listing a replace created, by key (the first `CLEARED_KEPT`). */
  newIds: Record<string, number>;
  deleted: number;
  duplicatesDeleted: number;
  ambiguousResolved: number;
  /** The first `FAILURES_KEPT` failed writes, in key order (`failedCount` counts them all). */
  failures: Failure[];
  failedCount: number;
  /** Every delete that failed, by key: their grace clocks stay. */
  failedDeletes: string[];
  notApplied: NotApplied;
  cancelled: boolean;
  /** Why writing stopped before the plan was done (the platform refused the key): the rest is in `notApplied`. */
  stopped?: string;
  /** What the writes learned of the platform that the report says (`RunReport.hints`). */
  hints?: MappingHint[];
}

/** Replaced keys whose cleared fields a run keeps for the next (`ApplyResult.cleared`). */
export const CLEARED_KEPT = 10_000;

interface Task {
  kind: 'creates' | 'updates' | 'deletes';
  keys: string[];
  run: () => Promise<void>;
}

/**
 * The marker field of `fields` a refused update names (a platform that requires it: an envelope
 * Code 400 or 422, an HTTP 400 or 422, whose message names the field), else undefined. A refusal
 * that names none (a content rule, a record the platform refuses whatever it holds) is no reason to
 * send the markers.
 */
function namesLeftOut(error: unknown, fields: readonly MarkerField[]): MarkerField | undefined {
  const refused =
    error instanceof PlatformError
      ? error.platformCode === 400 || error.platformCode === 422
      : error instanceof HttpStatusError && (error.status === 400 || error.status === 422);
  if (!refused) return undefined;
  const said = errorText(error).toLowerCase();
  return fields.find((field) => said.includes(field.toLowerCase()));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a plan's apply comes to before its first write (and a run stopped before applying). */
export function noWrites(): ApplyResult {
  return {
    created: 0,
    updated: 0,
    adopted: 0,
    markedSold: 0,
    replaced: 0,
    cleared: {},
    newIds: {},
    deleted: 0,
    duplicatesDeleted: 0,
    ambiguousResolved: 0,
    failures: [],
    failedCount: 0,
    failedDeletes: [],
    notApplied: { creates: [], updates: [], deletes: [] },
    cancelled: false,
  };
}

/**
 * Carry out a plan: one call per create, the whole record per update by remote ID, deletes batched.
 * Every write is independent: one failure is recorded and the rest go on.
 */
export async function applyPlan(
  client: PlatformClient,
  plan: Plan,
  options: ApplyOptions,
): Promise<ApplyResult> {
  const result = noWrites();
  const { chatbot, signal } = options;
  const refusals = new KeyRefusals();
  const failures = new FailureLog();
  const createContext = {
    client,
    chatbot,
    keyField: plan.keyField,
    feedId: plan.feedId,
    tags: options.tags,
    signal,
  };
  // The unknown markers an update leaves out (a field the feed never sets: a year an office typed in
  // stays), until the platform refuses an update for one missing: then every update sends them.
  const leftOut = unknownLeftOut(plan.clearable);
  let sendsMarkers = leftOut.length === 0;
  /** The update's request, the markers of `omit` left out of its record (`left`: some were). */
  const request = (update: PlannedUpdate, omit: readonly MarkerField[]) => {
    const { loader } = options;
    const key = String(update.id);
    // The feed's record was checked when the feed was read, and is sent as its store kept it where
    // it can be; a listing marked Sold is the platform's own, checked whole.
    const json = update.markSold ? undefined : loader.json?.(update.desired);
    if (json !== undefined) {
      const body = withoutUnknownJson(json, omit);
      return {
        left: body.length !== json.length,
        send: () => client.updateListingJson(chatbot, key, body, LISTING_CHECKED),
      };
    }
    const whole = loader.load(update.desired);
    const listing = withoutUnknown(whole, omit);
    return {
      left: listing !== whole,
      send: () =>
        client.updateListing(
          { ...listing, SerialNumber: chatbot, Key: key, KeyType: 'NewOaks' },
          update.markSold ? {} : LISTING_CHECKED,
        ),
    };
  };
  const run = (update: PlannedUpdate) => async () => {
    if (update.replace && !update.markSold) return replace(update);
    try {
      let count: number;
      const first = request(update, sendsMarkers || update.markSold ? [] : leftOut);
      try {
        count = await first.send();
      } catch (error) {
        // A platform that takes the fields required on create as required on update (4.4's table;
        // its example leaves several out) refuses the record, naming a field left out: sent again
        // with the markers, and so is every later update of the run. Any other refusal is a failure.
        const named = first.left ? namesLeftOut(error, leftOut) : undefined;
        if (named === undefined) throw error;
        count = await request(update, []).send();
        if (!sendsMarkers) {
          sendsMarkers = true;
          result.hints = [
            {
              code: 'update_needs_markers',
              message: `the platform refused an update without ${named} (${errorText(error)}): from then on, this run's updates sent the unknown marker 0 in ${leftOut.join(', ')}, which the feed never sets, overwriting any value typed into them on the platform`,
              fix: 'nothing to fix in the config: the platform requires every field on update. To keep a value typed in by hand, map the field from the feed',
            },
          ];
        }
      }
      refusals.done();
      if (count === 0) {
        const message = `update: listing ID ${update.id} no longer exists; the next run recreates it`;
        failures.push({
          key: update.key,
          operation: 'update',
          id: update.id,
          code: 'E_NOT_FOUND',
          message,
        });
        return;
      }
      result.updated++;
      if (update.adopt) result.adopted++;
      if (update.markSold) result.markedSold++;
    } catch (error) {
      failures.push(toFailure(error, 'update', update.key, update.id));
      refusals.failed(error);
    }
  };
  /**
   * An update that clears a field (`PlannedUpdate.replace`): the spec has no value that clears one,
   * so the feed's record is created anew, then the old listing deleted by its ID. Created first: a
   * run stopped between the two leaves two listings of the key, and the next run deletes the one
   * that differs from the feed (a duplicate), never none. A create in doubt deletes nothing (it may
   * not have happened; it is not looked up: another listing of the key, a duplicate this run
   * deletes, would pass for it); a create answered with the old listing's own ID (a platform that
   * creates by MLSNumber as an update) deletes nothing; a create the platform refuses falls back to
   * the update, so the fields the feed sets still land. Either of the last two is noted in
   * `cleared`, so the next run does not try again (`platform-fills`).
   */
  const replace = async (update: PlannedUpdate) => {
    const { loader } = options;
    const changes = update.changes;
    const clears = changes.filter(isClear).map((c) => c.field);
    let id: string;
    try {
      const listing = loader.load(update.desired);
      // What the platform holds in the fields the feed leaves unset and does not clear (a value
      // added by hand) goes on the new listing too: a replace clears only what the feed stopped sending.
      const held = await heldBeside(client, chatbot, update.id, listing, changes);
      id = await client.createListing({ ...listing, ...held, SerialNumber: chatbot }, LISTING_CHECKED);
      refusals.done();
    } catch (error) {
      failures.push(toFailure(error, 'create', update.key, update.id));
      refusals.failed(error);
      if (error instanceof AmbiguousCreateError || refusals.stopped !== undefined) return;
      // Refused (a 4xx, a business error): the update without the clear, as before there were
      // clears; the clear is not tried again by the next run.
      noteCleared(update.key, clears);
      await run({ ...update, replace: undefined } as PlannedUpdate)();
      return;
    }
    result.updated++;
    if (update.adopt) result.adopted++;
    if (id === String(update.id)) {
      // The platform updated the listing in place: nothing to delete, and the clear did not happen.
      noteCleared(update.key, clears);
      return;
    }
    try {
      await client.deleteListings({ SerialNumber: chatbot, Keys: [String(update.id)], KeyType: 'NewOaks' });
      refusals.done();
      if (result.replaced++ < CLEARED_KEPT) result.newIds[update.key] = Number(id);
      noteCleared(update.key, clears);
    } catch (error) {
      // The new listing is there: the next run deletes the old one as a duplicate of its key.
      failures.push(toFailure(error, 'delete', update.key, update.id));
      refusals.failed(error);
    }
  };
  /** The fields a replace cleared (or could not), by key, for the next run (`ApplyResult.cleared`). */
  let notes = 0;
  const noteCleared = (key: string, fields: string[]) => {
    if (notes++ < CLEARED_KEPT) result.cleared[key] = fields;
  };
  const create = (planned: PlannedCreate) => async () => {
    try {
      const { outcome } = await createPlanned(createContext, options.loader, planned);
      refusals.done();
      result.created++;
      if (outcome === 'resolved') result.ambiguousResolved++;
    } catch (error) {
      failures.push(toFailure(error, 'create', planned.key));
      refusals.failed(error);
    }
  };
  /**
   * Tasks are made one at a time as a worker asks for the next: a plan of 100k creates never
   * holds 100k closures and pending promises at once, only `concurrency` of them.
   */
  function* tasks(): Generator<Task> {
    for (const u of plan.updates) yield { kind: 'updates', keys: [u.key], run: run(u) };
    // In the feed's order, not key order: each record is read from the run's store front to back.
    for (const c of inStoreOrder(plan.creates)) yield { kind: 'creates', keys: [c.key], run: create(c) };
    const size = Math.max(1, options.deleteBatchSize);
    for (let i = 0; i < plan.deletes.length; i += size) {
      const batch = itemsOf(plan.deletes, i, size);
      yield {
        kind: 'deletes',
        keys: batch.map((d) => d.key),
        run: () => deleteBatch(client, chatbot, batch, result, failures, refusals),
      };
    }
  }
  const total =
    plan.updates.length +
    plan.creates.length +
    Math.ceil(plan.deletes.length / Math.max(1, options.deleteBatchSize));

  const queue = tasks();
  let done = 0;
  let crash: { reason: unknown } | undefined;
  const worker = async () => {
    for (let next = queue.next(); !next.done; next = queue.next()) {
      const task = next.value;
      if (signal?.aborted || refusals.stopped !== undefined) {
        if (signal?.aborted) result.cancelled = true;
        result.notApplied[task.kind].push(...task.keys);
        continue;
      }
      try {
        await task.run();
        options.onProgress?.(++done, total);
      } catch (reason) {
        // A programming error: the other writes still finish, then it is thrown.
        crash ??= { reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, total)) }, worker));
  if (crash) throw crash.reason;
  // A stop with nothing left to issue changed nothing: the run ends as its failures say.
  if (refusals.stopped !== undefined && notAppliedCount(result.notApplied) > 0)
    result.stopped = refusals.stopped;
  // In key order, not completion order: two runs of one plan report alike.
  result.failures = failures.sorted();
  result.failedCount = failures.count;
  result.failedDeletes = failures.failedDeletes;
  result.notApplied.creates.sort();
  return result;
}

/**
 * The values listing `id` holds in fields `listing` (the feed's record) leaves unset and `changes`
 * do not clear: read from the platform (the list filtered by the listing's MLSNumber), for a replace
 * to keep them. None when the listing is not found (deleted meanwhile: the replace creates).
 */
async function heldBeside(
  client: PlatformClient,
  chatbot: string,
  id: number,
  listing: Listing,
  changes: readonly FieldChange[],
): Promise<Partial<Listing>> {
  const mls = changes.find((c) => c.field === 'MLSNumber')?.from ?? listing.MLSNumber;
  const page = await client.listListings({ SerialNumber: chatbot, MLSNumber: String(mls), PageSize: 100 });
  const found = page.List.map(canonicalizeRemote).find((r) => r.id === id);
  if (found === undefined) return {};
  // A field the run changes (a clear, or a marker 0 the feed now says) is the feed's.
  const changed = new Set(changes.map((c) => c.field));
  const held: Partial<Listing> = {};
  for (const field of RETURNED_FIELDS) {
    if (field === 'ExtensionColumn' || changed.has(field) || !leavesUnset(field, listing[field])) continue;
    const value = found.listing[field];
    // Only a value the listing schema takes (the list may return an enum the create refuses).
    if (!isUnset(value) && listingSchema.shape[field].safeParse(value).success)
      (held as Record<string, unknown>)[field] = value;
  }
  return held;
}

async function deleteBatch(
  client: PlatformClient,
  chatbot: string,
  batch: PlannedDelete[],
  result: ApplyResult,
  failures: FailureLog,
  refusals: KeyRefusals,
) {
  try {
    // Fewer deleted than sent means some were already gone: that is the state we wanted.
    const count = await client.deleteListings({
      SerialNumber: chatbot,
      Keys: batch.map((d) => String(d.id)),
      KeyType: 'NewOaks',
    });
    refusals.done();
    result.deleted += Math.min(count, batch.length);
    result.duplicatesDeleted += batch.filter((d) => d.reason === 'duplicate').length;
  } catch (error) {
    for (const d of batch) failures.push(toFailure(error, 'delete', d.key, d.id));
    refusals.failed(error);
  }
}
