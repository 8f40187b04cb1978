import type { Listing } from '../normalize/listing-schema.ts';
import type { DeleteReason, FieldChange, Plan } from './plan-types.ts';

const REASONS: Record<DeleteReason, string> = {
  gone: 'gone from the feed',
  removed: 'removed status in the feed',
  duplicate: 'duplicate of the kept listing',
};

/** A value as a plan shows it: strings quoted, long ones cut, unset as `(unset)`. */
export function show(value: unknown): string {
  if (value === undefined || value === null || value === '') return '(unset)';
  const text =
    typeof value === 'string'
      ? JSON.stringify(value)
      : Array.isArray(value)
        ? `[${value.length} items]`
        : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function headline(listing: Listing): string {
  const place = [listing.Address, listing.City].filter(Boolean).join(', ');
  const price = listing.SaleType === 'for_rent' ? listing.RentPrice : listing.SalePrice;
  const shown = price === undefined ? '' : `${listing.CurrencySymbol}${price.toLocaleString('en-US')}`;
  return [place, listing.Status, shown].filter(Boolean).join(' · ');
}

function changeLine(change: FieldChange): string {
  return `      ${change.field}: ${show(change.from)} → ${show(change.to)}`;
}

/**
 * The record hash moves with every change; it is worth a line only when nothing else shows why
 * (a change to AreaUnit or Location, which the list never returns).
 */
function changeLines(changes: readonly FieldChange[]): string[] {
  const isHash = (c: FieldChange) => c.field.startsWith('ExtensionColumn[') && c.field.endsWith(':hash]');
  const visible = changes.filter((c) => !isHash(c));
  if (visible.length > 0) return visible.map(changeLine);
  return [
    '      (a field the list does not return, such as AreaUnit or Location, changed: record hash differs)',
  ];
}

/** The one-line summary, terraform style. */
export function summarizePlan(plan: Plan): string {
  const parts = [
    `${plan.creates.length} to create`,
    `${plan.updates.length} to update`,
    `${plan.deletes.length} to delete`,
    `${plan.unchanged.length} unchanged`,
    `${plan.foreign.length} foreign`,
  ];
  if (plan.skipped.length > 0) parts.push(`${plan.skipped.length} skipped`);
  if (plan.heldDeletes.length > 0) parts.push(`${plan.heldDeletes.length} deletes held by a guard`);
  return `Plan: ${parts.join(', ')}.`;
}

/** A plan the way `terraform plan` prints one: summary, then each listing with its field changes. */
export function renderPlan(plan: Plan): string {
  const lines = [
    `feed ${plan.feedId} → chatbot ${plan.chatbot} (${plan.mode} feed, matched by ${plan.keyField})`,
    summarizePlan(plan),
    '',
  ];
  for (const c of plan.creates) lines.push(`  + create  ${c.key}  ${headline(c.listing)}`);
  for (const u of plan.updates) {
    lines.push(`  ~ ${u.adopt ? 'adopt ' : 'update'}  ${u.key}  (ID ${u.id})`);
    lines.push(...changeLines(u.changes));
  }
  for (const d of plan.deletes)
    lines.push(`  - delete  ${d.key || '(no key)'}  (ID ${d.id}): ${REASONS[d.reason]}`);
  for (const d of plan.heldDeletes)
    lines.push(`  ! held    ${d.key || '(no key)'}  (ID ${d.id}): ${REASONS[d.reason]}, held by a guard`);
  for (const s of plan.skipped) {
    const why =
      s.reason === 'adopt-disabled'
        ? 'a hand-added listing holds the key and adopt is off'
        : `owned by feed ${s.owner ?? '?'}`;
    lines.push(`  · skip    ${s.key}  (ID ${s.id}): ${why}`);
  }
  if (lines.length === 3) lines.push('  No changes. The chatbot matches the feed.');
  if (plan.guards.length > 0) {
    lines.push('', 'Guards:');
    for (const g of plan.guards) lines.push(`  ${g.tripped ? '✗' : '✓'} ${g.guard}: ${g.message}`);
  }
  return lines.join('\n');
}
