import type { Logger } from '../logger.ts';
import type { KeySet, StillListed } from '../sources/index.ts';
import type { GuardDecision, Plan } from './plan-types.ts';

/**
 * Gone listings asked about in one run (500 queries of 20, under the budget): a big feed's daily
 * churn. Any beyond are kept until a later run asks (a share guard holds a broken export's all).
 */
export const STILL_LISTED_ASKED_MAX = 10_000;

/** Keys named in a decision's message. */
const NAMED = 10;

/**
 * Before a RESO feed's gone listings are deleted, the provider is asked whether it still lists
 * them (`OpenedFeed.stillListed`): a read paged by `$skip` while the MLS edits records skips one
 * record for each one that moves ahead of it, and that listing, still for sale, would be deleted
 * and never come back (nothing changed to bring it). Those the provider lists are kept; what the
 * run asked, found and could not ask is said as a decision (`still-listed`). Undefined when the
 * plan deletes nothing gone from the feed.
 */
export async function keysStillListed(
  plan: Plan,
  stillListed: (keys: readonly string[]) => Promise<StillListed>,
  logger?: Logger,
  marks = false,
  askedMax = STILL_LISTED_ASKED_MAX,
): Promise<{ listed: Set<string>; decision: GuardDecision; considered: Set<string> } | undefined> {
  const gone: string[] = [];
  /** Beyond `askedMax`: kept this run, not asked (deleted unasked, a skipped listing would be lost). */
  const beyond: string[] = [];
  const leaving = (key: string) => {
    if (gone.length < askedMax) gone.push(key);
    else beyond.push(key);
  };
  for (const d of plan.deletes) if (d.reason === 'gone') leaving(d.key);
  // `gone.action: markSold`: a listing a moved read skipped would be marked Sold, then back.
  if (marks) for (const u of plan.updates) if (u.markSold) leaving(u.key);
  if (gone.length === 0) return undefined;
  const { listed, asked, problem, paused } = await stillListed(gone);
  const unasked = gone.length - asked;
  // Stopped by the provider's budget or rate: what was not asked about is kept until a run can ask
  // (deleted unasked, a listing a moved read skipped would be lost).
  const keptUnasked = paused === true;
  if (keptUnasked) for (const key of gone.slice(asked)) listed.add(key);
  const parts: string[] = [];
  const foundListed = listed.size - (keptUnasked ? gone.length - asked : 0);
  for (const key of beyond) listed.add(key);
  if (foundListed > 0) {
    const named = [...listed].slice(0, Math.min(NAMED, foundListed)).join(', ');
    parts.push(
      `${foundListed} listing(s) gone from the read are still listed at the provider (the feed changed while it was read): kept, not deleted (${named}${foundListed > NAMED ? ', …' : ''})`,
    );
  }
  const confirmed = asked - foundListed;
  if (confirmed > 0) parts.push(`${confirmed} confirmed gone at the provider: deleted`);
  if (keptUnasked)
    parts.push(`${gone.length - asked} not asked about (${problem}): kept until a run can ask`);
  if (!keptUnasked && unasked > 0)
    parts.push(`${unasked} not asked about${problem ? ` (${problem})` : ''}: deleted as the read found them`);
  if (beyond.length > 0)
    parts.push(`${beyond.length} more not asked about (more than ${askedMax} a run): kept until a run asks`);
  if (problem)
    logger?.warn({ problem }, 'RESO: could not ask the provider about every listing gone from the read');
  const considered = new Set(gone);
  return {
    listed,
    considered,
    decision: { guard: 'still-listed', tripped: false, message: parts.join('; ') },
  };
}

/**
 * Gone deletes of a plan made again (with the listings the provider still lists kept) that the
 * first plan did not have (a share guard that held them no longer does): not asked about, so kept
 * this run; the next run asks. Their keys, or undefined when there are none.
 */
export function goneUnasked(plan: Plan, considered: ReadonlySet<string>): Set<string> | undefined {
  let unasked: Set<string> | undefined;
  for (const d of plan.deletes) {
    if (d.reason !== 'gone' || considered.has(d.key)) continue;
    unasked ??= new Set();
    unasked.add(d.key);
  }
  return unasked;
}

/** `present` and `more` as one set of keys the feed lists. */
export function withKeys(present: KeySet | undefined, more: ReadonlySet<string>): KeySet {
  return {
    size: (present?.size ?? 0) + more.size,
    has: (key) => more.has(key) || (present?.has(key) ?? false),
  };
}
