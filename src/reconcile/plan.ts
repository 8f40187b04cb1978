import { RETURNED_FIELDS } from '../api/index.ts';
import type { Listing, ListingField } from '../normalize/index.ts';
import { int32s } from '../number-column.ts';
import { BrokenRowIndex } from './broken-rows.ts';
import { clearsAny, isClear } from './compare.ts';
import { DesiredIndex } from './desired-index.ts';
import { maskOfFields } from './digest.ts';
import { DELETE_AT_ONCE, decideGone, keepsClock, type Leaving } from './gone-policy.ts';
import { type AdoptedOwner, applyDeleteGuards, REMOVED_FLOOR } from './guards.ts';
import { keysDigest } from './held-digest.ts';
import { ownsListing } from './ownership.ts';
import type {
  DesiredListing,
  FieldChange,
  GonePolicy,
  GuardDecision,
  Plan,
  PlanPolicy,
  RemoteEntries,
  SkippedListing,
} from './plan-types.ts';
import { PlannedCreates } from './planned-creates.ts';
import { DeleteColumns, PlannedDeletes } from './planned-deletes.ts';
import { PlannedForeign, PlannedSkipped } from './planned-elsewhere.ts';
import { HeldIndex, PlannedHeld } from './planned-held.ts';
import { type UpdateSources, UpdatesBuilder } from './planned-updates.ts';
import { UnchangedKeys } from './unchanged-keys.ts';

/** The matching key of a listing (`MLSNumber` or `Url`), trimmed; undefined when it has none. */
export function keyOf(listing: Partial<Listing>, field: 'MLSNumber' | 'Url'): string | undefined {
  const value = listing[field]?.trim();
  return value ? value : undefined;
}

const byKeyThenId = (a: { key: string; id?: number }, b: { key: string; id?: number }) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : (a.id ?? 0) - (b.id ?? 0);

interface Context {
  policy: PlanPolicy;
  remote: RemoteEntries;
  /** Whether the remote listing at a position is this feed's. */
  isMine: (i: number) => boolean;
}

/**
 * Make a chatbot's listings equal to the feed: what to create, update and delete. Pure.
 * Matches by the feed's key, compares in canonical form (the remote entries carry the comparison,
 * see `remoteEntries`), touches only listings this feed owns (adopting a hand-added one whose key is
 * in the feed, unless `adopt: false`), addresses every update and delete by the remote ID, and runs
 * the delete guards. Holds a digest per listing on both sides, never whole records (the run adds a
 * brief of the first writes afterwards, `withBriefs`). `desired` is the feed's listings by trimmed
 * key (the last record of a key wins: see `desiredByKey`); `remote` the chatbot's, in ID order.
 *
 * Its working sets stay small at 300k listings: remote listings are addressed by their position in
 * ID order and grouped by the feed's record of their key (an array by record), not by maps of keys;
 * a create or an update carries only the number of its record.
 */
export function makePlan(desired: DesiredIndex, remote: RemoteEntries, policy: PlanPolicy): Plan {
  const isMine = (i: number) => ownsListing(policy, remote.ownerAt(i));
  const ctx: Context = { policy, remote, isMine };
  const groups = groupByRecord(remote, desired.refCount);
  const heldKeys = new HeldIndex(policy.held ?? []);
  const touched = new Uint8Array(remote.length);

  const creates: number[] = [];
  const { sources, changesRefAt } = updateSources(desired, remote);
  const clearsAt = (i: number) =>
    remote.clearsAt ? remote.clearsAt(i) : clearsAny(comparedChangesAt(remote, i));
  const updates = new UpdatesBuilder(sources);
  // Every delete the plan finds, and the marks Sold the guards count with them, in columns.
  const found = new DeleteColumns();
  const unchanged = new UnchangedKeys(keysOf(desired), keyOrderOf(desired));
  const skipped = new PlannedSkipped();
  let wantedCount = 0;
  /** Listings of each former id of the feed (`adoptFrom`) whose key the feed has. */
  const matched = new Map<string, number>();

  /** The key's listing found among the feed's own (`keeper`), and its duplicates (`extras`). */
  const keep = (key: () => string, ref: number, keeper: number, extras: readonly number[]) => {
    touched[keeper] = 1;
    const owner = remote.ownerAt(keeper);
    if (owner !== undefined && owner !== policy.feedId) matched.set(owner, (matched.get(owner) ?? 0) + 1);
    for (const extra of extras) {
      touched[extra] = 1;
      found.add(key(), remote.idAt(extra), 'duplicate');
    }
    // A listing a former id of the feed tagged (`adoptFrom`) differs in its owner tag: it is
    // written once more, to carry this id.
    if (!remote.differsAt(keeper)) {
      unchanged.add(ref);
      return;
    }
    let replace = clearsAt(keeper);
    if (replace && (policy.clearedBefore !== undefined || createdBefore.size > 0)) {
      const k = key();
      const cleared = policy.clearedBefore?.[k];
      const created = createdBefore.has(k) ? GEOCODED_FIELDS : undefined;
      const before = cleared && created ? [...cleared, ...created] : (cleared ?? created);
      const changes = before === undefined ? [] : comparedChangesAt(remote, keeper);
      const clears = changes.filter(isClear).map((c) => c.field);
      // Cleared by the last run's replace, or left out by its create, and held now: the platform
      // fills it (a geocoder, a default). Not replaced for it.
      if (before !== undefined && clears.every((field) => before.includes(field))) {
        refilled.set(k, clears);
        if (!clears.every((field) => cleared?.includes(field))) filledAfterCreate.add(k);
        replace = false;
        if (changes.every(isClear)) {
          unchanged.add(ref);
          return;
        }
      }
    }
    updates.add(ref, remote.idAt(keeper), changesRefAt(keeper), owner !== policy.feedId, replace);
  };
  /** Keys holding again what a replace cleared (said as `platform-fills`, noted in `Plan.clearedNotes`). */
  const refilled = new Map<string, string[]>();
  /** Keys a run created without coordinates the feed sets on others (`PlanPolicy.createdUnset`). */
  const createdBefore = new Set(policy.createdUnset);
  /** Of the keys holding again what was cleared, those a run created without it (`createdBefore`). */
  const filledAfterCreate = new Set<string>();

  const anyHeld = heldKeys.size > 0;
  desired.forEachRef((ref, keyOf) => {
    // A key that is held (its last record was rejected) is never written, even if an earlier record
    // was valid. The key's string is made only when something needs it (not for the usual key of a
    // feed with nothing held: a million strings at 1M).
    if (anyHeld && heldKeys.find(keyOf()) !== -1) return;
    wantedCount++;
    // The usual key: one listing on the chatbot has it, and it is the feed's own.
    const only = groups.only(ref);
    if (only >= 0 && isMine(only)) {
      keep(keyOf, ref, only, NO_EXTRAS);
      return;
    }
    const key = keyOf();
    const group = groups.of(ref);
    const mine = group.filter(isMine);
    if (mine.length > 0) {
      const [keeper, ...extras] = pickKeeper(mine, remote);
      keep(() => key, ref, keeper, extras);
      return;
    }
    const resolved = resolveForeign(key, group, ctx);
    if ('adopt' in resolved) {
      touched[resolved.adopt] = 1;
      updates.add(
        ref,
        remote.idAt(resolved.adopt),
        changesRefAt(resolved.adopt),
        true,
        clearsAt(resolved.adopt),
      );
    } else if ('skip' in resolved) skipped.add(resolved.skip);
    else creates.push(ref);
  });

  // Before the listings leaving: a held key's listings are touched, never gone.
  const held = planHeld(heldKeys, ctx, touched);
  const leaving = planLeaving(desired, touched, ctx, found);
  const gonePolicy = policy.gone ?? DELETE_AT_ONCE;
  const keepClock = keepsClock(gonePolicy, policy.mode);
  const gone = decideGone(leaving, {
    policy: gonePolicy,
    since: policy.goneSince ?? {},
    now: clockOf(policy, gonePolicy, leaving.length),
    remote,
    brokenRows: new BrokenRowIndex(policy.brokenRows ?? []),
    keepsClock: keepClock,
    deletes: found,
  });
  let ownedCount = 0;
  const foreign = new PlannedForeign();
  // Removals the feed states for a key another owner holds: left to that owner, and said.
  const removals = policy.removals && policy.removals.length > 0 ? new Set(policy.removals) : undefined;
  let removalsElsewhere: { count: number; owners: string[] } | undefined;
  for (let i = 0; i < remote.length; i++) {
    if (isMine(i)) ownedCount++;
    else if (touched[i] === 0) {
      const key = remote.keyAt(i) ?? '';
      foreign.add(key, remote.idAt(i), remote.ownerAt(i));
      if (removals?.has(key)) {
        removalsElsewhere ??= { count: 0, owners: [] };
        removalsElsewhere.count++;
        const owner = remote.ownerAt(i) ?? '';
        if (!removalsElsewhere.owners.includes(owner)) removalsElsewhere.owners.push(owner);
      }
    }
  }
  // Marking a listing Sold loses it as surely as deleting it: the guards count both (`found` holds
  // the marks beside the deletes).
  // Keys a sweep lists count as wanted: an empty run of a listed feed is not an empty feed.
  const listed = Math.max(wantedCount, policy.present?.size ?? 0);
  const adopted = adoptedOwners(policy, remote, leaving, found, matched);
  const guard = applyDeleteGuards({ policy, desiredCount: listed, ownedCount, deletes: found, adopted });
  const allowed = guard.allowed.filter((i) => !found.isMark(i));
  for (const i of guard.allowed) if (found.isMark(i)) updates.addMark(found, i);
  // A mark a guard held back did not happen: the listing is not Sold, and its grace has not begun.
  const unmarked = new Set<number>();
  for (const i of guard.held) {
    if (!found.isMark(i)) continue;
    unmarked.add(found.idAt(i));
    const key = found.keyAt(i);
    const earlier = policy.goneSince?.[key];
    if (earlier === undefined) delete gone.goneSince[key];
    else gone.goneSince[key] = earlier;
  }

  const replaceGuard = guardReplaces(updates, policy, ownedCount, unchanged);
  const fills = refilledDecision(refilled, filledAfterCreate);
  const notes = clearedNotes(policy, desired, refilled);
  const createdUnset = createdUnsetOf(desired, creates, createdBefore, refilled, policy);

  return {
    feedId: policy.feedId,
    chatbot: policy.chatbot,
    keyField: policy.keyField,
    mode: policy.mode,
    clearable: desired.clearable(),
    creates: PlannedCreates.inKeyOrder(creates, keysOf(desired), keyOrderOf(desired)),
    updates: updates.finish(),
    deletes: PlannedDeletes.inKeyOrder(found, allowed),
    heldDeletes: PlannedDeletes.inKeyOrder(found, guard.held),
    unchanged,
    // One entry per held key (a feed whose every record is rejected holds them all), made when read.
    held: held.finish(gone.held, byKeyThenId),
    grace: gone.grace.inKeyOrderWithout(unmarked),
    goneSince: gone.goneSince,
    foreign: foreign.finish(),
    skipped: skipped.finish(),
    guards: [...guard.decisions, ...(replaceGuard ? [replaceGuard] : []), ...(fills ? [fills] : [])],
    ownedCount,
    ...(notes.size > 0 ? { clearedNotes: Object.fromEntries(notes) } : {}),
    ...(createdUnset.size > 0 ? { createdUnset: [...createdUnset] } : {}),
    ...(removalsElsewhere ? { removalsElsewhere } : {}),
  };
}

/** Keys a guard decision names. */
const NAMED_KEYS = 10;

/**
 * A replace deletes a listing and creates it anew (a new ID): many at once are a mass delete in all
 * but name, and a feed that blanked a column by mistake (its photos, its prices) would wipe it from
 * every listing. Beyond `maxDeleteShare` of the owned listings (or `REMOVED_FLOOR`), the replaces
 * are held (guard `mass-replace`): no write where the clears (and the record hash) were all, else
 * a plain update without the clears; `--allow-mass-delete` lets them through.
 */
function guardReplaces(
  updates: UpdatesBuilder,
  policy: PlanPolicy,
  owned: number,
  unchanged: UnchangedKeys,
): GuardDecision | undefined {
  const count = updates.replaceCount();
  const limit = Math.max(Math.floor(policy.maxDeleteShare * owned), REMOVED_FLOOR);
  if (count <= limit) return undefined;
  const what = `${count} listing(s) would be replaced to clear a value the feed no longer sends, more than ${limit} (maxDeleteShare ${policy.maxDeleteShare} of ${owned} owned`;
  if ((policy.allowMassDelete && !policy.allowDeletesOnly) || policy.allowMassReplace)
    return {
      guard: 'mass-replace',
      tripped: false,
      overridden: true,
      message: `${what}): allowed by ${policy.allowMassDelete ? '--allow-mass-delete' : 'the override given for the replaces'}`,
    };
  const { keys, dropped } = updates.holdReplaces();
  // Held with nothing else to write: left as they are, counted with the unchanged.
  for (const ref of dropped) unchanged.add(ref);
  const named = `${keys.slice(0, NAMED_KEYS).join(', ')}${keys.length > NAMED_KEYS ? ', …' : ''}`;
  return {
    guard: 'mass-replace',
    tripped: true,
    held: { digest: keysDigest(keys), count: keys.length },
    message: `${what}, or ${REMOVED_FLOOR}): held, each left as it is, or updated without the clear where the feed changed something else (${named}); a feed that blanked a column by mistake would wipe it from every listing. If the feed means it, --allow-mass-delete replaces them; unsetFields: keep never clears`,
  };
}

/**
 * The notes of what replaces cleared (`PlanPolicy.clearedBefore`) the next run reads: this run's
 * `refilled`, and the earlier notes of keys whose feed record still leaves those fields unset (an
 * incremental run keeps those of the keys it did not read). A note goes once the feed sets the
 * field again (a price back: a later "on request" is cleared again) or, in a full run, the key
 * leaves the feed. Bounded by the feed's keys.
 */
function clearedNotes(
  policy: PlanPolicy,
  desired: DesiredIndex,
  refilled: ReadonlyMap<string, string[]>,
): Map<string, string[]> {
  const notes = new Map<string, string[]>();
  for (const [key, fields] of Object.entries(policy.clearedBefore ?? {})) {
    const ref = desired.refOf(key);
    if (ref < 0) {
      if (policy.mode === 'incremental') notes.set(key, [...fields]);
      continue;
    }
    const mask = desired.maskAt(ref);
    const unset = fields.filter(
      (field) => (mask & (1 << RETURNED_FIELDS.indexOf(field as ListingField))) === 0,
    );
    if (unset.length > 0) notes.set(key, unset);
  }
  for (const [key, fields] of refilled) notes.set(key, fields);
  return notes;
}

/**
 * Listings whose replace last run cleared a field the platform holds again: it fills the field
 * itself (a geocoder, a default), and replacing them again would do so on every run, a new ID each
 * time. Said (`platform-fills`, not a tripped guard); `unsetFields: keep` says it for the feed.
 */
function refilledDecision(
  refilled: ReadonlyMap<string, readonly string[]>,
  afterCreate: ReadonlySet<string>,
): GuardDecision | undefined {
  if (refilled.size === 0) return undefined;
  const said = (keys: string[], what: string) => {
    if (keys.length === 0) return [];
    const fields = [...new Set(keys.flatMap((key) => refilled.get(key) ?? []))].sort();
    const named = `${keys.slice(0, NAMED_KEYS).join(', ')}${keys.length > NAMED_KEYS ? ', …' : ''}`;
    return [`${keys.length} listing(s) hold ${fields.join(', ')} ${what} (${named})`];
  };
  const keys = [...refilled.keys()];
  const parts = [
    ...said(
      keys.filter((key) => !afterCreate.has(key)),
      'again, which an earlier replace cleared or could not clear, or a create left out (the platform fills it itself, or refused the replace): not replaced again, kept as the platform holds it',
    ),
    ...said(
      keys.filter((key) => afterCreate.has(key)),
      'since a run created them without it (the feed leaves it unset on them: the platform fills it itself, a geocoder): not replaced for it, kept as the platform holds it',
    ),
  ];
  return {
    guard: 'platform-fills',
    tripped: false,
    message: `${parts.join('; ')}; unsetFields: keep stops the clearing for this feed`,
  };
}

/**
 * The fields a platform fills in a listing created without them (`createdUnsetOf`): its geocoder's
 * coordinates. Any other field a listing holds that the feed leaves unset was typed in (an office's
 * description), and is cleared as ever; a platform that fills one is told by its first replace
 * (`platform-fills` after a replace).
 */
export const GEOCODED_FIELDS: readonly string[] = ['Latitude', 'Longitude'];
const GEOCODED_MASK = maskOfFields(GEOCODED_FIELDS);

/**
 * The keys of listings created without coordinates the feed sets on others (`DesiredIndex.clearable`
 * within `GEOCODED_MASK`), for the next run (`Plan.createdUnset`): a platform that fills them itself
 * (a geocoder) would otherwise have a later run replace the listing to clear them, a new ID for each
 * new listing; the run that finds them filled takes them as the platform's (`platform-fills`, and
 * the key's note moves to `Plan.clearedNotes`). This run's creates first; then the earlier notes
 * (`createdBefore`) of keys not found filled (a geocoder that fills a listing a run or more later),
 * while their record still leaves a coordinate unset: an incremental run keeps those of the keys it
 * did not read, unless the feed removed them. Bounded by the feed's keys, as `clearedNotes` is.
 */
function createdUnsetOf(
  desired: DesiredIndex,
  creates: readonly number[],
  createdBefore: ReadonlySet<string>,
  refilled: ReadonlyMap<string, string[]>,
  policy: PlanPolicy,
): Set<string> {
  const notes = new Set<string>();
  const clearable = desired.clearable() & GEOCODED_MASK;
  const leavesUnset = (ref: number) => (clearable & ~desired.maskAt(ref)) !== 0;
  if (clearable !== 0) for (const ref of creates) if (leavesUnset(ref)) notes.add(desired.keyAt(ref));
  if (createdBefore.size === 0) return notes;
  const removed = policy.mode === 'incremental' ? new Set(policy.removals) : undefined;
  for (const key of createdBefore) {
    if (refilled.has(key)) continue;
    const ref = desired.refOf(key);
    if (ref < 0 ? removed !== undefined && !removed.has(key) : leavesUnset(ref)) notes.add(key);
  }
  return notes;
}

/** The feed's listings by trimmed key, the last of a key winning: what `makePlan` takes. */
export function desiredByKey(desired: Iterable<DesiredListing>): DesiredIndex {
  const index = new DesiredIndex();
  const refs: number[] = [];
  for (const d of desired) refs.push(index.add(d));
  return index.keep(refs);
}

/**
 * The feed's key of a record, as a closure over the index alone. Closures made in `makePlan` share
 * its scope, which holds the remote entries: a plan holding one of those would hold them all.
 */
function keysOf(desired: DesiredIndex): (ref: number) => string {
  return (ref) => desired.keyAt(ref);
}

/** Two records in the order of their keys, made of none (`compareKeys`), as a closure over the index alone. */
function keyOrderOf(desired: DesiredIndex): (a: number, b: number) => number {
  return (a, b) => desired.compareKeys(a, b);
}

/**
 * What the plan's updates read their keys and changes through, and where each remote listing's
 * changes are for them (`changesRefAt`). Entries that keep their changes elsewhere (the run's record
 * store: `changeRefAt`/`changesByRef`) are not held by the updates, and are let go of once the plan
 * is made (~28 MB at a million listings); others (test fakes) are read by position.
 */
function updateSources(
  desired: DesiredIndex,
  remote: RemoteEntries,
): { sources: UpdateSources; changesRefAt: (i: number) => number } {
  const { changesByRef, changeRefAt } = remote;
  if (changesByRef !== undefined && changeRefAt !== undefined)
    return {
      sources: { keyAt: keysOf(desired), changesAt: changesByRef, compareKeys: keyOrderOf(desired) },
      changesRefAt: changeRefAt.bind(remote),
    };
  return {
    sources: {
      keyAt: keysOf(desired),
      changesAt: (i) => comparedChangesAt(remote, i),
      compareKeys: keyOrderOf(desired),
    },
    changesRefAt: (i) => i,
  };
}

/** A remote entry whose key the feed has always carries its comparison; this says so to the types. */
function comparedChangesAt(remote: RemoteEntries, i: number): readonly FieldChange[] {
  const changes = remote.changesAt(i);
  if (changes === undefined)
    throw new Error(`remote listing ${remote.idAt(i)} was not compared with the feed`);
  return changes;
}

/**
 * Positions (in ID order) of the remote listings of each of the feed's records: the first in an
 * array by record (-1: none), any further ones (a key listed twice) in a map.
 */
function groupByRecord(remote: RemoteEntries, records: number) {
  const first = new Int32Array(records).fill(-1);
  const more = new Map<number, number[]>();
  for (let i = 0; i < remote.length; i++) {
    const ref = remote.refAt(i);
    if (ref < 0) continue;
    if (first[ref] === -1) first[ref] = i;
    else {
      const list = more.get(ref);
      if (list === undefined) more.set(ref, [first[ref] as number, i]);
      else list.push(i);
    }
  }
  return {
    of(ref: number): number[] {
      const at = first[ref] ?? -1;
      return at === -1 ? [] : (more.get(ref) ?? [at]);
    },
    /** The position of the record's one listing; -1 when it has none, -2 when it has several. */
    only(ref: number): number {
      const at = first[ref] ?? -1;
      return at === -1 || !more.has(ref) ? at : -2;
    },
  };
}

const NO_EXTRAS: readonly number[] = [];

/** Of several owned listings with one key (positions in ID order), keep an unchanged one if any, else the oldest. */
function pickKeeper(mine: number[], remote: RemoteEntries): [number, ...number[]] {
  if (mine.length === 1) return [mine[0] as number];
  const clean = mine.findIndex((i) => comparedChangesAt(remote, i).length === 0);
  const index = clean === -1 ? 0 : clean;
  return [mine[index] as number, ...mine.filter((_, i) => i !== index)];
}

/** Adopt the hand-added listing at a position, skip the key, or create its listing. */
type Resolution = { adopt: number } | { skip: SkippedListing } | { create: true };

/** No owned listing holds the key: adopt a hand-added one, skip one owned by another feed, or create. */
function resolveForeign(key: string, group: number[], ctx: Context): Resolution {
  const { remote } = ctx;
  const untagged = group.find((i) => remote.ownerAt(i) === undefined);
  if (untagged !== undefined && ctx.policy.adopt) return { adopt: untagged };
  if (untagged !== undefined) return { skip: { key, id: remote.idAt(untagged), reason: 'adopt-disabled' } };
  const [other] = group;
  if (other !== undefined) {
    const id = remote.idAt(other);
    const owner = remote.ownerAt(other);
    return { skip: { key, id, reason: 'owned-by-other-feed', ...(owner ? { owner } : {}) } };
  }
  return { create: true };
}

/**
 * Held keys with the owned remote listings they keep (a listing owned by another feed is not ours
 * to hold), those listings marked `touched`; the plan adds the listings broken rows hold
 * (`PlannedHeld.finish`). A held key is not the feed's, so its listings are found by key.
 */
function planHeld(heldKeys: HeldIndex, ctx: Context, touched: Uint8Array): PlannedHeld {
  const { remote } = ctx;
  const held = new PlannedHeld(heldKeys);
  if (heldKeys.size > 0)
    for (let i = 0; i < remote.length; i++) {
      const key = remote.keyAt(i);
      if (key === undefined || !ctx.isMine(i)) continue;
      const id = heldKeys.find(key);
      if (id === -1) continue;
      touched[i] = 1;
      held.keep(id, remote.idAt(i));
    }
  return held;
}

/**
 * Per former id of the feed (`adoptFrom`): its listings whose key the feed has, and the deletes (and
 * marks) of its listings leaving the feed this run (not those an earlier run put on the clock), for
 * the guard that checks the former id is this feed's.
 */
function adoptedOwners(
  policy: PlanPolicy,
  remote: RemoteEntries,
  leaving: Iterable<Leaving>,
  found: DeleteColumns,
  matched: ReadonlyMap<string, number>,
): AdoptedOwner[] {
  if ((policy.adoptFrom ?? []).length === 0) return [];
  const ownerById = new Map<number, string>();
  for (const l of leaving) {
    // One on this feed's clock already (a grace that began on an earlier run, the adopting one) is
    // this feed's judgement, not a guess: its end is not held again.
    if (Object.hasOwn(policy.goneSince ?? {}, l.key)) continue;
    const owner = remote.ownerAt(l.position);
    if (owner !== undefined && owner !== policy.feedId) ownerById.set(l.id, owner);
  }
  const byOwner = new Map<string, number[]>();
  for (let i = 0; i < found.length; i++) {
    if (found.reasonAt(i) === 'duplicate') continue;
    const owner = ownerById.get(found.idAt(i));
    if (owner === undefined) continue;
    const list = byOwner.get(owner);
    if (list === undefined) byOwner.set(owner, [i]);
    else list.push(i);
  }
  return [...byOwner].map(([owner, numbers]) => ({
    owner,
    matched: matched.get(owner) ?? 0,
    leaving: numbers,
  }));
}

/**
 * Owned listings the feed no longer wants (in ID order): removed status, gone from a full feed (both
 * leaving, by the feed's `gone` policy), or duplicates (deleted, into `deletes`). An incremental
 * feed names a removal once: a listing an earlier run found removed and did not delete yet (its
 * grace, a guard) is still leaving while its key is on the clock (`goneSince`).
 */
function planLeaving(
  desired: DesiredIndex,
  touched: Uint8Array,
  ctx: Context,
  found: DeleteColumns,
): LeavingList {
  const { remote } = ctx;
  const removals = new Set(ctx.policy.removals ?? []);
  const pending = ctx.policy.goneSince ?? {};
  /**
   * A key the run keeps without its record (not in an incremental read, or listed by a sweep): the
   * newest of its listings (IDs ascend), the others deleted as duplicates. The newest is the one a
   * replace made, where its old listing's delete failed (the old one holds the value it cleared).
   */
  const kept = new Map<string, number>();
  const keep = (key: string, i: number) => {
    const before = kept.get(key);
    if (before !== undefined) found.add(key, remote.idAt(before), 'duplicate');
    kept.set(key, i);
  };
  const leaving = new LeavingList(remote);
  for (let i = 0; i < remote.length; i++) {
    if (touched[i] === 1 || !ctx.isMine(i)) continue;
    const key = remote.keyAt(i) ?? '';
    if (key && desired.has(key)) continue;
    if (key && (removals.has(key) || (ctx.policy.mode === 'incremental' && Object.hasOwn(pending, key))))
      leaving.add(i, 'removed');
    // A key a RESO sweep listed is still in the feed, though not sent this run: left as it is.
    else if (key && ctx.policy.present?.has(key)) keep(key, i);
    else if (ctx.policy.mode === 'full') leaving.add(i, 'gone');
    // Listings without a key are not duplicates of one another: left as they are.
    else if (key) keep(key, i);
  }
  return leaving;
}

/**
 * The owned listings leaving the feed, as their positions in the remote entries (4 bytes each, the
 * reason in the lowest bit): a `Leaving` is made as it is read, its key and ID from the entries. A
 * big feed that came back half empty has hundreds of thousands of them.
 */
class LeavingList implements Iterable<Leaving> {
  readonly #remote: RemoteEntries;
  readonly #places = int32s();
  length = 0;

  constructor(remote: RemoteEntries) {
    this.#remote = remote;
  }

  add(position: number, reason: Leaving['reason']): void {
    this.#places.set(this.length++, position * 2 + (reason === 'removed' ? 1 : 0));
  }

  *[Symbol.iterator](): Iterator<Leaving> {
    for (let n = 0; n < this.length; n++) {
      const place = this.#places.get(n);
      const position = place >>> 1;
      const key = this.#remote.keyAt(position) ?? '';
      yield { key, id: this.#remote.idAt(position), position, reason: place & 1 ? 'removed' : 'gone' };
    }
  }
}

/** The run's clock: only a policy that keeps listings a while needs one. */
function clockOf(policy: PlanPolicy, gone: GonePolicy, leaving: number): number {
  if (policy.now !== undefined) return policy.now;
  // Deleting at once decides nothing by the clock (an incremental feed keeps one only for a delete
  // a guard holds back, and every run hands its own clock over).
  if (leaving === 0 || (gone.afterDays === 0 && gone.action === 'delete')) return 0;
  throw new Error('makePlan: policy.now is required when the gone policy keeps listings');
}
