import type { Listing } from '../normalize/listing-schema.ts';
import type { HeldKey } from '../sources/types.ts';
import { applyDeleteGuards } from './guards.ts';
import type {
  DesiredListing,
  FieldChange,
  ForeignListing,
  HeldListing,
  Plan,
  PlannedCreate,
  PlannedDelete,
  PlannedUpdate,
  PlanPolicy,
  SkippedListing,
} from './plan-types.ts';

/** The matching key of a listing (`MLSNumber` or `Url`), trimmed; undefined when it has none. */
export function keyOf(listing: Partial<Listing>, field: 'MLSNumber' | 'Url'): string | undefined {
  const value = listing[field]?.trim();
  return value ? value : undefined;
}

/**
 * A remote listing as the plan needs it: who owns it, its key, and, when the feed has a listing
 * with that key, what an update would change. The snapshot keeps this instead of the listing.
 */
export interface RemoteEntry {
  id: number;
  key: string | undefined;
  owner: string | undefined;
  /** Set when the feed has a listing with this key: the fields that differ (empty: the same). */
  changes?: readonly FieldChange[];
}

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
const byKeyThenId = (a: { key: string; id?: number }, b: { key: string; id?: number }) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : (a.id ?? 0) - (b.id ?? 0);

interface Context {
  policy: PlanPolicy;
  isMine: (r: RemoteEntry) => boolean;
}

/**
 * Make a chatbot's listings equal to the feed: what to create, update and delete. Pure.
 * Matches by the feed's key, compares in canonical form (the remote entries carry the comparison,
 * see `remoteEntryOf`), touches only listings this feed owns (adopting a hand-added one whose key is
 * in the feed, unless `adopt: false`), addresses every update and delete by the remote ID, and runs
 * the delete guards. Holds a digest per listing on both sides, never whole records (the run adds a
 * brief of the first writes afterwards, `withBriefs`). `desired` is the feed's listings by trimmed
 * key (the last record of a key wins: see `desiredByKey`).
 *
 * Its working sets stay small at 300k listings: remote listings are addressed by their position in
 * ID order (a byte each for "touched", a number per key for the groups), not by sets of objects.
 */
export function makePlan(
  desired: ReadonlyMap<string, DesiredListing>,
  remoteInput: readonly RemoteEntry[],
  policy: PlanPolicy,
): Plan {
  const isMine = (r: RemoteEntry) =>
    r.owner === policy.feedId || (policy.ownership === 'all' && r.owner === undefined);
  const ctx: Context = { policy, isMine };
  const remote = [...remoteInput].sort(byId);
  const groups = groupByKey(remote);
  const heldKeys = new Map((policy.held ?? []).map((h) => [h.key.trim(), h]));
  const touched = new Uint8Array(remote.length);
  const at = (i: number) => remote[i] as RemoteEntry;

  const creates: PlannedCreate[] = [];
  const updates: PlannedUpdate[] = [];
  const deletes: PlannedDelete[] = [];
  const unchanged: string[] = [];
  const skipped: SkippedListing[] = [];
  let wantedCount = 0;

  for (const [key, listing] of desired) {
    // A key that is held (its last record was rejected) is never written, even if an earlier record was valid.
    if (!key || heldKeys.has(key)) continue;
    wantedCount++;
    const group = positions(groups.get(key));
    const mine = group.filter((i) => isMine(at(i)));
    if (mine.length > 0) {
      const [keeper, ...extras] = pickKeeper(mine, at);
      touched[keeper] = 1;
      for (const extra of extras) {
        touched[extra] = 1;
        deletes.push({ key, id: at(extra).id, reason: 'duplicate' });
      }
      const kept = at(keeper);
      const changes = changesOf(kept);
      if (changes.length === 0) unchanged.push(key);
      else updates.push({ key, id: kept.id, desired: listing, changes, adopt: kept.owner !== policy.feedId });
      continue;
    }
    const resolved = resolveForeign(key, listing, group, at, ctx);
    if ('update' in resolved) {
      touched[resolved.position] = 1;
      updates.push(resolved.update);
    } else if ('skip' in resolved) skipped.push(resolved.skip);
    else creates.push({ key, desired: listing });
  }

  const held = planHeld(heldKeys, groups, at, isMine);
  for (const h of held) for (const i of positions(groups.get(h.key))) if (isMine(at(i))) touched[i] = 1;
  deletes.push(...planDeletes(remote, desired, touched, ctx));
  let ownedCount = 0;
  const foreign: ForeignListing[] = [];
  for (let i = 0; i < remote.length; i++) {
    const r = at(i);
    if (isMine(r)) ownedCount++;
    else if (touched[i] === 0) foreign.push(foreignOf(r));
  }
  const guard = applyDeleteGuards({ policy, desiredCount: wantedCount, ownedCount, deletes });

  return {
    feedId: policy.feedId,
    chatbot: policy.chatbot,
    keyField: policy.keyField,
    mode: policy.mode,
    creates: creates.sort(byKeyThenId),
    updates: updates.sort(byKeyThenId),
    deletes: guard.allowed.sort(byKeyThenId),
    heldDeletes: guard.held.sort(byKeyThenId),
    unchanged: unchanged.sort(),
    held,
    foreign: foreign.sort(byKeyThenId),
    skipped: skipped.sort(byKeyThenId),
    guards: guard.decisions,
    ownedCount,
  };
}

/** The feed's listings by trimmed key, the last of a key winning: what `makePlan` takes. */
export function desiredByKey(desired: Iterable<DesiredListing>): Map<string, DesiredListing> {
  const byKey = new Map<string, DesiredListing>();
  for (const d of desired) {
    const key = d.key.trim();
    if (key) byKey.set(key, d);
  }
  return byKey;
}

/** A remote entry whose key the feed has always carries its comparison; this says so to the types. */
function changesOf(r: RemoteEntry): readonly FieldChange[] {
  if (r.changes === undefined) throw new Error(`remote listing ${r.id} was not compared with the feed`);
  return r.changes;
}

/** Positions (in ID order) of the remote listings of each key: a number for one, an array for several. */
type Group = number | number[];

const positions = (group: Group | undefined): number[] =>
  group === undefined ? [] : typeof group === 'number' ? [group] : group;

function groupByKey(remote: readonly RemoteEntry[]): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (let i = 0; i < remote.length; i++) {
    const key = remote[i]?.key;
    if (!key) continue;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, i);
    else if (typeof group === 'number') groups.set(key, [group, i]);
    else group.push(i);
  }
  return groups;
}

/** Of several owned listings with one key (positions in ID order), keep an unchanged one if any, else the oldest. */
function pickKeeper(mine: number[], at: (i: number) => RemoteEntry): [number, ...number[]] {
  if (mine.length === 1) return [mine[0] as number];
  const clean = mine.findIndex((i) => changesOf(at(i)).length === 0);
  const index = clean === -1 ? 0 : clean;
  return [mine[index] as number, ...mine.filter((_, i) => i !== index)];
}

type Resolution = { update: PlannedUpdate; position: number } | { skip: SkippedListing } | { create: true };

/** No owned listing holds the key: adopt a hand-added one, skip one owned by another feed, or create. */
function resolveForeign(
  key: string,
  listing: DesiredListing,
  group: number[],
  at: (i: number) => RemoteEntry,
  ctx: Context,
): Resolution {
  const untagged = group.find((i) => at(i).owner === undefined);
  if (untagged !== undefined && ctx.policy.adopt) {
    const first = at(untagged);
    const changes = changesOf(first);
    return { update: { key, id: first.id, desired: listing, changes, adopt: true }, position: untagged };
  }
  if (untagged !== undefined) return { skip: { key, id: at(untagged).id, reason: 'adopt-disabled' } };
  const [other] = group;
  if (other !== undefined) {
    const { id, owner } = at(other);
    return { skip: { key, id, reason: 'owned-by-other-feed', ...(owner ? { owner } : {}) } };
  }
  return { create: true };
}

/** Held keys with the owned remote listings they keep (a listing owned by another feed is not ours to hold). */
function planHeld(
  heldKeys: ReadonlyMap<string, HeldKey>,
  groups: ReadonlyMap<string, Group>,
  at: (i: number) => RemoteEntry,
  isMine: (r: RemoteEntry) => boolean,
): HeldListing[] {
  const held: HeldListing[] = [];
  for (const [key, h] of heldKeys) {
    const ids = positions(groups.get(key))
      .map(at)
      .filter(isMine)
      .map((r) => r.id);
    held.push({ ...h, key, ids: ids.sort((a, b) => a - b) });
  }
  return held.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Owned listings the feed no longer wants (`remote` in ID order): removed status, gone from a full feed, or duplicates. */
function planDeletes(
  remote: readonly RemoteEntry[],
  desired: ReadonlyMap<string, DesiredListing>,
  touched: Uint8Array,
  ctx: Context,
): PlannedDelete[] {
  const removals = new Set(ctx.policy.removals ?? []);
  const kept = new Set<string>();
  const deletes: PlannedDelete[] = [];
  for (let i = 0; i < remote.length; i++) {
    const r = remote[i] as RemoteEntry;
    if (touched[i] === 1 || !ctx.isMine(r)) continue;
    const key = r.key ?? '';
    if (key && desired.has(key)) continue;
    if (key && removals.has(key)) deletes.push({ key, id: r.id, reason: 'removed' });
    else if (ctx.policy.mode === 'full') deletes.push({ key, id: r.id, reason: 'gone' });
    else if (kept.has(key)) deletes.push({ key, id: r.id, reason: 'duplicate' });
    else kept.add(key);
  }
  return deletes;
}

function foreignOf(r: RemoteEntry): ForeignListing {
  return { id: r.id, key: r.key ?? '', ...(r.owner ? { owner: r.owner } : {}) };
}
