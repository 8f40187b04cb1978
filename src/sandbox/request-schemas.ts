import { z } from 'zod';

/**
 * The requests of the spec, as the sandbox checks them: written from the spec's field tables
 * (sections 2.4 and 4), never imported from the client, so a client that misreads the spec is
 * refused here. Stricter than the spec where it is silent: a required string must not be empty,
 * and a field the spec does not list is refused (`unknown field`), so a misspelt field shows up.
 */

/** Enumerations of spec 2.4 (input form) and 4.4–4.6. */
export const SALE_TYPES = ['for_sale', 'for_rent'] as const;
export const STATUSES = ['Active', 'PreOnMarket', 'Sold'] as const;
export const AREA_UNITS = ['Square Feet', 'Square Meters'] as const;
export const TOURS = ['OpenHouse', '3D'] as const;
export const SPACE_TYPES = ['Entire place', 'Room'] as const;
export const KEY_TYPES = ['NewOaks', 'MLSNumber', 'URL'] as const;
export const ASK_TYPES = ['Text', 'Audio', 'Image', 'Video'] as const;

export type SaleType = (typeof SALE_TYPES)[number];
export type KeyType = (typeof KEY_TYPES)[number];

const text = z.string();
const required = z.string().min(1);

/** The listing fields of spec 2.4 (input form), `SerialNumber` aside; "Required on create" as marked. */
const listingShape = {
  SaleType: z.enum(SALE_TYPES),
  Status: z.enum(STATUSES),
  CurrencySymbol: required,
  PropertyType: required,
  Bedrooms: z.number(),
  Bathrooms: z.number(),
  Url: required,
  MLSNumber: required,
  YearBuilt: z.number(),
  DaysOnMarket: z.number(),
  LotArea: z.number(),
  BuildingArea: z.number(),
  AreaUnit: z.enum(AREA_UNITS),
  Images: z.array(text).optional(),
  Tours: z.enum(TOURS).optional(),
  ParkingSpots: z.number(),
  Description: text.optional(),
  ExtensionColumn: z.array(z.strictObject({ Key: text, value: text })).optional(),
  Location: text.optional(),
  Address: text.optional(),
  City: text.optional(),
  State: text.optional(),
  ZIP: text.optional(),
  Latitude: z.number().optional(),
  Longitude: z.number().optional(),
  SalePrice: z.number().optional(),
  UnitAreaPrice: z.number().optional(),
  HOAMonth: z.number().optional(),
  EstimatePrice: z.number().optional(),
  RentPrice: z.number().optional(),
  SpaceType: z.enum(SPACE_TYPES).optional(),
  DepositFee: z.number().optional(),
};

/** A listing as the sandbox stores it: the create input without `SerialNumber`. */
export const sandboxListingSchema = z.strictObject(listingShape);
export type SandboxListing = z.infer<typeof sandboxListingSchema>;
export const LISTING_FIELDS = Object.keys(listingShape) as (keyof SandboxListing)[];

// 4.3 Create.
export const createSchema = z.strictObject({ SerialNumber: required, ...listingShape });

/**
 * 4.4 Update marks the listing fields required, yet its own example omits several; the sandbox
 * takes the lenient reading: `SerialNumber`, `Key` and `KeyType` are required, the listing fields
 * present are type- and enum-checked and replace the stored ones, absent ones are kept.
 */
export const updateSchema = sandboxListingSchema.partial().extend({
  SerialNumber: required,
  Key: required,
  KeyType: z.enum(KEY_TYPES),
});

/** 4.4 Update as its field table reads (`updateRequiresAll`): the fields required on create, required. */
export const strictUpdateSchema = sandboxListingSchema.extend({
  SerialNumber: required,
  Key: required,
  KeyType: z.enum(KEY_TYPES),
});

// 4.5 List.
export const listSchema = z.strictObject({
  SerialNumber: required,
  CityName: text.optional(),
  SaleType: z.enum(SALE_TYPES).optional(),
  MLSNumber: text.optional(),
  PageNumber: z.number().int().min(1).optional(),
  PageSize: z.number().int().min(1).optional(),
});

// 4.6 Delete.
export const deleteSchema = z.strictObject({
  SerialNumber: required,
  Keys: z.array(required).min(1),
  KeyType: z.enum(KEY_TYPES),
});

// GetSession (not shown by the spec): the chatbot's `serialNumber`, as Edit spells it.
export const sessionSchema = z.strictObject({ serialNumber: required });

// 4.2 ClientAsk.
export const askSchema = z.strictObject({
  sessionID: z.number().int(),
  content: text,
  chatAskType: z.enum(ASK_TYPES).nullish(),
  stream: z.boolean().optional(),
  fileIds: z.array(z.number().int()).optional(),
});
export type AskRequest = z.infer<typeof askSchema>;
