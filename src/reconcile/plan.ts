import type { RemoteListing } from '../api/canonicalize.ts';
import type { Listing } from '../normalize/listing-schema.ts';
import type { HeldKey } from '../sources/types.ts';
import { diffListing } from './compare.ts';
import { applyDeleteGuards } from './guards.ts';
import { DEFAULT_HASH_KEY, ownerOf, type TagKeys, withTags } from './ownership.ts';
import type {
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

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
const byKeyThenId = (a: { key: string; id?: number }, b: { key: string; id?: number }) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : (a.id ?? 0) - (b.id ?? 0);

interface Context {
  policy: PlanPolicy;
  tags: TagKeys;
  isMine: (r: RemoteListing) => boolean;
}

/**
 * Make a chatbot's listings equal to the feed: what to create, update and delete. Pure.
 * Matches by the feed's key, compares in canonical form, touches only listings this feed owns
 * (adopting a hand-added one whose key is in the feed, unless `adopt: false`), addresses every
 * update and delete by the remote ID, and runs the delete guards.
 */
export function makePlan(
  desired: readonly Listing[],
  remote: readonly RemoteListing[],
  policy: PlanPolicy,
): Plan {
  const tags: TagKeys = { ownerKey: policy.ownerKey, hashKey: policy.hashKey ?? DEFAULT_HASH_KEY };
  // Owner tags read once per remote listing: the plan asks about each several times.
  const owners = new Map(remote.map((r) => [r.id, ownerOf(r.listing, tags)]));
  const isMine = (r: RemoteListing) => {
    const owner = owners.get(r.id);
    return owner === policy.feedId || (policy.ownership === 'all' && owner === undefined);
  };
  const ctx: Context = { policy, tags, isMine };
  const groups = groupByKey(remote, policy.keyField);
  const heldKeys = new Map((policy.held ?? []).map((h) => [h.key.trim(), h]));
  const wanted = new Map<string, Listing>();
  for (const listing of desired) {
    const key = keyOf(listing, policy.keyField);
    // A key that is held (its last record was rejected) is never written, even if an earlier record was valid.
    if (key && !heldKeys.has(key)) wanted.set(key, listing);
  }

  const creates: PlannedCreate[] = [];
  const updates: PlannedUpdate[] = [];
  const deletes: PlannedDelete[] = [];
  const unchanged: string[] = [];
  const skipped: SkippedListing[] = [];
  const touched = new Set<number>();

  for (const [key, listing] of wanted) {
    const target = withTags(listing, policy.feedId, tags);
    const group = groups.get(key) ?? [];
    const mine = group.filter(isMine);
    if (mine.length > 0) {
      const [keeper, ...extras] = pickKeeper(mine, target);
      touched.add(keeper.id);
      for (const extra of extras) {
        touched.add(extra.id);
        deletes.push({ key, id: extra.id, reason: 'duplicate' });
      }
      const changes = diffListing(target, keeper.listing);
      if (changes.length === 0) unchanged.push(key);
      else {
        const adopt = ownerOf(keeper.listing, tags) !== policy.feedId;
        updates.push({ key, id: keeper.id, listing: target, changes, adopt });
      }
      continue;
    }
    const resolved = resolveForeign(key, target, group, ctx);
    if ('update' in resolved) {
      touched.add(resolved.update.id);
      updates.push(resolved.update);
    } else if ('skip' in resolved) skipped.push(resolved.skip);
    else creates.push({ key, listing: target });
  }

  const held = planHeld(heldKeys, groups, isMine);
  for (const h of held) for (const id of h.ids) touched.add(id);
  deletes.push(...planDeletes(remote, wanted, touched, ctx));
  const owned = remote.filter(isMine);
  const guard = applyDeleteGuards({ policy, desiredCount: wanted.size, ownedCount: owned.length, deletes });
  const foreign: ForeignListing[] = remote
    .filter((r) => !isMine(r) && !touched.has(r.id))
    .map((r) => foreignOf(r, ctx))
    .sort(byKeyThenId);

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
    foreign,
    skipped: skipped.sort(byKeyThenId),
    guards: guard.decisions,
    ownedCount: owned.length,
  };
}

function groupByKey(
  remote: readonly RemoteListing[],
  field: 'MLSNumber' | 'Url',
): Map<string, RemoteListing[]> {
  const groups = new Map<string, RemoteListing[]>();
  for (const r of remote) {
    const key = keyOf(r.listing, field);
    if (!key) continue;
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  return groups;
}

/** Of several owned listings with one key, keep an unchanged one if any (no write), else the oldest. */
function pickKeeper(mine: RemoteListing[], target: Listing): [RemoteListing, ...RemoteListing[]] {
  const sorted = [...mine].sort(byId);
  if (sorted.length === 1) return [sorted[0] as RemoteListing];
  const clean = sorted.findIndex((r) => diffListing(target, r.listing).length === 0);
  const index = clean === -1 ? 0 : clean;
  const keeper = sorted[index] as RemoteListing;
  return [keeper, ...sorted.filter((_, i) => i !== index)];
}

type Resolution = { update: PlannedUpdate } | { skip: SkippedListing } | { create: true };

/** No owned listing holds the key: adopt a hand-added one, skip one owned by another feed, or create. */
function resolveForeign(key: string, target: Listing, group: RemoteListing[], ctx: Context): Resolution {
  const untagged = group.filter((r) => ownerOf(r.listing, ctx.tags) === undefined).sort(byId);
  const first = untagged[0];
  if (first && ctx.policy.adopt) {
    const changes = diffListing(target, first.listing);
    return { update: { key, id: first.id, listing: target, changes, adopt: true } };
  }
  if (first) return { skip: { key, id: first.id, reason: 'adopt-disabled' } };
  const other = [...group].sort(byId)[0];
  if (other) {
    const owner = ownerOf(other.listing, ctx.tags);
    return { skip: { key, id: other.id, reason: 'owned-by-other-feed', ...(owner ? { owner } : {}) } };
  }
  return { create: true };
}

/** Held keys with the owned remote listings they keep (a listing owned by another feed is not ours to hold). */
function planHeld(
  heldKeys: ReadonlyMap<string, HeldKey>,
  groups: ReadonlyMap<string, RemoteListing[]>,
  isMine: (r: RemoteListing) => boolean,
): HeldListing[] {
  const held: HeldListing[] = [];
  for (const [key, h] of heldKeys) {
    const ids = (groups.get(key) ?? []).filter(isMine).map((r) => r.id);
    held.push({ ...h, key, ids: ids.sort((a, b) => a - b) });
  }
  return held.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Owned listings the feed no longer wants: removed status, gone from a full feed, or duplicates. */
function planDeletes(
  remote: readonly RemoteListing[],
  wanted: ReadonlyMap<string, Listing>,
  touched: ReadonlySet<number>,
  ctx: Context,
): PlannedDelete[] {
  const removals = new Set(ctx.policy.removals ?? []);
  const kept = new Set<string>();
  const deletes: PlannedDelete[] = [];
  for (const r of [...remote].sort(byId)) {
    if (touched.has(r.id) || !ctx.isMine(r)) continue;
    const key = keyOf(r.listing, ctx.policy.keyField) ?? '';
    if (key && wanted.has(key)) continue;
    if (key && removals.has(key)) deletes.push({ key, id: r.id, reason: 'removed' });
    else if (ctx.policy.mode === 'full') deletes.push({ key, id: r.id, reason: 'gone' });
    else if (kept.has(key)) deletes.push({ key, id: r.id, reason: 'duplicate' });
    else kept.add(key);
  }
  return deletes;
}

function foreignOf(r: RemoteListing, ctx: Context): ForeignListing {
  const owner = ownerOf(r.listing, ctx.tags);
  return { id: r.id, key: keyOf(r.listing, ctx.policy.keyField) ?? '', ...(owner ? { owner } : {}) };
}
