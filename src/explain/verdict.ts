import { type FieldChange, isClear, isHashTag } from '../reconcile/index.ts';
import type { Classification, Verdict, VerdictLine } from './types.ts';

/** What the verdict needs to know besides the plan's classification. */
export interface VerdictContext {
  feedId: string;
  /** The platform could not be read (or not without a scan): nothing can be said about writes. */
  platformUnknown?: string;
  /** The feed could not be read. */
  feedUnknown?: string;
  /** A full feed: a listing missing from it is gone. */
  mode: 'full' | 'incremental';
  /** The feed has a record with the key (a removal when the plan does nothing about it). */
  feedHasIt?: boolean;
  /** The feed's `gone.afterDays`: a delete after a grace says so. */
  graceDays?: number;
  /** The config's feed ids: a listing another id tags that no feed has is a renamed feed's (`adoptFrom`). */
  feedIds?: readonly string[];
  /**
   * By listing ID, the fields a listing the sync updates or finds in sync has that the feed leaves
   * unset (`keptOnPlatform`): kept, never cleared.
   */
  kept?: ReadonlyMap<number, readonly string[]>;
  /**
   * Why those fields are kept, as a run decides it (`its unsetFields is keep`, `the feed sets them on
   * none of its listings`, `platform-fills`), by field; absent: each reason that may apply is named.
   */
  keptWhy?: (fields: readonly string[]) => string | undefined;
  /**
   * The last run's replaces were held by guard `mass-replace` (a plan of one key cannot count a
   * run's replaces): a replace says a sync may hold it too.
   */
  replacesHeld?: boolean;
}

/** What a replace line adds when the last run's replaces were held (`VerdictContext.replacesHeld`). */
function heldText(context: VerdictContext): string {
  return context.replacesHeld
    ? '; the last run that compared held its replaces (guard mass-replace: more than maxDeleteShare of the listings), and while as many are due a sync holds this clear too (the listing left as it is, or updated without the clear where other fields changed), unless run with --allow-mass-delete'
    : '';
}

/** `(the platform keeps SalePrice, which the feed leaves unset: …)`, with the reason that applies where known. */
function keptText(kept: readonly string[], context: VerdictContext): string {
  const them = kept.length === 1 ? 'it' : 'them';
  const why = context.keptWhy?.(kept);
  return why
    ? `the platform keeps ${kept.join(', ')}, which the feed leaves unset: a sync does not clear ${them}: ${why}`
    : `the platform keeps ${kept.join(', ')}, which the feed leaves unset: a sync does not clear ${them} where the feed sets ${them} on none of its listings, its unsetFields is keep, or the platform filled ${them} after a replace or a create (platform-fills)`;
}

/** The fields an update's changes clear (`isClear`). */
const clearedOf = (changes: readonly FieldChange[]) => changes.filter(isClear).map((f) => f.field);

/** The owner tag among an update's changes (`ExtensionColumn[feed-sync:feed]`, or the config's `ownerKey`). */
const isOwnerTag = (change: FieldChange) =>
  change.field.startsWith('ExtensionColumn[') && !change.field.endsWith(':hash]');

/**
 * In sync, what a sync would write (field by field, old → new), or why it writes nothing: held,
 * foreign, skipped, unchanged. Pure: words the plan's classification of one key (`classifyKey`).
 */
export function verdictOf(classification: Classification[], context: VerdictContext): Verdict {
  const unknown = context.feedUnknown ?? context.platformUnknown;
  if (unknown) {
    const summary = `unknown: ${unknown}`;
    return { state: 'unknown', summary, lines: [{ action: 'none', text: summary }], classification };
  }
  const lines = classification.map((c) => lineOf(c, context));
  const writes = lines.filter((l) => l.action !== 'none');
  const unchanged = classification.some((c) => c.kind === 'unchanged');
  let state: Verdict['state'];
  let summary: string;
  if (writes.length > 0) {
    state = 'will write';
    summary = `a sync would ${writes.map(verbOf).join(' and ')}`;
    // The replace a mass-replace guard held last time: `will write`, unless the guard holds it again.
    if (context.replacesHeld && classification.some((c) => c.kind === 'update' && c.replace)) {
      summary += ', unless guard mass-replace holds the replace as it did in the last run that compared';
      return { state, mayBeHeldBy: ['mass-replace'], summary, lines, classification };
    }
  } else if (unchanged && classification.length === 1) {
    state = 'in sync';
    summary = 'in sync: the platform already has the feed’s listing; a sync writes nothing';
    const only = classification[0];
    const kept = only?.kind === 'unchanged' ? context.kept?.get(only.id) : undefined;
    if (kept && kept.length > 0) summary += ` (${keptText(kept, context)})`;
  } else {
    state = 'nothing written';
    summary = `nothing will be written: ${lines.map((l) => l.text).join('; ')}`;
  }
  return { state, summary, lines, classification };
}

function verbOf(line: VerdictLine): string {
  const id = line.id === undefined ? '' : ` ID ${line.id}`;
  return `${line.action}${id}`;
}

function lineOf(c: Classification, context: VerdictContext): VerdictLine {
  switch (c.kind) {
    case 'create':
      return { action: 'create', text: 'not on the platform: a sync would create it' };
    case 'update': {
      const shown = c.changes.filter((f) => !isHashTag(f));
      const changes = shown.length > 0 ? shown : [...c.changes];
      const hashOnly = shown.length === 0;
      const kept = context.kept?.get(c.id);
      const why = hashOnly
        ? kept && kept.length > 0
          ? `only the record hash differs: the feed no longer sets ${kept.join(', ')} (${keptText(kept, context)}), or a field the list never returns (AreaUnit, Location) changed`
          : 'only the record hash differs: a field the list never returns (AreaUnit, Location) changed'
        : shown.length === 1
          ? '1 field differs'
          : `${shown.length} fields differ`;
      // A listing a former id of the feed tags (`adoptFrom`): its owner tag is among the changes.
      const former = c.changes.find(
        (f) => isOwnerTag(f) && f.to === context.feedId && typeof f.from === 'string' && f.from !== '',
      )?.from;
      return c.adopt
        ? {
            action: 'adopt',
            id: c.id,
            text:
              (former !== undefined
                ? `ID ${c.id} is tagged for feed ${String(former)}, a former id of this feed (adoptFrom): a sync would tag it as ${context.feedId}'s and update it (${why})`
                : `ID ${c.id} has the key but no owner tag (added by hand): a sync would adopt it, tag it as ${context.feedId}'s and update it (${why})`) +
              (c.replace
                ? `, as a replace: the feed leaves ${clearedOf(c.changes).join(', ')} unset, so the listing is created anew and ID ${c.id} deleted${heldText(context)}`
                : ''),
            changes,
          }
        : c.replace
          ? {
              action: 'replace',
              id: c.id,
              text: `a sync would replace ID ${c.id} (${why}): the feed leaves ${clearedOf(c.changes).join(', ')} unset, and no value the platform takes clears a field, so the listing is created anew and ID ${c.id} deleted${heldText(context)}`,
              changes,
            }
          : { action: 'update', id: c.id, text: `a sync would update ID ${c.id}: ${why}`, changes };
    }
    case 'unchanged':
      return { action: 'none', id: c.id, text: `ID ${c.id} equals the feed’s record: unchanged` };
    case 'delete':
      return { action: 'delete', id: c.id, text: deleteText(c.id, c.reason, context, c.since) };
    case 'sold':
      return {
        action: 'mark Sold',
        id: c.id,
        text: `gone from the feed: a sync would mark ID ${c.id} Sold (gone.action: markSold), changing nothing else`,
        ...(c.from !== undefined ? { changes: [{ field: 'Status', from: c.from, to: 'Sold' }] } : {}),
      };
    case 'grace':
      return {
        action: 'none',
        id: c.id,
        text: `${c.reason === 'removed' ? 'removed in the feed' : 'gone from the feed'} since ${day(c.since)}, in grace until ${day(c.until)} (gone.afterDays): ID ${c.id} is kept${
          c.action === 'markSold' ? ' (Sold meanwhile)' : ' exactly as it is'
        }; the first sync from then deletes it; back in the feed before, it keeps its ID`,
      };
    case 'held': {
      const kept = c.ids.length > 0 ? `ID ${c.ids.join(', ')} stays exactly as it is` : 'it is not created';
      return c.reason === 'in_broken_row'
        ? {
            action: 'none',
            text: `held: the key appears in a broken record (${c.message.replace(/^key appears in /, '')}), which may be this listing; ${kept} until the row is fixed`,
          }
        : {
            action: 'none',
            text: `held: its last feed record is rejected (${c.message}); ${kept} until the record is fixed`,
          };
    }
    case 'foreign':
      return {
        action: 'none',
        id: c.id,
        text: c.owner
          ? `ID ${c.id} belongs to feed ${c.owner}: not this feed's to touch`
          : `ID ${c.id} has no owner tag (added by hand) and the feed does not list the key: left alone`,
      };
    case 'skipped':
      return {
        action: 'none',
        id: c.id,
        text:
          c.reason === 'adopt-disabled'
            ? `ID ${c.id} was added by hand and the feed has adopt: false: neither adopted nor duplicated`
            : c.owner !== undefined && context.feedIds !== undefined && !context.feedIds.includes(c.owner)
              ? `ID ${c.id} belongs to feed ${c.owner}, which this config does not have: the feed's listing is skipped, never written; if ${c.owner} was renamed to ${context.feedId}, add \`adoptFrom: [${c.owner}]\` to it`
              : `ID ${c.id} belongs to feed ${c.owner ?? 'another feed'}: the feed's listing is skipped, never duplicated`,
      };
    case 'nothing':
      return {
        action: 'none',
        text: context.feedHasIt
          ? 'the feed says it is no longer listed and the platform has no listing with the key'
          : context.mode === 'incremental'
            ? 'not in this read of an incremental feed, and the platform has no listing with the key'
            : 'in neither the feed nor the platform',
      };
  }
}

function deleteText(
  id: number,
  reason: 'gone' | 'removed' | 'duplicate',
  context: VerdictContext,
  since: string | undefined,
): string {
  if (reason === 'duplicate')
    return `ID ${id} is a second listing with the key: a sync would delete it, keeping one`;
  const graceOver = since && context.graceDays ? ` (gone since ${day(since)}; its grace is over)` : '';
  const guards = `unless the run's delete guards hold its deletes back (${context.feedId}'s maxDeleteShare, an empty or untrustworthy feed)`;
  if (reason === 'removed')
    return `the feed's status says it is no longer listed${graceOver}: a sync would delete ID ${id}, ${guards}`;
  return `gone from the feed${graceOver}: a sync would delete ID ${id}, ${guards}`;
}

/** `2026-11-20 09:00 UTC`. */
function day(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
