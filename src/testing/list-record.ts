import { canonicalizeRemote, type RemoteListing, type RemoteRecord } from '../api/index.ts';
import type { Listing } from '../normalize/index.ts';

const TEXT = [
  'PropertyType',
  'Status',
  'CurrencySymbol',
  'State',
  'City',
  'Address',
  'ZIP',
  'Url',
  'Tours',
  'Description',
  'SpaceType',
] as const;
const NUMERIC = [
  'Bathrooms',
  'Bedrooms',
  'YearBuilt',
  'DaysOnMarket',
  'LotArea',
  'BuildingArea',
  'ParkingSpots',
  'RentPrice',
  'DepositFee',
  'SalePrice',
  'UnitAreaPrice',
  'EstimatePrice',
  'HOAMonth',
] as const;

/**
 * A stored listing as the list operation returns it, written from the spec (2.4, the second table)
 * for the tests, apart from the sandbox's own writer: text fields as given or `""`, numeric values
 * as strings (`""` when unset), `Price` and `Area` besides the fields they repeat, the display form
 * of SaleType, `Images` as one comma-separated string, `ExtensionColumn` as JSON text, coordinates as
 * numbers (null when unset), and no AreaUnit, Location or SerialNumber.
 */
export function listRecordOf(id: number, stored: Listing): RemoteRecord {
  const record: Record<string, unknown> = { ID: id, MLSNumber: stored.MLSNumber };
  for (const field of TEXT) record[field] = stored[field] ?? '';
  for (const field of NUMERIC) record[field] = numeric(stored[field]);
  record.SaleType = stored.SaleType === 'for_rent' ? 'For Rent' : 'For Sale';
  record.Price = numeric(
    stored.SaleType === 'for_rent'
      ? (stored.RentPrice ?? stored.SalePrice)
      : (stored.SalePrice ?? stored.RentPrice),
  );
  record.Area = numeric(stored.BuildingArea);
  record.Images = (stored.Images ?? []).join(',');
  record.LATITUDE = stored.Latitude ?? null;
  record.LONGITUDE = stored.Longitude ?? null;
  record.ExtensionColumn = stored.ExtensionColumn === undefined ? '' : JSON.stringify(stored.ExtensionColumn);
  return record as RemoteRecord;
}

/** A stored listing with remote ID `id` as the run sees it: its list record, canonicalized by the client. */
export function remote(id: number, stored: Listing): RemoteListing {
  return canonicalizeRemote(listRecordOf(id, stored));
}

function numeric(value: number | undefined): string {
  return value === undefined ? '' : String(value);
}
