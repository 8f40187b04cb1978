import type { MappedRecord } from './compile-field.ts';
import type { RawFields } from './field-path.ts';
import { MARKER_FIELDS, type MarkerField, UNKNOWN } from './listing-schema.ts';
import { propertyReader, propertyWriter } from './literal-access.ts';
import type { MissingPolicy } from './mapping-schema.ts';

/**
 * What a required numeric field the record truly lacks becomes. `unknown`: the marker 0, counted
 * per field in the ingest result, so the report can say how many listings carry it. `reject`: the
 * record is rejected as `missing`. Counts of rooms default to `rooms`: the marker only where the
 * property type has none (land, a parking space, an office), else a rejection, because a house
 * with no bedroom count is a broken record and "0 bedrooms" would be read as a studio.
 */
const DEFAULT_POLICY: Readonly<Record<MarkerField, MissingPolicy | 'rooms'>> = {
  LotArea: 'unknown',
  BuildingArea: 'unknown',
  YearBuilt: 'unknown',
  DaysOnMarket: 'unknown',
  ParkingSpots: 'unknown',
  Bedrooms: 'rooms',
  Bathrooms: 'rooms',
};

/**
 * Words of property types without bedrooms or bathrooms: `Vacant Land`, `Lots and Land`,
 * `UnimprovedLand`, `Commercial Land`, `Parking Space`, REAXML's commercial and business categories
 * and its rural ones (a farm is sold as land; a homestead on it has its counts in the feed), RESO's
 * `Ranch`, `Agriculture` and `Boat Slip`, Kyero's `ruin` (a plot, in Kyero's own types). Whole
 * words, so an `Island Cottage` keeps its rooms.
 */
const NO_ROOMS = new Set([
  'land',
  'lot',
  'lots',
  'acreage',
  'vacant',
  'unimproved',
  'parking',
  'carpark',
  'carspace',
  'garage',
  'storage',
  'mooring',
  'commercial',
  'business',
  'industrial',
  'warehouse',
  'office',
  'offices',
  'retail',
  'shop',
  'rural',
  'plot',
  'farm',
  'farmland',
  'farmlet',
  'cropping',
  'dairy',
  'grazing',
  'livestock',
  'horticulture',
  'viticulture',
  'vineyard',
  'orchard',
  'ruin',
  'ruins',
  'ranch',
  'agriculture',
  'agricultural',
  'timberland',
  'pasture',
  'slip',
  'boatslip',
]);

const roomless = new Map<string, boolean>();
/** The property type has no rooms to count. */
export function hasNoRooms(propertyType: unknown): boolean {
  if (typeof propertyType !== 'string') return false;
  let known = roomless.get(propertyType);
  if (known === undefined) {
    // `UnimprovedLand` → `unimproved land`; `Industrial/Warehouse` → `industrial warehouse`.
    const words = propertyType
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z]+/);
    known = words.some((word) => NO_ROOMS.has(word));
    if (roomless.size < 1000) roomless.set(propertyType, known);
  }
  return known;
}

/** Fields filled with the marker, shared between records (one array per distinct set, not per listing). */
const interned = new Map<string, readonly MarkerField[]>();
function intern(fields: MarkerField[]): readonly MarkerField[] {
  const key = fields.join(',');
  let shared = interned.get(key);
  if (shared === undefined) {
    shared = Object.freeze(fields);
    if (interned.size < 256) interned.set(key, shared);
  }
  return shared;
}

/** Compile the feed's `missing` policy into a step run on each mapped record. */
export function compileMarkers(
  policy: Partial<Record<MarkerField, MissingPolicy>> | undefined,
  kindField: string,
): (out: MappedRecord, record: RawFields) => void {
  const rules = MARKER_FIELDS.map(
    (field) =>
      [
        field,
        policy?.[field] ?? DEFAULT_POLICY[field],
        propertyReader(field),
        propertyWriter(field),
      ] as const,
  );
  const kindOf = propertyReader(kindField);
  return (out, record) => {
    if (out.remove) return;
    // The property type, or the record's kind where the format names it (REAXML `<commercial>`).
    const noRooms = () => hasNoRooms(out.listing.PropertyType) || hasNoRooms(kindOf(record));
    const marked: MarkerField[] = [];
    for (const [field, rule, get, set] of rules) {
      const value = get(out.listing);
      // A feed sending YearBuilt 0 says "unknown" itself: it carries the marker too.
      if (value === UNKNOWN && field === 'YearBuilt') marked.push(field);
      if (value !== undefined || rule === 'reject') continue;
      if (rule === 'rooms' && !noRooms()) continue;
      // A value the feed sent but that is broken stays a rejection: only absence becomes the marker.
      if (out.problems.some((p) => p.field === field)) continue;
      set(out.listing, UNKNOWN);
      marked.push(field);
    }
    if (marked.length > 0) out.unknown = intern(marked);
  };
}
