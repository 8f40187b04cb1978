import type { RemoteListing } from '../api/index.ts';
import { createsKey, type Plan } from '../reconcile/index.ts';
import type { Classification } from './types.ts';

/** What the plan does about `key`: one entry per remote listing it touches, or a create; `nothing` else. */
export function classifyKey(plan: Plan, key: string, remote: readonly RemoteListing[]): Classification[] {
  const out: Classification[] = [];
  if (createsKey(plan.creates, key)) out.push({ kind: 'create' });
  for (const u of plan.updates) {
    if (u.key !== key) continue;
    if (u.markSold)
      out.push({ kind: 'sold', id: u.id, from: u.changes.find((c) => c.field === 'Status')?.from });
    else
      out.push({
        kind: 'update',
        id: u.id,
        adopt: u.adopt,
        changes: u.changes,
        ...(u.replace ? { replace: true as const } : {}),
      });
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
  const skipped = new Set<number>();
  for (const s of plan.skipped) if (s.key === key) skipped.add(s.id);
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
