import { CSV_HEADERS, type HeaderRole, NOISE_HEADERS } from './csv-headers.ts';
import type { ListingField } from './listing-schema.ts';
import type { Condition, FactRule, FieldRule, FieldRuleObject, MappingConfig } from './mapping-schema.ts';
import { normalizeToken } from './normalize-token.ts';

/** Class values meaning a rental (RESO `ResidentialLease`, display forms `Residential Lease`, `Rental`). */
const RENT_CLASSES = [
  'Residential Lease',
  'Commercial Lease',
  'Lease',
  'Leases',
  'Rental',
  'Rentals',
  'Residential Rental',
  'Rent',
  'For Rent',
  'For Lease',
  'Lease/Rental',
];
/** Sale-type column values meaning a rental; a let is never a sale. */
const RENT_SALE_TYPES = ['for_rent', 'Rent', 'Rental', 'Lease', 'For Rent', 'For Lease'];
/**
 * Sale-type column values meaning a sale: the platform's own word, and Redfin's `SALE TYPE` values
 * (`MLS Listing`, `New Construction Home`, `For-Sale-by-Owner Listing`, and `PAST SALE`, a sold home
 * whose `STATUS` says Sold). Any other value says nothing and the next rule decides (class, status).
 */
const SALE_SALE_TYPES = [
  'for_sale',
  'Sale',
  'For Sale',
  'Resale',
  'MLS Listing',
  'New Construction Home',
  'New Construction Plan',
  'New Construction',
  'For-Sale-by-Owner Listing',
  'For Sale by Owner',
  'FSBO',
  'Past Sale',
  'Foreclosure',
  'Auction',
];
const SALE_TYPE_WORDS = () => ({
  ...Object.fromEntries(RENT_SALE_TYPES.map((value) => [value, 'for_rent'])),
  ...Object.fromEntries(SALE_SALE_TYPES.map((value) => [value, 'for_sale'])),
  '*': '',
});
/** Status values that only a rental has. */
const RENT_STATUSES = ['For Rent', 'For Lease', 'Leased', 'Rented'];
const toRent = (values: string[]) => ({
  ...Object.fromEntries(values.map((value) => [value, 'for_rent'])),
  '*': '',
});

/**
 * A header with a remark in brackets that points elsewhere, read without it: Redfin's `URL (SEE
 * https://www.redfin.com/buy-a-home/comparative-market-analysis FOR INFO ON PRICING)` is its `URL`.
 * Only a remark that says "see" or holds a link: `Lot Size (acres)` keeps its unit.
 */
const REMARK = /^(.*?\S)\s*\((?:see\b|[^)]*https?:\/\/)[^)]*\)\s*$/i;

const tokenOf = (header: string) => normalizeToken(header).replace(/[()]/g, '');

/** The first header of the file that plays `role`, by the synonyms of csv-headers.ts. */
function headerFinder(headers: readonly string[]): (role: HeaderRole) => string | undefined {
  const byToken = new Map<string, string>();
  for (const header of headers) {
    const token = tokenOf(header);
    if (!byToken.has(token)) byToken.set(token, header);
  }
  // A header's own name first; read without its remark only where no header has that name.
  for (const header of headers) {
    const bare = REMARK.exec(header)?.[1];
    if (bare !== undefined && !byToken.has(tokenOf(bare))) byToken.set(tokenOf(bare), header);
  }
  const taken = new Set<string>();
  const found = new Map<HeaderRole, string | undefined>();
  // Roles claim headers in table order, so `Lot SqFt` is the lot's before `SqFt` could be the building's.
  for (const [role, names] of CSV_HEADERS) {
    const header = names.map((name) => byToken.get(tokenOf(name))).find((h) => h && !taken.has(h));
    if (header) taken.add(header);
    found.set(role, header);
  }
  return (role) => found.get(role);
}

/**
 * A CSV feed without a mapping: a mapping guessed from the header of a typical MLS export (RESO
 * Data Dictionary names and their display forms). It decides SaleType from a sale-type, class or
 * status column and splits the one price column into SalePrice or RentPrice the same way; prefers
 * a sub-type column over a class column for PropertyType; turns `HOA` + `HOA Frequency` monthly;
 * reads the currency from a currency column or the price (`$450,000`), else `$`. The guess is
 * printed by `feed-sync validate --explain` for the user to pin in the config. Columns nothing
 * claims go to ExtensionColumn.
 */
export function inferCsvMapping(headers: readonly string[]): MappingConfig {
  const h = headerFinder(headers);
  const fields: Partial<Record<ListingField, FieldRule>> = {};
  const set = (field: ListingField, rule: FieldRule | undefined) => {
    if (rule !== undefined && (!Array.isArray(rule) || rule.length > 0)) fields[field] = rule;
  };
  const alternatives = (...rules: (FieldRuleObject | undefined | false)[]) =>
    rules.filter((r): r is FieldRuleObject => Boolean(r));
  const column = (role: HeaderRole) => h(role);

  for (const [field, role] of SIMPLE) set(field, column(role));

  // Rental or sale: an explicit column, else a class value, else a status only rentals have.
  const saleTypeColumn = column('saleType');
  const classColumn = column('class');
  const statusColumn = column('status');
  const rentWhen: Condition[][] = [];
  const saleWhen: Condition[] = [];
  if (saleTypeColumn) {
    rentWhen.push([{ path: saleTypeColumn, in: RENT_SALE_TYPES }]);
    saleWhen.push({ path: saleTypeColumn, notIn: RENT_SALE_TYPES });
  }
  if (classColumn) {
    rentWhen.push([{ path: classColumn, in: RENT_CLASSES }]);
    saleWhen.push({ path: classColumn, notIn: RENT_CLASSES });
  }
  if (statusColumn) {
    rentWhen.push([{ path: statusColumn, in: RENT_STATUSES }]);
    saleWhen.push({ path: statusColumn, notIn: RENT_STATUSES });
  }
  set(
    'SaleType',
    alternatives(
      saleTypeColumn !== undefined && { from: saleTypeColumn, map: SALE_TYPE_WORDS() },
      classColumn !== undefined && { from: classColumn, map: toRent(RENT_CLASSES) },
      statusColumn !== undefined && { from: statusColumn, map: toRent(RENT_STATUSES) },
      { const: 'for_sale' },
    ),
  );
  const when = (conditions: Condition[]) => (conditions.length > 0 ? { when: conditions } : {});
  const price = column('price');
  const sold = column('soldPrice');
  set(
    'SalePrice',
    alternatives(
      sold !== undefined && { from: sold, ...when(saleWhen) },
      price !== undefined && { from: price, ...when(saleWhen) },
    ),
  );
  const rent = column('rent');
  const rentPeriod = column('rentPeriod');
  const period = rentPeriod ? { periodFrom: rentPeriod } : {};
  set(
    'RentPrice',
    alternatives(
      rent !== undefined && { from: rent, ...period },
      ...(price === undefined
        ? []
        : rentWhen.map((conditions) => ({ from: price, when: conditions, ...period }))),
    ),
  );
  set(
    'PropertyType',
    alternatives(
      column('subType') !== undefined && { from: column('subType')! },
      classColumn !== undefined && { from: classColumn },
    ),
  );
  const moneyColumns = [column('currency'), price, sold, rent].filter((c): c is string => c !== undefined);
  // The dollar as a default, not a rule: a feed's own `defaults: { CurrencySymbol: GBP }` wins (a
  // tester's UK listings on request showed `$` whatever the defaults said).
  set(
    'CurrencySymbol',
    moneyColumns.map((from) => ({ from })),
  );

  const full = column('bathsFull');
  const half = column('bathsHalf');
  const baths = column('baths');
  if (full || half)
    set('Bathrooms', {
      ...(baths ? { from: baths } : {}),
      ...(full ? { full } : {}),
      ...(half ? { half } : {}),
    });
  const areaUnit = column('areaUnit');
  const sqft = column('sqft');
  // `SqFt`, `Square Feet`: square feet, as the header says. `Living Area` says no unit: the feed's
  // `areaUnit`, as a lot column without one (a European export's `Living Area` is in m², and was
  // converted as if in square feet).
  const namesFeet = sqft !== undefined && /sq\.?\s*ft|square\s*fe?e?t|sqft/i.test(sqft);
  if (sqft)
    set('BuildingArea', {
      from: sqft,
      ...(areaUnit ? { unitFrom: areaUnit } : namesFeet ? { unit: 'sqft' } : {}),
    });
  const lotUnit = column('lotUnit');
  set(
    'LotArea',
    alternatives(
      column('lotSqft') !== undefined && { from: column('lotSqft')!, unit: 'sqft' },
      column('lotAcres') !== undefined && { from: column('lotAcres')!, unit: 'acres' },
      column('lot') !== undefined && { from: column('lot')!, ...(lotUnit ? { unitFrom: lotUnit } : {}) },
    ),
  );
  // The export's own count, else days since the listing date. Numeric dates are read the US way
  // (05/01/2024 is May 1), as the `$` default assumes a US export; `dateOrder: dmy` pins the other.
  const listDate = column('listDate');
  set(
    'DaysOnMarket',
    alternatives(
      column('dom') !== undefined && { from: column('dom')! },
      listDate !== undefined && { daysSince: listDate, dateOrder: 'mdy' },
    ),
  );
  const hoa = column('hoa');
  const hoaFrequency = column('hoaFrequency');
  if (hoa) set('HOAMonth', { from: hoa, ...(hoaFrequency ? { periodFrom: hoaFrequency } : {}) });
  const photos = column('photos');
  if (photos) set('Images', { from: photos, split: ['|', ';', '\n', ' '] });
  const tour = column('tour');
  if (tour) set('Tours', { const: '3D', when: { path: tour, set: true } });
  set('Description', column('description') && { from: column('description')!, html: true });
  // Redfin's next open house (`November-07-2026 01:00 PM` to `… 03:00 PM`) as a fact in words.
  const openStart = column('openHouseStart');
  const openEnd = column('openHouseEnd');
  const soldDate = column('soldDate');
  const facts: Record<string, FactRule> = {
    ...(soldDate ? { 'Sold on': { from: soldDate, as: 'date' } } : {}),
    ...(openStart
      ? { 'Open house': { from: [openStart, openStart, ...(openEnd ? [openEnd] : [])], as: 'openHouse' } }
      : {}),
  };
  const noise = new Set(NOISE_HEADERS.map(tokenOf));
  const exclude = headers.filter((header) => noise.has(tokenOf(header)));
  return {
    fields,
    defaults: { CurrencySymbol: '$' },
    extensions: {
      unmapped: true,
      ...(exclude.length > 0 ? { exclude } : {}),
      ...(Object.keys(facts).length > 0 ? { fields: facts } : {}),
    },
  };
}

/**
 * Something about a feed's mapping as a whole, said once (not per row): the rows it explains stay
 * rejected one by one. For `validate`, the run report and the log.
 */
export interface MappingHint {
  /** The listing field the hint is about (none for a hint about rows, `note_rows`). */
  field?: ListingField;
  /** Stable: `no_url_column`, `no_listing_url`, `no_currency`, `note_rows`. */
  code: string;
  /** What is wrong and what it costs. */
  message: string;
  /** How to fix it in the config. */
  fix: string;
}

/** Headers the inference reads as the listing URL, as a user would recognize them. */
const URL_EXAMPLES = ['Listing URL', 'URL', 'Link', 'Permalink'];

/**
 * Hints about a mapping inferred from a CSV header (`mapping` is the inferred one with the feed's
 * own fields merged over it). Today one: no column was recognized as the listing URL and nothing in
 * the config sets `Url`, so every row is rejected with "Url is missing". The hint says how to fix
 * it: map `Url` to a column, or build it with a template from the key column, with `preset: mls-csv`
 * so that the rest of the mapping is still inferred.
 */
export function inferredMappingHints(
  feedId: string,
  headers: readonly string[],
  mapping: MappingConfig,
): MappingHint[] {
  if (mapping.fields?.Url !== undefined || mapping.defaults?.Url !== undefined) return [];
  const key = headerFinder(headers)('key') ?? headers[0] ?? 'MLS #';
  const examples = URL_EXAMPLES.map((h) => `"${h}"`).join(', ');
  return [
    {
      field: 'Url',
      code: 'no_url_column',
      message: `no column was recognized as the listing URL (Url; a header like ${examples}), so every row is rejected with "Url is missing"`,
      // `preset: mls-csv` keeps the inference: fields alone would replace it.
      fix: `map Url in feed ${feedId}'s mapping, to a column: \`mapping: { preset: mls-csv, fields: { Url: "<column>" } }\`, or built from the key: \`mapping: { preset: mls-csv, fields: { Url: { template: "https://example.com/listing/{${key}}" } } }\``,
    },
  ];
}

/** Fields read straight from one column. */
const SIMPLE: readonly [ListingField, HeaderRole][] = [
  ['MLSNumber', 'key'],
  ['Url', 'url'],
  ['Status', 'status'],
  ['Bedrooms', 'beds'],
  ['Bathrooms', 'baths'],
  ['YearBuilt', 'year'],
  ['ParkingSpots', 'parking'],
  ['Address', 'address'],
  ['City', 'city'],
  ['State', 'state'],
  ['ZIP', 'zip'],
  ['Latitude', 'latitude'],
  ['Longitude', 'longitude'],
  ['Location', 'location'],
  ['EstimatePrice', 'estimate'],
  ['DepositFee', 'deposit'],
  ['UnitAreaPrice', 'pricePerArea'],
];

/**
 * The listing fields a CSV column of this name fills when its header decides the mapping
 * (`Area` → BuildingArea, `Beds` → Bedrooms, `Price` → SalePrice): the same synonyms, so a config
 * that names a listing field the way feeds name their columns gets the field suggested.
 */
export function fieldsForColumn(name: string): ListingField[] {
  const fields = inferCsvMapping([name]).fields ?? {};
  const names = (rule: unknown): boolean =>
    rule === name ||
    (Array.isArray(rule)
      ? rule.some(names)
      : typeof rule === 'object' && rule !== null && Object.values(rule).some(names));
  // A field that takes the column's value as it is comes first (`Type` → PropertyType), before one
  // that only reads it through a table of values (`Type` → SaleType, for_rent on `Lease`).
  const direct = (rule: unknown): boolean =>
    rule === name ||
    (Array.isArray(rule)
      ? rule.some(direct)
      : typeof rule === 'object' &&
        rule !== null &&
        (rule as { from?: unknown }).from === name &&
        !('map' in rule));
  const found = (Object.keys(fields) as ListingField[])
    .filter((field) => names(fields[field]))
    .sort((a, b) => Number(!direct(fields[a])) - Number(!direct(fields[b])));
  // The currency read off a price column is the price's: CurrencySymbol only for a currency column.
  const others = found.filter((field) => field !== 'CurrencySymbol');
  return others.length > 0 ? others : found;
}
