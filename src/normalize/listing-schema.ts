import { z } from 'zod';

/** Enumerations of spec section 2.4 (input form). */
export const SALE_TYPES = ['for_sale', 'for_rent'] as const;
export const STATUSES = ['Active', 'PreOnMarket', 'Sold'] as const;
export const AREA_UNITS = ['Square Feet', 'Square Meters'] as const;
export const TOURS = ['OpenHouse', '3D'] as const;
export const SPACE_TYPES = ['Entire place', 'Room'] as const;
/** Which kind of key `Key`/`Keys` hold on update and delete (spec 4.4, 4.6). NewOaks is the platform's own `ID`. */
export const KEY_TYPES = ['NewOaks', 'MLSNumber', 'URL'] as const;

export type SaleType = (typeof SALE_TYPES)[number];
export type ListingStatus = (typeof STATUSES)[number];
export type AreaUnit = (typeof AREA_UNITS)[number];
export type KeyType = (typeof KEY_TYPES)[number];

const count = z.number().finite().nonnegative();
const money = z.number().finite().nonnegative();
/**
 * Plausible construction years, or 0: the unknown marker (docs/feeds.md), which a feed may send itself
 * (RESO vendors send `YearBuilt: 0` for "not known") or the mapping writes for a missing year. A
 * feed sending 20015 or 1066 is a data error.
 */
const year = z
  .number()
  .int()
  .min(0)
  .max(2100)
  .refine((y) => y === 0 || y >= 1600, {
    message: 'is out of range (1600 to 2100, or 0 for unknown)',
    params: { reason: 'out_of_range' },
  });

export const extensionEntrySchema = z.object({ Key: z.string().min(1), value: z.string() });
export type ExtensionEntry = z.infer<typeof extensionEntrySchema>;

/**
 * The canonical listing: the input form of create/update (spec 2.4) without `SerialNumber`, which
 * belongs to the chatbot the listing is sent to, not to the listing. Every stage speaks this type:
 * normalize produces it, the canonicalizer turns list records back into it, the plan compares it.
 */
export const listingSchema = z.object({
  SaleType: z.enum(SALE_TYPES),
  Status: z.enum(STATUSES),
  CurrencySymbol: z.string().min(1),
  PropertyType: z.string().min(1),
  Bedrooms: count,
  Bathrooms: count,
  Url: z.url({ protocol: /^https?$/ }),
  MLSNumber: z.string().min(1),
  YearBuilt: year,
  DaysOnMarket: count,
  LotArea: count,
  BuildingArea: count,
  AreaUnit: z.enum(AREA_UNITS),
  Images: z.array(z.string().min(1)).optional(),
  Tours: z.enum(TOURS).optional(),
  ParkingSpots: count,
  Description: z.string().optional(),
  ExtensionColumn: z.array(extensionEntrySchema).optional(),
  Location: z.string().optional(),
  Address: z.string().optional(),
  City: z.string().optional(),
  State: z.string().optional(),
  ZIP: z.string().optional(),
  Latitude: z.number().min(-90).max(90).optional(),
  Longitude: z.number().min(-180).max(180).optional(),
  SalePrice: money.optional(),
  UnitAreaPrice: money.optional(),
  HOAMonth: money.optional(),
  EstimatePrice: money.optional(),
  RentPrice: money.optional(),
  SpaceType: z.enum(SPACE_TYPES).optional(),
  DepositFee: money.optional(),
});

export type Listing = z.infer<typeof listingSchema>;
export type ListingField = keyof Listing;
export const LISTING_FIELDS = Object.keys(listingSchema.shape) as ListingField[];

/**
 * Required numeric fields a record may truly lack. The mapping fills them with the unknown marker, 0
 * (by its `missing` policy), never with a plausible invented value.
 */
export const MARKER_FIELDS = [
  'LotArea',
  'BuildingArea',
  'YearBuilt',
  'DaysOnMarket',
  'ParkingSpots',
  'Bedrooms',
  'Bathrooms',
] as const satisfies readonly ListingField[];
export type MarkerField = (typeof MARKER_FIELDS)[number];
/** The unknown marker: "the feed does not say". */
export const UNKNOWN = 0;

/** Fields the spec marks required on create. */
export const REQUIRED_FIELDS: readonly ListingField[] = LISTING_FIELDS.filter(
  (field) => !listingSchema.shape[field].safeParse(undefined).success,
);

/** Prices, in the listing's `CurrencySymbol`: the plan and report show them as money. */
export const MONEY_FIELDS = [
  'SalePrice',
  'UnitAreaPrice',
  'HOAMonth',
  'EstimatePrice',
  'RentPrice',
  'DepositFee',
] as const satisfies readonly ListingField[];

/** Areas, in the listing's `AreaUnit`. */
export const AREA_FIELDS = ['LotArea', 'BuildingArea'] as const satisfies readonly ListingField[];

/** Fields with a fixed set of values (`SALE_TYPES`…): compared ignoring case, spaces, hyphens and underscores. */
export const ENUM_FIELDS = [
  'SaleType',
  'Status',
  'Tours',
  'SpaceType',
] as const satisfies readonly ListingField[];

/** Free text the platform stores as sent: compared and read back trimmed. */
export const TEXT_FIELDS = [
  'PropertyType',
  'CurrencySymbol',
  'State',
  'City',
  'Address',
  'ZIP',
  'Url',
  'Description',
  'MLSNumber',
] as const satisfies readonly ListingField[];

/** Numeric fields of the canonical listing (the list operation returns these as strings). */
export const NUMERIC_FIELDS: readonly ListingField[] = [
  'Bedrooms',
  'Bathrooms',
  'YearBuilt',
  'DaysOnMarket',
  ...AREA_FIELDS,
  'ParkingSpots',
  'Latitude',
  'Longitude',
  ...MONEY_FIELDS,
];
