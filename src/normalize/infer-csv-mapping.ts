import type { ListingField } from './listing-schema.ts';
import type { FieldRuleObject, MappingConfig } from './mapping-schema.ts';
import { normalizeToken } from './normalize-token.ts';

/** Header synonyms per listing field, most specific first. Compared normalized (`MLS #` = `mls#`). */
const SYNONYMS: readonly [ListingField | 'BathsFull' | 'BathsHalf' | 'AreaUnitColumn', string[]][] = [
  [
    'MLSNumber',
    [
      'MLS #',
      'MLS#',
      'MLS Number',
      'MLS No',
      'MLS',
      'MLS ID',
      'List Number',
      'Listing Number',
      'Listing ID',
      'ListingId',
      'Listing Key',
      'Reference',
      'Ref',
    ],
  ],
  ['Url', ['URL', 'Listing URL', 'Link', 'Details URL', 'Permalink', 'Web Link']],
  ['Status', ['Status', 'Listing Status', 'Standard Status', 'MLS Status']],
  ['SaleType', ['Sale Type', 'Listing Type', 'Transaction Type', 'Offer Type', 'For Sale/Rent']],
  ['PropertyType', ['Property Type', 'Prop Type', 'Property Sub Type', 'Home Type', 'Type', 'Style']],
  ['SalePrice', ['List Price', 'PRICE', 'Sale Price', 'Asking Price', 'Listing Price', 'Current Price']],
  ['RentPrice', ['Rent', 'Monthly Rent', 'Rent Price', 'Lease Price']],
  ['Bedrooms', ['Beds', '# Bedrooms', 'Bedrooms', 'Bedrooms Total', 'BR', 'Bed']],
  ['Bathrooms', ['Baths', '# Bathrooms', 'Bathrooms', 'Bathrooms Total', 'Baths Total', 'BA', 'Bath']],
  ['BathsFull', ['Full Baths', 'Baths Full', 'Bathrooms Full', 'Full Bathrooms']],
  ['BathsHalf', ['Half Baths', 'Baths Half', 'Bathrooms Half', 'Half Bathrooms']],
  [
    'BuildingArea',
    [
      'Sq Ft',
      'SqFt',
      'Square Feet',
      'Living Area',
      'Building Area',
      'Approx Sq Ft',
      'Living Sq Ft',
      'Floor Area',
      'Size',
      'Area',
    ],
  ],
  ['LotArea', ['Lot Size', 'Lot Area', 'Lot Sq Ft', 'Lot SqFt', 'Lot Size Sq Ft', 'Lot Acres', 'Lot']],
  ['AreaUnitColumn', ['Area Unit', 'Units', 'Size Unit']],
  ['YearBuilt', ['Year Built', 'Yr Built', 'Built', 'Year']],
  ['DaysOnMarket', ['Days On Market', 'DOM', 'CDOM', 'Days']],
  [
    'ParkingSpots',
    ['Parking', 'Parking Spots', 'Parking Spaces', 'Parking Total', 'Garage Spaces', 'Garage'],
  ],
  ['Address', ['Address', 'Street Address', 'Full Address', 'Unparsed Address', 'Street', 'Addr']],
  ['City', ['City', 'Town', 'Municipality']],
  ['State', ['State', 'Province', 'State Or Province', 'ST', 'Region']],
  ['ZIP', ['ZIP', 'Zip Code', 'Postal Code', 'Postcode', 'Postal']],
  ['Latitude', ['Latitude', 'Lat']],
  ['Longitude', ['Longitude', 'Lng', 'Lon', 'Long']],
  ['Description', ['Description', 'Public Remarks', 'Remarks', 'Desc', 'Comments']],
  ['Images', ['Photos', 'Images', 'Photo URLs', 'Image URLs', 'Pictures', 'Photo', 'Image']],
  ['HOAMonth', ['HOA', 'HOA Fee', 'HOA Monthly', 'HOA Dues', 'Association Fee']],
  ['CurrencySymbol', ['Currency', 'Currency Code']],
  ['Tours', ['Tours', 'Tour']],
  ['Location', ['Location', 'Neighborhood', 'Subdivision']],
  ['EstimatePrice', ['Estimate', 'Estimated Value']],
  ['DepositFee', ['Deposit', 'Security Deposit']],
  ['UnitAreaPrice', ['Price Per Sq Ft', '$/SqFt', 'Price/SqFt', 'Price Per Square Foot']],
];

const INDEX = SYNONYMS.map(([field, names]) => [field, names.map(normalizeToken)] as const);

/**
 * A CSV feed without a mapping: guess one from its header by known synonyms. The guess is printed by
 * `feed-sync validate` for the user to copy and fix. Columns nothing claims go to ExtensionColumn.
 */
export function inferCsvMapping(headers: readonly string[]): MappingConfig {
  const byToken = new Map<string, string>();
  for (const header of headers) {
    const token = normalizeToken(header).replace(/[()]/g, '');
    if (!byToken.has(token)) byToken.set(token, header);
  }
  const taken = new Set<string>();
  const found = new Map<string, string>();
  for (const [field, tokens] of INDEX) {
    for (const token of tokens) {
      const header = byToken.get(token);
      if (header && !taken.has(header)) {
        found.set(field, header);
        taken.add(header);
        break;
      }
    }
  }
  const fields: Partial<Record<ListingField, string | FieldRuleObject>> = {};
  for (const [field, header] of found) {
    if (field === 'BathsFull' || field === 'BathsHalf' || field === 'AreaUnitColumn') continue;
    fields[field as ListingField] = header;
  }
  const full = found.get('BathsFull');
  const half = found.get('BathsHalf');
  if (full || half) {
    fields.Bathrooms = {
      ...(fields.Bathrooms ? { from: found.get('Bathrooms') } : {}),
      ...(full ? { full } : {}),
      ...(half ? { half } : {}),
    };
  }
  const unitFrom = found.get('AreaUnitColumn');
  if (unitFrom && fields.BuildingArea) fields.BuildingArea = { from: found.get('BuildingArea')!, unitFrom };
  if (fields.Images) fields.Images = { from: found.get('Images')!, split: '|' };
  if (found.get('LotArea') && /acre/i.test(found.get('LotArea')!))
    fields.LotArea = { from: found.get('LotArea')!, unit: 'acres' };
  return { fields, extensions: { unmapped: true } };
}
