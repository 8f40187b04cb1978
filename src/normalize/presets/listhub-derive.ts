import { compilePath, type RawFields, scalarOf } from '../field-path.ts';
import { normalizeToken } from '../normalize-token.ts';
import { numberValue } from '../parse-number.ts';
import type { PresetHooks } from './preset-hook-types.ts';

/**
 * `ExpenseCategory` values naming the homeowner association's fee, compared normalized: the RETS
 * Syndication enumeration (`Homeowner Association Fee`, `Home Owner Assessments Fee`) and the
 * spellings syndicators write beside it.
 */
const HOA_CATEGORIES = new Set(
  [
    'Homeowner Association Fee',
    'Homeowners Association Fee',
    'Home Owner Association Fee',
    'Home Owners Association Fee',
    'Home Owner Assessments Fee',
    'Homeowner Assessments Fee',
    'HOA Fee',
    'HOA Dues',
    'HOA',
    'Association Fee',
  ].map(normalizeToken),
);

const object = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
const list = (value: unknown): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const textOf = (value: unknown): string => {
  const scalar = scalarOf(value);
  return scalar === undefined || scalar === null || typeof scalar === 'object' ? '' : String(scalar).trim();
};

const FULL_STREET = compilePath('Address.commons:FullStreetAddress');
const UNIT_NUMBER = compilePath('Address.commons:UnitNumber');
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The `UnitNumber` to write after a `FullStreetAddress` (`2110 Elm Street` + `4B` → `2110 Elm
 * Street 4B`, as the zillow preset writes its `StreetAddress` and `UnitNumber`), unless the full
 * address already ends with it (`5 Rental Row #2` with unit `2` or `#2`).
 */
function unitAfterStreet(fields: RawFields): string | undefined {
  const full = FULL_STREET(fields)
    .map(textOf)
    .find((t) => t !== '');
  const unit = UNIT_NUMBER(fields)
    .map(textOf)
    .find((t) => t !== '');
  if (full === undefined || unit === undefined) return undefined;
  const bare = unit.replace(/^#\s*/, '');
  return new RegExp(`(?:^|[\\s#])${escapeRegExp(bare)}$`, 'i').test(full) ? undefined : unit;
}

/** `http://rets.org/xsd/Syndication/2008-03` → `2008-03`. */
const SCHEMA = /Syndication\/(\d{4}-\d{2})/i;

/**
 * The schema version of a record: the one the document's namespace names (`$xmlns`, the root's
 * `xmlns`), else, for a file that declares none, `2008-03` when the record has that schema's
 * marks (photos as `<Photo><URL>`, the office as `<Brokerage><OfficeID>`); else undefined.
 */
function schemaOf(fields: RawFields): string | undefined {
  const named = SCHEMA.exec(textOf(fields.$xmlns))?.[1];
  if (named !== undefined || textOf(fields.$xmlns) !== '') return named;
  const photos = list(object(fields.Photos)?.Photo).map(object);
  const marked =
    photos.some((photo) => photo?.URL !== undefined) || object(fields.Brokerage)?.OfficeID !== undefined;
  return marked ? '2008-03' : undefined;
}

/**
 * The `$`-fields the `listhub` preset reads: the schema version (`$schema`: 2008-03 or 2012-03)
 * that decides the unit of a `LotSize` without one, and the lot size whose unit no one can know
 * (`$lotUnstated`: a 2012-03 `LotSize` without `areaUnits`, or with `areaUnits="unknown"`), kept as
 * a fact instead of a guessed area; the homeowner association's fee among `Expenses/Expense`
 * (`$hoa`) and its `currencyPeriod` (`$hoaPeriod`; none is monthly), for HOAMonth; the unit number
 * a `FullStreetAddress` lacks (`$unitAfterStreet`). The first such
 * expense with an amount wins; the others stay in the `Expenses` fact.
 */
export function deriveListHubFields(fields: RawFields): RawFields {
  const schema = schemaOf(fields);
  const lot = textOf(fields.LotSize);
  const unit = textOf(object(fields.LotSize)?.['@areaUnits']).toLowerCase();
  // A lot of 0 says nothing either way (the marker), and is no fact.
  const unstated =
    lot !== '' && numberValue(lot) !== 0 && (unit === 'unknown' || (unit === '' && schema !== '2008-03'));
  const out: Record<string, unknown> = {
    ...fields,
    $schema: schema,
    $lotUnstated: unstated ? lot : undefined,
    $unitAfterStreet: unitAfterStreet(fields),
  };
  for (const item of list(object(fields.Expenses)?.Expense)) {
    const expense = object(item);
    if (!expense || !HOA_CATEGORIES.has(normalizeToken(textOf(expense.ExpenseCategory)))) continue;
    const amount = textOf(expense.ExpenseValue);
    if (amount === '') continue;
    const period = textOf(object(expense.ExpenseValue)?.['@currencyPeriod']);
    out.$hoa = amount;
    out.$hoaPeriod = period === '' ? undefined : period;
    break;
  }
  return out;
}

export const listhubHooks: PresetHooks = { derive: deriveListHubFields };
