import { platformImages } from '../api/index.ts';
import { AREA_FIELDS, type Listing, MONEY_FIELDS } from '../normalize/index.ts';
import type {
  DeleteReason,
  FieldChange,
  GraceListing,
  HeldListing,
  ListingBrief,
  Plan,
} from '../reconcile/index.ts';
import { isHashTag, updateCounts } from '../reconcile/index.ts';

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

const MONEY = new Set<string>(MONEY_FIELDS);
const AREA = new Set<string>(AREA_FIELDS);
const AREA_UNIT: Record<string, string> = { 'Square Feet': 'sq ft', 'Square Meters': 'm²' };

/** `$1,250,000` with the listing's currency symbol; cents as cents (`€1,250.50`, not `€1,250.5`). */
export function formatMoney(value: number, currency = ''): string {
  const cents = Number.isInteger(value) ? 0 : 2;
  return `${currency}${value.toLocaleString('en-US', { minimumFractionDigits: cents, maximumFractionDigits: 2 })}`;
}

/** A rent as the platform holds it: a month's (feeds' weekly rents are converted). */
const PER_MONTH = ' a month';

/** `1,250 sq ft` in the listing's area unit. */
export function formatArea(value: number, unit: string | undefined): string {
  const shown = unit ? (AREA_UNIT[unit] ?? unit) : '';
  return `${value.toLocaleString('en-US', { maximumFractionDigits: 2 })}${shown ? ` ${shown}` : ''}`;
}

/** A field's value as a person reads it: prices with the currency, areas with the unit. */
export function showField(
  field: string,
  value: unknown,
  listing: Partial<Pick<Listing, 'CurrencySymbol' | 'AreaUnit'>>,
): string {
  if (typeof value === 'number' && MONEY.has(field))
    return `${formatMoney(value, listing.CurrencySymbol)}${field === 'RentPrice' ? PER_MONTH : ''}`;
  if (typeof value === 'number' && AREA.has(field)) return formatArea(value, listing.AreaUnit);
  return show(value);
}

function headline(listing: ListingBrief | undefined): string {
  if (!listing) return '';
  const place = [listing.Address, listing.City].filter(Boolean).join(', ');
  const price = listing.SaleType === 'for_rent' ? listing.RentPrice : listing.SalePrice;
  const rent = listing.SaleType === 'for_rent' ? PER_MONTH : '';
  const shown = price === undefined ? '' : `${formatMoney(price, listing.CurrencySymbol)}${rent}`;
  const area = listing.BuildingArea ? formatArea(listing.BuildingArea, listing.AreaUnit) : '';
  return [place, listing.Status, shown, area].filter(Boolean).join(' · ');
}

function changeLine(change: FieldChange, listing: ListingBrief = {}): string {
  return `      ${changeText(change.field, change.from, change.to, listing)}`;
}

/** `Field: old → new` as a person reads it; Images as the URLs that differ, not two counts. */
export function changeText(
  field: string,
  from: unknown,
  to: unknown,
  listing: Partial<Pick<Listing, 'CurrencySymbol' | 'AreaUnit'>>,
): string {
  if (field === 'Images' && Array.isArray(from) && Array.isArray(to))
    return `Images: ${imagesDifference(from, to)}`;
  return `${field}: ${showField(field, from, listing)} → ${showField(field, to, listing)}`;
}

/** A URL quoted, its end kept when it is long (where photo URLs differ). */
function showUrl(url: string): string {
  const text = JSON.stringify(url);
  return text.length > 60 ? `"…${text.slice(-57)}` : text;
}

/**
 * Two lists of photo URLs told apart as the platform reads them back (`platformImages`: a URL with a
 * comma is two there): the same ones in another order, or how many are gone and new, with the first
 * of each (`5 URLs → 5 URLs: 1 gone ("…/3.jpg"); 1 new ("…/3b.jpg")`). A URL counts as often as it
 * appears.
 */
export function imagesDifference(from: readonly unknown[], to: readonly unknown[]): string {
  const a = platformImages(from).map((url) => String(url).trim());
  const b = platformImages(to).map((url) => String(url).trim());
  const count = (n: number) => `${n} URL${n === 1 ? '' : 's'}`;
  const gone = without(a, b);
  const added = without(b, a);
  if (gone.length === 0 && added.length === 0) return `the same ${count(a.length)} in another order`;
  const first = (urls: string[]) => `${showUrl(urls[0] as string)}${urls.length > 1 ? ', …' : ''}`;
  const parts = [
    ...(gone.length > 0 ? [`${gone.length} gone (${first(gone)})`] : []),
    ...(added.length > 0 ? [`${added.length} new (${first(added)})`] : []),
  ];
  return `${count(a.length)} → ${count(b.length)}: ${parts.join('; ')}`;
}

/** The URLs of `urls` that `other` does not hold, each as often as it appears beyond `other`'s. */
function without(urls: readonly string[], other: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const url of other) left.set(url, (left.get(url) ?? 0) + 1);
  return urls.filter((url) => {
    const n = left.get(url) ?? 0;
    if (n > 0) left.set(url, n - 1);
    return n === 0;
  });
}

/**
 * The record hash moves with every change; it is worth a line only when nothing else shows why
 * (a change to AreaUnit or Location, which the list never returns, or a field the feed no longer
 * sets that the platform keeps: `unsetFields: keep`, or a field the feed never maps).
 */
function changeLines(changes: readonly FieldChange[], listing: ListingBrief | undefined): string[] {
  const visible = changes.filter((c) => !isHashTag(c));
  if (visible.length > 0) return visible.map((c) => changeLine(c, listing));
  return [
    '      (only the record hash differs: a field the list does not return (AreaUnit, Location) changed, or one the feed no longer sets that the platform keeps; `feed-sync explain` says which)',
  ];
}

/** The one-line summary, terraform style. */
export function summarizePlan(plan: Plan): string {
  const parts = [
    `${plan.creates.length} to create`,
    `${plan.updates.length} to update${replacesIn(plan) > 0 ? ` (${replacesIn(plan)} as a replace)` : ''}`,
    `${plan.deletes.length} to delete`,
    `${plan.unchanged.length} unchanged`,
    `${plan.foreign.length} foreign`,
  ];
  if (plan.skipped.length > 0) parts.push(`${plan.skipped.length} skipped`);
  if (plan.heldDeletes.length > 0) parts.push(`${plan.heldDeletes.length} deletes held by a guard`);
  if (plan.held.length > 0) parts.push(`${plan.held.length} held`);
  if (plan.grace.length > 0) parts.push(`${plan.grace.length} gone (in grace)`);
  return `Plan: ${parts.join(', ')}.`;
}

/** How many of a plan's updates are replaces (counted without making them). */
function replacesIn(plan: Plan): number {
  return updateCounts(plan.updates).replaced;
}

/** Why a listing is held, in words: its record's rejection, or the broken row its key appears in. */
export function holdReason(h: Pick<HeldListing, 'reason' | 'message'>): string {
  return h.reason === 'in_broken_row' ? `held: ${h.message}` : `held: its record was rejected: ${h.message}`;
}

/** `gone since 2026-11-20, deleted from 2026-11-23` (or `marked Sold, deleted from …`). */
export function graceLine(g: GraceListing): string {
  const day = (iso: string) => iso.slice(0, 16).replace('T', ' ');
  const what = g.reason === 'removed' ? 'removed in the feed' : 'gone from the feed';
  const then = g.action === 'markSold' ? 'Sold meanwhile, deleted' : 'deleted';
  return `${what} since ${day(g.since)} UTC; ${then} from ${day(g.until)} UTC`;
}

/** Listings shown per kind by default; `feed-sync plan --limit N` / `--all` show more. */
export const PLAN_LIMIT = 50;

export interface RenderPlanOptions {
  /** Listings shown per kind (create, update, delete…); Infinity for all. Default 50. */
  limit?: number;
}

/** One kind of change: a heading with its count, at most `limit` entries, then what was left out. */
function section<T>(
  title: string,
  items: Iterable<T> & { readonly length: number },
  limit: number,
  render: (item: T) => string[],
): string[] {
  if (items.length === 0) return [];
  const lines = [`${title} (${items.length}):`];
  let shown = 0;
  for (const item of items) {
    if (shown++ >= limit) break;
    lines.push(...render(item));
  }
  if (items.length > limit)
    lines.push(
      `  … and ${items.length - limit} more (--limit N or --all to show them, --json for all of it)`,
    );
  return [...lines, ''];
}

/**
 * A plan the way `terraform plan` prints one: the listings grouped by kind of change, each with its
 * field changes (prices with the currency, areas with the unit), at most `limit` per kind, then the
 * guards and the summary last, where a long plan's reader ends up.
 */
export function renderPlan(plan: Plan, options: RenderPlanOptions = {}): string {
  const limit = options.limit ?? PLAN_LIMIT;
  const lines = [
    `feed ${plan.feedId} → chatbot ${plan.chatbot} (${plan.mode} feed, matched by ${plan.keyField})`,
    '',
    ...section('Create', plan.creates, limit, (c) => [`  + create  ${c.key}  ${headline(c.brief)}`]),
    ...section('Update', plan.updates, limit, (u) => [
      `  ~ ${u.adopt ? 'adopt ' : u.markSold ? 'sold  ' : u.replace ? 'replace' : 'update'}  ${u.key}  (ID ${u.id})${u.markSold ? ': gone from the feed, marked Sold' : u.replace ? ': a value the feed no longer sends is cleared (created anew, this ID deleted)' : ''}`,
      ...changeLines(u.changes, u.brief),
    ]),
    ...section('Delete', plan.deletes, limit, (d) => [
      `  - delete  ${d.key || '(no key)'}  (ID ${d.id}): ${REASONS[d.reason]}`,
    ]),
    ...section('Held by a guard', plan.heldDeletes, limit, (d) => [
      `  ! held    ${d.key || '(no key)'}  (ID ${d.id}): ${REASONS[d.reason]}, ${d.action === 'markSold' ? 'mark Sold' : 'delete'} held by a guard`,
    ]),
    ...section('Gone from the feed, kept for now (gone.afterDays)', plan.grace, limit, (g) => [
      `  ⏳ grace   ${g.key}  (ID ${g.id}): ${graceLine(g)}`,
    ]),
    ...section('Held: the listing is left as it is', plan.held, limit, (h) => [
      `  = hold    ${h.key}  ${holdReason(h)}`,
    ]),
    ...section('Skipped', plan.skipped, limit, (s) => [
      `  · skip    ${s.key}  (ID ${s.id}): ${
        s.reason === 'adopt-disabled'
          ? 'a hand-added listing holds the key and adopt is off'
          : `owned by feed ${s.owner ?? '?'}`
      }`,
    ]),
  ];
  if (lines.length === 2) lines.push('  No changes. The chatbot matches the feed.', '');
  if (plan.guards.length > 0) {
    lines.push('Guards:');
    for (const g of plan.guards) lines.push(`  ${g.tripped ? '✗' : '✓'} ${g.guard}: ${g.message}`);
    lines.push('');
  }
  lines.push(summarizePlan(plan));
  return lines.join('\n');
}
