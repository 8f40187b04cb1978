import type { RemoteListing } from '../api/canonicalize.ts';
import type { Listing } from '../normalize/listing-schema.ts';
import { desiredOf } from '../reconcile/desired.ts';
import { DEFAULT_HASH_KEY } from '../reconcile/ownership.ts';
import { desiredByKey, makePlan } from '../reconcile/plan.ts';
import type { Plan, PlanPolicy } from '../reconcile/plan-types.ts';
import { memoryRecords } from '../reconcile/record-store.ts';
import { remoteEntries } from '../reconcile/remote-entries.ts';
import type { HeldKey } from '../sources/types.ts';
import type { Classification } from './types.ts';

/** The key of the record standing for the rest of the feed: no platform listing has it. */
const REST_OF_FEED = '\u0000the rest of the feed';

/** What the feed says about one key: its listing, that it is removed, that it is held, or nothing. */
export type FeedSide =
  | { kind: 'listing'; listing: Listing }
  | { kind: 'remove' }
  | { kind: 'held'; held: HeldKey }
  | { kind: 'absent' };

/** The feed's policy for one key: the run's, but for what the feed says about this key (`FeedSide`). */
export type KeyPolicy = Omit<
  PlanPolicy,
  'removals' | 'held' | 'allowMassDelete' | 'unkeyedRejections' | 'records'
>;

/**
 * The plan of one key: the run's own `makePlan` over the feed's record of the key (if any) and the
 * chatbot's listings with it, so ownership, adoption, holds (a rejected record, a broken row),
 * duplicates, the `gone` policy and its grace clock are decided by the same code as a sync. Pure.
 * The delete guards weigh a whole feed, so they are left to the caller: the plan of one key is made
 * with the override, and a delete it holds back is read as a delete.
 */
export function planKey(
  key: string,
  feed: FeedSide,
  remote: readonly RemoteListing[],
  policy: KeyPolicy,
): Plan {
  const tags = { ownerKey: policy.ownerKey, hashKey: policy.hashKey ?? DEFAULT_HASH_KEY };
  const records = memoryRecords();
  const desired = feed.kind === 'listing' ? [desiredOf(feed.listing, key, policy.feedId, tags, records)] : [];
  // The rest of the feed, as one record no listing can match: without it a key the feed lacks would
  // be read as an empty feed, whose guard (a whole-feed judgement) holds every delete and mark.
  desired.push(desiredOf({} as Listing, REST_OF_FEED, policy.feedId, tags, records));
  const byKey = desiredByKey(desired);
  const gone = policy.gone;
  // Under markSold, the record that marks a listing Sold, as the run keeps it (prepare-run.ts).
  const sold =
    gone?.action === 'markSold'
      ? {
          isMine: (owner: string | undefined) =>
            owner === policy.feedId || (policy.ownership === 'all' && owner === undefined),
          mayLeave: (k: string | undefined) =>
            policy.mode === 'full' ||
            (k === key && (feed.kind === 'remove' || Object.hasOwn(policy.goneSince ?? {}, key))),
          put: (listing: Partial<Listing>) => records.put({ ...listing, Status: 'Sold' } as Listing),
        }
      : undefined;
  const set = { load: (d: { ref: number }) => records.get(d.ref) };
  const sink = remoteEntries(policy.keyField, tags, byKey, set, sold);
  for (const r of remote) sink.keep(1, r);
  return makePlan(byKey, sink.finish().listings, {
    ...policy,
    allowMassDelete: true,
    removals: feed.kind === 'remove' ? [key] : [],
    held: feed.kind === 'held' ? [feed.held] : [],
    // One listing of one key is not a feed: the share of keyless rows is the whole feed's to judge.
    unkeyedRejections: 0,
    records: 1,
  });
}

/** What the plan does about `key`: one entry per remote listing it touches, or a create; `nothing` else. */
export function classifyKey(plan: Plan, key: string, remote: readonly RemoteListing[]): Classification[] {
  const out: Classification[] = [];
  if (plan.creates.some((c) => c.key === key)) out.push({ kind: 'create' });
  for (const u of plan.updates) {
    if (u.key !== key) continue;
    if (u.markSold)
      out.push({ kind: 'sold', id: u.id, from: u.changes.find((c) => c.field === 'Status')?.from });
    else out.push({ kind: 'update', id: u.id, adopt: u.adopt, changes: u.changes });
  }
  if (plan.unchanged.includes(key)) {
    const kept = keptId(plan, key, remote);
    if (kept !== undefined) out.push({ kind: 'unchanged', id: kept });
  }
  for (const d of [...plan.deletes, ...plan.heldDeletes]) {
    if (d.key !== key) continue;
    // A mark held back by the one-key plan's own guards is still the mark a run makes.
    if (d.action === 'markSold')
      out.push({ kind: 'sold', id: d.id, from: remote.find((r) => r.id === d.id)?.listing.Status });
    else out.push({ kind: 'delete', id: d.id, reason: d.reason, ...(d.since ? { since: d.since } : {}) });
  }
  for (const g of plan.grace)
    if (g.key === key)
      out.push({
        kind: 'grace',
        id: g.id,
        reason: g.reason,
        since: g.since,
        until: g.until,
        action: g.action,
      });
  for (const h of plan.held)
    if (h.key === key) out.push({ kind: 'held', ids: h.ids, reason: h.reason, message: h.message });
  // A listing the plan skips is foreign too (untouched, not the feed's): said once, as skipped.
  const skipped = new Set(plan.skipped.filter((s) => s.key === key).map((s) => s.id));
  for (const f of plan.foreign)
    if (f.key === key && !skipped.has(f.id))
      out.push({ kind: 'foreign', id: f.id, ...(f.owner ? { owner: f.owner } : {}) });
  for (const s of plan.skipped)
    if (s.key === key)
      out.push({ kind: 'skipped', id: s.id, reason: s.reason, ...(s.owner ? { owner: s.owner } : {}) });
  return out.length > 0 ? out : [{ kind: 'nothing' }];
}

/**
 * The ID of the unchanged listing of a key. The plan lists unchanged keys only; every other listing
 * of the key is accounted for elsewhere in it (a duplicate it deletes, a foreign one), so the kept
 * one is the listing of the key the plan names nowhere else.
 */
function keptId(plan: Plan, key: string, remote: readonly RemoteListing[]): number | undefined {
  const named = new Set<number>();
  for (const d of [...plan.deletes, ...plan.heldDeletes, ...plan.updates, ...plan.foreign, ...plan.skipped])
    if (d.key === key) named.add(d.id);
  return remote.find((r) => !named.has(r.id))?.id;
}
