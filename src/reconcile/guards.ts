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
    decisions.push({
      guard: 'source-failed',
      tripped: true,
      message: 'the source failed: nothing is deleted',
    });
    return { decisions, allowed: [], held: [...deletes] };
  }
  if (policy.mode === 'full' && input.desiredCount === 0) {
    const message = `the feed yielded no valid listing: ${deletes.length} delete(s) held back`;
    decisions.push({ guard: 'empty-feed', tripped: true, message });
    return { decisions, allowed: [], held: [...deletes] };
  }
  const lossy = deletes.filter((d) => d.reason !== 'duplicate');
  const duplicates = deletes.filter((d) => d.reason === 'duplicate');
  if (lossy.length === 0) return { decisions, allowed: duplicates, held: [] };
  const share = input.ownedCount === 0 ? 1 : lossy.length / input.ownedCount;
  const over = share > policy.maxDeleteShare;
  const what = `${lossy.length} of ${input.ownedCount} owned listings (${percent(share)}; limit ${percent(policy.maxDeleteShare)})`;
  if (!over) {
    decisions.push({ guard: 'max-delete-share', tripped: false, message: `deleting ${what}` });
    return { decisions, allowed: [...deletes], held: [] };
  }
  if (policy.allowMassDelete) {
    decisions.push({
      guard: 'max-delete-share',
      tripped: false,
      overridden: true,
      message: `deleting ${what}: override given`,
    });
    return { decisions, allowed: [...deletes], held: [] };
  }
  decisions.push({
    guard: 'max-delete-share',
    tripped: true,
    message: `refusing to delete ${what}; rerun with --allow-mass-delete to apply`,
  });
  return { decisions, allowed: duplicates, held: lossy };
}
