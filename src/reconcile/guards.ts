import type { DeleteReason, GuardDecision, PlanPolicy } from './plan-types.ts';

/**
 * The deletes the guards weigh (`DeleteColumns`), by number: each one's reason, and whether it is a
 * mark Sold rather than a delete. A guard answers with numbers, never copies of the deletes: a big
 * feed that came back half empty has hundreds of thousands of them.
 */
export interface Losses {
  readonly length: number;
  reasonAt(i: number): DeleteReason;
  isMark(i: number): boolean;
}

export interface GuardInput {
  policy: PlanPolicy;
  desiredCount: number;
  ownedCount: number;
  deletes: Losses;
  /**
   * Per former id of the feed (`adoptFrom`): its listings whose keys the feed has (`matched`), and
   * the numbers of the deletes (and marks) of those it does not.
   */
  adopted?: readonly AdoptedOwner[];
}

/** A former id's listings in one run: how many the feed has the key of, and the deletes of the others. */
export interface AdoptedOwner {
  owner: string;
  matched: number;
  leaving: readonly number[];
}

export interface GuardResult {
  decisions: GuardDecision[];
  /** Numbers of the deletes (and marks) allowed, in the order found. */
  allowed: number[];
  /** Numbers of those held back. */
  held: number[];
}

const percent = (n: number) => `${Math.round(n * 1000) / 10}%`;

/** The numbers of `deletes` whose reason passes `test`. */
function numbers(deletes: Losses, test: (reason: DeleteReason) => boolean, of?: readonly number[]): number[] {
  const picked: number[] = [];
  for (const i of of ?? every(deletes)) if (test(deletes.reasonAt(i))) picked.push(i);
  return picked;
}

/** All numbers of `deletes`. */
const every = (deletes: Losses) => Array.from({ length: deletes.length }, (_, i) => i);

/** `deleting` / `marking Sold` / `deleting or marking Sold`: what a guard's losses are (marks count as losses). */
function lossVerb(deletes: Losses, losses: readonly number[], tense: 'ing' | 'past' = 'ing'): string {
  let marks = 0;
  for (const i of losses) if (deletes.isMark(i)) marks++;
  const words =
    tense === 'ing'
      ? ['deleting', 'marking Sold', 'deleting or marking Sold']
      : ['deleted', 'marked Sold', 'deleted or marked Sold'];
  return marks === 0 ? words[0]! : marks === losses.length ? words[1]! : words[2]!;
}

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
    return { decisions, allowed: [], held: every(deletes) };
  }
  if (policy.mode === 'full' && input.desiredCount === 0) {
    // No override applies: a feed without a listing never deletes. What to fix is the feed.
    // Nothing to hold back (a first run, or every listing held by its rejected record) is said so.
    const held = deletes.length > 0 ? `${deletes.length} delete(s) held back` : 'nothing deleted or changed';
    const message = `the feed yielded no valid listing: ${held}; fix the feed or its mapping (\`feed-sync validate --feed ${policy.feedId}\` says what its records lack)`;
    decisions.push({ guard: 'empty-feed', tripped: true, message });
    return { decisions, allowed: [], held: every(deletes) };
  }
  const adopted = adoptFromGuard(input, decisions);
  const unkeyed = unkeyedGuard(policy, deletes, decisions, adopted.held);
  const unframed = unframedGuard(input, decisions, unkeyed.kept);
  const share = applyShareGuard(input, decisions, unframed.kept);
  return {
    decisions,
    allowed: share.allowed,
    held: [...adopted.held, ...unkeyed.held, ...unframed.held, ...share.held],
  };
}

/**
 * A former id (`adoptFrom`) most of whose listings the feed does not have is likely not this feed's
 * old name (`adoptFrom` under the wrong feed, or two renamed feeds swapped): its listings gone from
 * the feed would all be deleted, and the feed that really had them would create them again. So
 * when fewer of them are in the feed than not, their deletes are held until an operator overrides.
 * A real rename has nearly all its keys in the feed.
 */
function adoptFromGuard(input: GuardInput, decisions: GuardDecision[]): { held: number[] } {
  const { policy } = input;
  const held: number[] = [];
  for (const { owner, matched, leaving } of input.adopted ?? []) {
    if (leaving.length === 0) continue;
    const total = matched + leaving.length;
    const what = `adoptFrom ${owner}: ${matched} of its ${total} listing(s) are in this feed`;
    if (matched >= leaving.length) {
      const message = `${what}; ${lossVerb(input.deletes, leaving)} the ${leaving.length} gone from it`;
      decisions.push({ guard: 'adopt-from', tripped: false, message });
    } else if (policy.allowMassDelete) {
      const message = `${what}: ${lossVerb(input.deletes, leaving)} the other ${leaving.length}, override given`;
      decisions.push({ guard: 'adopt-from', tripped: false, overridden: true, message });
    } else {
      const message = `${what}: the other ${leaving.length} not ${lossVerb(input.deletes, leaving, 'past')}. Is adoptFrom on the feed that was renamed from ${owner}? Another feed may have these listings' keys; --allow-mass-delete would let them go`;
      decisions.push({ guard: 'adopt-from', tripped: true, message });
      held.push(...leaving);
    }
  }
  return { held };
}

/**
 * Rejected records without a readable key hold only the listings whose keys appear in their cells
 * (a row whose key cell is blank beside a Url that holds the key), as a broken row does (the plan's
 * `decideGone`); one that names no listing holds nothing. But a feed in which more than `maxDeleteShare` of the records have no key,
 * or whose broken rows are too many to keep, is not trusted to say what is gone: its `gone` deletes
 * (and marks) are held until the rows are fixed or the run is overridden (`--allow-mass-delete`).
 */
function unkeyedGuard(
  policy: PlanPolicy,
  deletes: Losses,
  decisions: GuardDecision[],
  heldBefore: readonly number[] = [],
): { held: number[]; kept: number[] } {
  const { held, kept } = unkeyedOf(policy, deletes, decisions);
  if (heldBefore.length === 0) return { held, kept };
  const before = new Set(heldBefore);
  return { held: held.filter((i) => !before.has(i)), kept: kept.filter((i) => !before.has(i)) };
}

function unkeyedOf(
  policy: PlanPolicy,
  deletes: Losses,
  decisions: GuardDecision[],
): { held: number[]; kept: number[] } {
  const count = policy.unkeyedRejections ?? 0;
  const omitted = policy.brokenRowsOmitted ?? 0;
  const gone = numbers(deletes, (r) => r === 'gone');
  const none = { held: [], kept: every(deletes) };
  if ((count === 0 && omitted === 0) || gone.length === 0 || policy.mode !== 'full') return none;
  const records = Math.max(policy.recordsRead ?? count, count, 1);
  const share = count / records;
  const what = `${count} of ${records} record(s) (${percent(share)}) have no readable key`;
  // One keyless row is a coming-soon listing or an exporter's disclaimer line, never a broken export.
  const untrusted = omitted > 0 || (count > 1 && share > policy.maxDeleteShare);
  if (!untrusted) {
    // Said as this guard's verdict alone: the share guard after it may still hold them (a report
    // read "ok — deleting the 14" beside "max-delete-share: TRIPPED").
    const message = `${what} (a keyless or broken row holds only the listings whose keys appear in its cells): no reason to hold back ${lossVerb(deletes, gone)} the ${gone.length} listing(s) gone from the feed`;
    decisions.push({ guard: 'unkeyed-rejections', tripped: false, message });
    return none;
  }
  const why =
    omitted > 0
      ? `${omitted} broken row(s) beyond the ${policy.brokenRows?.length ?? 0} a run keeps could be any listing`
      : `${what}, more than maxDeleteShare (${percent(policy.maxDeleteShare)}): the feed may be a broken export`;
  if (policy.allowMassDelete) {
    const message = `${why}: ${lossVerb(deletes, gone)} ${gone.length} listing(s) gone from the feed, override given`;
    decisions.push({ guard: 'unkeyed-rejections', tripped: false, overridden: true, message });
    return none;
  }
  // The override deletes every listing the feed no longer names, those whose rows are broken
  // included: the rows are what to fix.
  const message = `${why}: ${gone.length} listing(s) gone from the feed not ${lossVerb(deletes, gone, 'past')}; fix the rows (\`feed-sync validate --feed ${policy.feedId}\` lists them). --allow-mass-delete would let all ${gone.length} go, those whose rows are broken included`;
  decisions.push({ guard: 'unkeyed-rejections', tripped: true, message });
  return { held: gone, kept: numbers(deletes, (r) => r !== 'gone') };
}

/** Stated removals pass beside `maxDeleteShare` up to that share of their own, or this many. */
export const REMOVED_FLOOR = 5;

/** The share of the owned listings a CSV read to a connection's close may lose in one run… */
export const UNFRAMED_SHARE = 0.05;
/** …or this many, whichever is more: a brokerage of 19 homes sells one without an override. */
export const UNFRAMED_FLOOR = 2;

/**
 * A CSV read to the connection's close (the server sent no Content-Length and no chunks): a body
 * cut at a row's end reads as the whole feed, its last rows silently gone. A day's churn is a few
 * percent; a cut body is whatever was left unsent. So its `gone` deletes (and marks) wait for the
 * override above `UNFRAMED_SHARE` of the owned listings (or `maxDeleteShare`, if lower), and the
 * everyday run, within it, deletes as ever. Removals the feed states name their listing: not weighed.
 */
function unframedGuard(
  input: GuardInput,
  decisions: GuardDecision[],
  kept: readonly number[],
): { held: number[]; kept: number[] } {
  const { policy, deletes } = input;
  const none = { held: [], kept: [...kept] };
  if (!policy.unframed || policy.mode !== 'full') return none;
  const gone = numbers(deletes, (r) => r === 'gone', kept);
  if (gone.length === 0) return none;
  const limit = Math.min(UNFRAMED_SHARE, policy.maxDeleteShare);
  const share = input.ownedCount === 0 ? 1 : gone.length / input.ownedCount;
  const what = `the feed was read to the connection's close (no Content-Length, no chunks: a body cut at a row's end cannot be told from the whole file); ${gone.length} of ${input.ownedCount} owned listings (${percent(share)}) are gone from it`;
  if (share <= limit || gone.length <= UNFRAMED_FLOOR) {
    const within = share <= limit ? `within ${percent(limit)}` : `no more than ${UNFRAMED_FLOOR}`;
    const message = `${what}, ${within}: ${lossVerb(deletes, gone)} them`;
    decisions.push({ guard: 'unframed-body', tripped: false, message });
    return none;
  }
  if (policy.allowMassDelete) {
    const message = `${what}, more than ${percent(limit)}: ${lossVerb(deletes, gone)} them, override given`;
    decisions.push({ guard: 'unframed-body', tripped: false, overridden: true, message });
    return none;
  }
  const message = `${what}, more than ${percent(limit)}: not ${lossVerb(deletes, gone, 'past')}. If the server can send a Content-Length, ask for it; if the feed really lost them, --allow-mass-delete lets them go`;
  decisions.push({ guard: 'unframed-body', tripped: true, message });
  const held = new Set(gone);
  return { held: gone, kept: kept.filter((i) => !held.has(i)) };
}

/**
 * The `maxDeleteShare` guard over `deletes`: duplicates always pass, the rest up to the share.
 * Removals the feed states (a record whose status says withdrawn or expired, a deletion marker) name
 * their listing: they are the feed's word, not its silence, and a small brokerage's feed that sells
 * three of its ten homes in a day must not leave them on the chatbot until someone overrides. So
 * they pass beside the share, up to a share of their own (`maxDeleteShare` of the owned listings,
 * or `REMOVED_FLOOR`, whichever is more); beyond it they count with the rest: a feed that suddenly
 * calls much of its stock removed is likelier a status map gone wrong (a CRM's renamed status read
 * by a catch-all) than a market.
 */
function applyShareGuard(
  input: GuardInput,
  decisions: GuardDecision[],
  kept: readonly number[],
): { allowed: number[]; held: number[] } {
  const { policy, deletes } = input;
  const removed = numbers(deletes, (r) => r === 'removed', kept);
  const statedLimit = Math.max(policy.maxDeleteShare * input.ownedCount, REMOVED_FLOOR);
  const stated = removed.length > 0 && removed.length <= statedLimit;
  const lossy = numbers(deletes, (r) => r === 'gone' || (r === 'removed' && !stated), kept);
  const duplicates = numbers(deletes, (r) => r === 'duplicate', kept);
  const passing = stated ? [...duplicates, ...removed].sort((a, b) => a - b) : duplicates;
  if (stated) {
    const message = `${lossVerb(deletes, removed)} the ${removed.length} listing(s) the feed says are removed (withdrawn, expired or deleted at the source): the feed names them, so they do not count toward maxDeleteShare beside what is gone (up to ${Math.floor(statedLimit)} of the ${input.ownedCount} owned listings)`;
    decisions.push({ guard: 'removed-by-feed', tripped: false, message });
  }
  if (lossy.length === 0) return { allowed: passing, held: [] };
  const share = input.ownedCount === 0 ? 1 : lossy.length / input.ownedCount;
  // One listing is never a mass delete: a brokerage of four homes that sells one needs no override.
  const over = share > policy.maxDeleteShare && lossy.length > 1;
  // Stated removals beyond their own share count with the rest: said, so the count adds up.
  const counted =
    !stated && removed.length > 0
      ? `, ${removed.length} of them removals the feed states (more than ${Math.floor(statedLimit)}: counted)`
      : '';
  const what = `${lossy.length} of ${input.ownedCount} owned listings (${percent(share)}; limit ${percent(policy.maxDeleteShare)}${counted})`;
  if (!over) {
    decisions.push({
      guard: 'max-delete-share',
      tripped: false,
      message: `${lossVerb(deletes, lossy)} ${what}`,
    });
    return { allowed: [...kept], held: [] };
  }
  if (policy.allowMassDelete) {
    decisions.push({
      guard: 'max-delete-share',
      tripped: false,
      overridden: true,
      message: `${lossVerb(deletes, lossy)} ${what}: override given`,
    });
    return { allowed: [...kept], held: [] };
  }
  decisions.push({
    guard: 'max-delete-share',
    tripped: true,
    message: `refusing: ${lossVerb(deletes, lossy)} ${what}; rerun with --allow-mass-delete to apply`,
  });
  return { allowed: passing, held: lossy };
}
