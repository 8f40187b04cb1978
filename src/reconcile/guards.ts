import type { GuardDecision, PlannedDelete, PlanPolicy } from './plan-types.ts';

export interface GuardInput {
  policy: PlanPolicy;
  desiredCount: number;
  ownedCount: number;
  deletes: readonly PlannedDelete[];
}

export interface GuardResult {
  decisions: GuardDecision[];
  allowed: PlannedDelete[];
  held: PlannedDelete[];
}

const percent = (n: number) => `${Math.round(n * 1000) / 10}%`;

/**
 * The safety net before deletes. Pure. A failed or empty source deletes nothing (an empty file is far
 * likelier a broken export than a market that sold out overnight); above `maxDeleteShare` of the
 * owned listings, the listings-losing deletes are held until an operator reruns with the override.
 * Duplicate deletes always keep one copy, so only the failed/empty guards hold them back.
 */
/** The decision of a run whose source failed: whether it stops before the plan or reaches it. */
export const SOURCE_FAILED: GuardDecision = {
  guard: 'source-failed',
  tripped: true,
  message: 'the source failed: nothing is deleted',
};

export function applyDeleteGuards(input: GuardInput): GuardResult {
  const { policy, deletes } = input;
  const decisions: GuardDecision[] = [];
  if (policy.mode === 'incremental') {
    decisions.push({
      guard: 'incremental',
      tripped: false,
      message:
        'incremental feed: listings missing from it are kept; only removed-status listings are deleted',
    });
  }
  if (policy.sourceFailed) {
    decisions.push(SOURCE_FAILED);
    return { decisions, allowed: [], held: [...deletes] };
  }
  if (policy.mode === 'full' && input.desiredCount === 0) {
    const message = `the feed yielded no valid listing: ${deletes.length} delete(s) held back`;
    decisions.push({ guard: 'empty-feed', tripped: true, message });
    return { decisions, allowed: [], held: [...deletes] };
  }
  const unkeyed = unkeyedGuard(policy, deletes);
  if (!unkeyed) return { decisions, ...applyShareGuard(input, decisions, deletes) };
  decisions.push(unkeyed.decision);
  const share = applyShareGuard(input, decisions, unkeyed.kept);
  return { decisions, allowed: share.allowed, held: [...unkeyed.held, ...share.held] };
}

/**
 * Rejected records without a readable key: any of them may be the row of a listing still for sale
 * (a shifted or cut row), so its listing must not be deleted as gone. Holds every `gone` delete of a
 * full feed until the rows are fixed or the run is overridden (`--allow-mass-delete`).
 */
function unkeyedGuard(
  policy: PlanPolicy,
  deletes: readonly PlannedDelete[],
): { decision: GuardDecision; held: PlannedDelete[]; kept: PlannedDelete[] } | undefined {
  const count = policy.unkeyedRejections ?? 0;
  const gone = deletes.filter((d) => d.reason === 'gone');
  if (count === 0 || gone.length === 0 || policy.mode !== 'full') return undefined;
  const what = `${count} rejected record(s) have no readable key and may be listings still in the feed`;
  if (policy.allowMassDelete) {
    const message = `${what}: deleting ${gone.length} listing(s) gone from the feed, override given`;
    return {
      decision: { guard: 'unkeyed-rejections', tripped: false, overridden: true, message },
      held: [],
      kept: [...deletes],
    };
  }
  const message = `${what}: ${gone.length} delete(s) of listings gone from the feed held back; fix the rows, or rerun with --allow-mass-delete`;
  return {
    decision: { guard: 'unkeyed-rejections', tripped: true, message },
    held: gone,
    kept: deletes.filter((d) => d.reason !== 'gone'),
  };
}

/** The `maxDeleteShare` guard over `deletes`: duplicates always pass, the rest up to the share. */
function applyShareGuard(
  input: GuardInput,
  decisions: GuardDecision[],
  deletes: readonly PlannedDelete[],
): { allowed: PlannedDelete[]; held: PlannedDelete[] } {
  const { policy } = input;
  const lossy = deletes.filter((d) => d.reason !== 'duplicate');
  const duplicates = deletes.filter((d) => d.reason === 'duplicate');
  if (lossy.length === 0) return { allowed: duplicates, held: [] };
  const share = input.ownedCount === 0 ? 1 : lossy.length / input.ownedCount;
  const over = share > policy.maxDeleteShare;
  const what = `${lossy.length} of ${input.ownedCount} owned listings (${percent(share)}; limit ${percent(policy.maxDeleteShare)})`;
  if (!over) {
    decisions.push({ guard: 'max-delete-share', tripped: false, message: `deleting ${what}` });
    return { allowed: [...deletes], held: [] };
  }
  if (policy.allowMassDelete) {
    decisions.push({
      guard: 'max-delete-share',
      tripped: false,
      overridden: true,
      message: `deleting ${what}: override given`,
    });
    return { allowed: [...deletes], held: [] };
  }
  decisions.push({
    guard: 'max-delete-share',
    tripped: true,
    message: `refusing to delete ${what}; rerun with --allow-mass-delete to apply`,
  });
  return { allowed: duplicates, held: lossy };
}
