import type { StoredListing } from './listing-store.ts';
import type { ImagesFormat } from './options.ts';
import type { SaleType } from './request-schemas.ts';

/**
 * One entry of `Data.List` as the platform returns it (spec 2.4, second table). Only the fields
 * that table lists: no `AreaUnit`, `Location` or `SerialNumber`. Numeric values are strings and an
 * unset value is `""`, except the coordinates, which are numbers (null when unset).
 */
export interface ListRecord {
  ID: number;
  PropertyType: string;
  SaleType: string;
  Status: string;
  Images: string;
  CurrencySymbol: string;
  State: string;
  City: string;
  Address: string;
  ZIP: string;
  Area: string;
  Url: string;
  Tours: string;
  Description: string;
  SpaceType: string;
  Price: string;
  Bathrooms: string;
  Bedrooms: string;
  YearBuilt: string;
  MLSNumber: string;
  DaysOnMarket: string;
  LotArea: string;
  BuildingArea: string;
  ParkingSpots: string;
  RentPrice: string;
  DepositFee: string;
  SalePrice: string;
  UnitAreaPrice: string;
  EstimatePrice: string;
  HOAMonth: string;
  LATITUDE: number | null;
  LONGITUDE: number | null;
  ExtensionColumn: string;
}

/** The display form the list operation uses for SaleType ("may differ from the input enumeration"). */
export const SALE_TYPE_DISPLAY: Record<SaleType, string> = { for_sale: 'For Sale', for_rent: 'For Rent' };

/** Serialize a stored listing the way the list operation returns it. Pure. */
export function toListRecord(stored: StoredListing, imagesFormat: ImagesFormat = 'comma'): ListRecord {
  return {
    ID: stored.ID,
    PropertyType: stored.PropertyType,
    SaleType: SALE_TYPE_DISPLAY[stored.SaleType],
    Status: stored.Status,
    Images: formatImages(stored.Images, imagesFormat),
    CurrencySymbol: stored.CurrencySymbol,
    State: text(stored.State),
    City: text(stored.City),
    Address: text(stored.Address),
    ZIP: text(stored.ZIP),
    Area: numeric(stored.BuildingArea),
    Url: stored.Url,
    Tours: text(stored.Tours),
    Description: text(stored.Description),
    SpaceType: text(stored.SpaceType),
    Price: money(priceOf(stored)),
    Bathrooms: numeric(stored.Bathrooms),
    Bedrooms: numeric(stored.Bedrooms),
    YearBuilt: numeric(stored.YearBuilt),
    MLSNumber: stored.MLSNumber,
    DaysOnMarket: numeric(stored.DaysOnMarket),
    LotArea: numeric(stored.LotArea),
    BuildingArea: numeric(stored.BuildingArea),
    ParkingSpots: numeric(stored.ParkingSpots),
    RentPrice: money(stored.RentPrice),
    DepositFee: money(stored.DepositFee),
    SalePrice: money(stored.SalePrice),
    UnitAreaPrice: money(stored.UnitAreaPrice),
    EstimatePrice: money(stored.EstimatePrice),
    HOAMonth: money(stored.HOAMonth),
    LATITUDE: coordinate(stored.Latitude),
    LONGITUDE: coordinate(stored.Longitude),
    ExtensionColumn: stored.ExtensionColumn === undefined ? '' : JSON.stringify(stored.ExtensionColumn),
  };
}

/** `Price` is the price that fits the sale type, falling back to the other one. */
function priceOf(stored: StoredListing): number | undefined {
  return stored.SaleType === 'for_rent'
    ? (stored.RentPrice ?? stored.SalePrice)
    : (stored.SalePrice ?? stored.RentPrice);
}

function formatImages(images: readonly string[] | undefined, format: ImagesFormat): string {
  if (images === undefined) return '';
  return format === 'json' ? JSON.stringify(images) : images.join(',');
}

function text(value: string | undefined): string {
  return value ?? '';
}

function numeric(value: number | undefined): string {
  return value === undefined ? '' : String(value);
}

/** Money is kept to cents, like a decimal(…, 2) column would. */
function money(value: number | undefined): string {
  return value === undefined ? '' : String(Math.round(value * 100) / 100);
}

function coordinate(value: number | undefined): number | null {
  return value === undefined ? null : Math.round(value * 1e6) / 1e6;
}
