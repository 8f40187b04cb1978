import { isHashTag } from './compare.ts';
import type { DeleteReason, FieldChange, Plan } from './plan-types.ts';

/** Changes a report carries listing by listing; the counts have the rest. */
export const CHANGES_KEPT = 500;

/** One listing a run wrote (or, in a dry run, would write), with the fields that changed. */
export interface ListingChange {
  key: string;
  op: 'create' | 'update' | 'replace' | 'adopt' | 'sold' | 'delete';
  /** The platform's ID, for updates and deletes. */
  id?: number;
  /** A replace: the new listing's ID (`id` is the one deleted); absent in a dry run. */
  newId?: number;
  /** Updates: each changed field, old → new, in canonical form (the record-hash tag left out). */
  fields?: FieldChange[];
  /** Updates: the listing's currency symbol and area unit, to show prices and areas with them. */
  currency?: string;
  areaUnit?: string;
  /** Creates: the price and place, so a reader knows which listing it is. */
  summary?: string;
  reason?: DeleteReason;
}

/**
 * The plan's writes listing by listing, for the report (`changes`), bounded to `kept` entries in
 * plan order (creates, updates, deletes) so a saved report stays small; `omitted` counts the rest.
 * Pure. Call it on the plan a run applied and put both fields on the run's report.
 */
export function changesOf(plan: Plan, kept = CHANGES_KEPT): { changes: ListingChange[]; omitted: number } {
  const all: ListingChange[] = [];
  for (const c of plan.creates) {
    if (all.length >= kept) break;
    const { Address, City, SalePrice, RentPrice, CurrencySymbol, SaleType } = c.brief ?? {};
    const price = SaleType === 'for_rent' ? RentPrice : SalePrice;
    const place = [Address, City].filter(Boolean).join(', ');
    // Cents as cents, a rent a month's (as the plan's `formatMoney` shows them).
    const cents = price === undefined || Number.isInteger(price) ? 0 : 2;
    const shownPrice = price?.toLocaleString('en-US', {
      minimumFractionDigits: cents,
      maximumFractionDigits: 2,
    });
    const amount =
      price === undefined ? '' : `${CurrencySymbol}${shownPrice}${SaleType === 'for_rent' ? ' a month' : ''}`;
    const summary = [place, amount].filter(Boolean).join(' · ');
    all.push({ key: c.key, op: 'create', ...(summary ? { summary } : {}) });
  }
  for (const u of plan.updates) {
    if (all.length >= kept) break;
    const fields = u.changes.filter((f) => !isHashTag(f));
    const { CurrencySymbol: currency, AreaUnit: areaUnit } = u.brief ?? {};
    all.push({
      key: u.key,
      op: u.markSold ? 'sold' : u.replace ? 'replace' : u.adopt ? 'adopt' : 'update',
      id: u.id,
      fields,
      ...(currency ? { currency } : {}),
      ...(areaUnit ? { areaUnit } : {}),
    });
  }
  for (const d of plan.deletes) {
    if (all.length >= kept) break;
    all.push({ key: d.key, op: 'delete', id: d.id, reason: d.reason });
  }
  const total = plan.creates.length + plan.updates.length + plan.deletes.length;
  return { changes: all, omitted: total - all.length };
}
