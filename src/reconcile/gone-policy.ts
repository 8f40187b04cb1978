import type { BrokenRow, BrokenRowIndex } from './broken-rows.ts';
import type { GonePolicy, HeldListing, RemoteEntries } from './plan-types.ts';
import { DeleteColumns, PlannedGrace } from './planned-deletes.ts';

const DAY_MS = 86_400_000;

/** The default: a listing that leaves the feed is deleted on the run that finds it gone. */
export const DELETE_AT_ONCE: GonePolicy = { action: 'delete', afterDays: 0 };

/** An owned remote listing the feed no longer has (`gone`), or says is removed (`removed`). */
export interface Leaving {
  key: string;
  id: number;
  /** Its position in the remote entries (ID order). */
  position: number;
  reason: 'gone' | 'removed';
}

export interface GoneInput {
  policy: GonePolicy;
  /** The grace clock of earlier runs: key → ISO time it was first found gone. */
  since: Readonly<Record<string, string>>;
  /** The run's clock, ms. */
  now: number;
  remote: RemoteEntries;
  /** Broken rows of the feed: a listing whose key appears in one is held, whatever the policy. */
  brokenRows: BrokenRowIndex;
  /** Whether the run needs the clock at all (a grace, a mark, an incremental feed's pending removals). */
  keepsClock: boolean;
  /** Where the deletes go (the plan's, beside the duplicates it found); new ones when left out. */
  deletes?: DeleteColumns;
}

export interface GoneDecision {
  /** Grace over (or none): deleted this run, the guards permitting (added to `GoneInput.deletes`). */
  deletes: DeleteColumns;
  /**
   * Marked Sold this run, the guards permitting (`markSold`, not Sold yet): their numbers in
   * `deletes`, where they are marks (`DeleteColumns.markUpdateAt`), counted as losses by the guards.
   */
  markSold: number[];
  /** Kept as they are for now, in the order found. */
  grace: PlannedGrace;
  /** Kept because their key appears in a broken row. */
  held: HeldListing[];
  /** The clock this run leaves, before its deletes are done. */
  goneSince: Record<string, string>;
}

/**
 * What each listing leaving the feed becomes this run. Pure. A listing whose key appears in a broken
 * row is held (it may be that row). Otherwise its grace starts on the first run that finds it gone
 * and ends `afterDays` later: until then it is kept (`markSold`: marked Sold once, when it is not
 * already); from then on it is deleted. A listing back in the feed, or gone from the platform,
 * simply drops out of the clock: its caller only hands over listings that are leaving.
 */
export function decideGone(leaving: Iterable<Leaving>, input: GoneInput): GoneDecision {
  const { policy, now, remote } = input;
  const at = new Date(now).toISOString();
  const deletes = input.deletes ?? new DeleteColumns();
  const grace = new DeleteColumns();
  const decision: Omit<GoneDecision, 'grace' | 'held'> = { deletes, markSold: [], goneSince: {} };
  const heldByKey = new Map<string, HeldListing>();
  for (const l of leaving) {
    const where = l.reason === 'gone' ? input.brokenRows.find(l.key) : undefined;
    const earlier = input.since[l.key];
    if (where !== undefined) {
      holdByRow(heldByKey, l, where);
      // Its clock, if it had one, neither runs on nor resets: the row may well be it.
      if (earlier !== undefined) decision.goneSince[l.key] = earlier;
      continue;
    }
    const since = earlier ?? at;
    if (input.keepsClock) decision.goneSince[l.key] = since;
    const until = Date.parse(since) + policy.afterDays * DAY_MS;
    if (!(now < until)) {
      deletes.add(l.key, l.id, l.reason, since);
      continue;
    }
    grace.add(l.key, l.id, l.reason, since);
    const sold = policy.action === 'markSold' ? remote.soldAt?.(l.position) : undefined;
    // A mark keeps why the listing leaves: a removal the feed states is weighed as one (`removed-by-feed`).
    if (sold !== undefined) decision.markSold.push(deletes.add(l.key, l.id, l.reason, undefined, sold));
  }
  return { ...decision, grace: PlannedGrace.of(grace, policy), held: [...heldByKey.values()] };
}

function holdByRow(held: Map<string, HeldListing>, l: Leaving, row: BrokenRow): void {
  const known = held.get(l.key);
  if (known) {
    known.ids.push(l.id);
    return;
  }
  held.set(l.key, {
    key: l.key,
    index: row.index,
    ...(row.row !== undefined ? { row: row.row } : {}),
    reason: 'in_broken_row',
    message: `key appears in ${row.where}`,
    ids: [l.id],
  });
}

/** Whether a feed's policy needs the grace clock kept between runs. */
export function keepsClock(policy: GonePolicy, mode: 'full' | 'incremental'): boolean {
  return policy.afterDays > 0 || policy.action === 'markSold' || mode === 'incremental';
}
