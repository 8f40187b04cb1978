import {
  type ExtensionEntry,
  type Listing,
  type ListingField,
  SALE_TYPES,
  SPACE_TYPES,
  STATUSES,
  TOURS,
} from '../normalize/index.ts';
import type { RemoteRecord } from './schemas.ts';

/** A listing as read back from RealEstateList, in canonical form, with the platform's own ID. */
export interface RemoteListing {
  /** The platform's ID: the key of `KeyType: NewOaks`. */
  id: number;
  /** Only the fields the list operation returned with a value. AreaUnit and Location are never returned. */
  listing: Partial<Listing>;
}

/** Fields of the canonical listing that the list operation returns (spec 2.4, second table). */
export const RETURNED_FIELDS: readonly ListingField[] = [
  'PropertyType',
  'SaleType',
  'Status',
  'Images',
  'CurrencySymbol',
  'State',
  'City',
  'Address',
  'ZIP',
  'Url',
  'Tours',
  'Description',
  'SpaceType',
  'Bathrooms',
  'Bedrooms',
  'YearBuilt',
  'MLSNumber',
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
  'Latitude',
  'Longitude',
  'ExtensionColumn',
];

/** `""`, null and undefined are all "unset" in a list record. */
function isUnset(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** `"1250000"`, `"1,250,000.00"`, `2.5` → number; anything else → undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || isUnset(value)) return undefined;
  // Number() already ignores surrounding white space; only thousands separators need removing.
  const n = Number(value.includes(',') ? value.replace(/,/g, '') : value);
  return Number.isFinite(n) ? n : undefined;
}

/** Compare enum spellings ignoring case, spaces, hyphens and underscores: `For Sale` = `for_sale` = `FOR-SALE`. */
function fold(value: string): string {
  return value.toLowerCase().replace(/[\s_-]+/g, '');
}

/** Folded spelling → enum value, built once per enum. */
const foldedEnums = new WeakMap<readonly string[], Map<string, string>>();
/**
 * Text as sent → its enum value, per enum: a list repeats a handful of spellings (`Active`,
 * `for_sale`) on every record, and folding each with a regexp was a tenth of a page's canonicalizing.
 * Bounded, so a platform sending a new spelling per record cannot fill the memory.
 */
const seenEnums = new WeakMap<readonly string[], Map<string, string>>();
const SEEN_ENUMS_KEPT = 256;

/** Map a display form onto the enum; an unknown value is kept as sent, so it compares unequal, visibly. */
export function toEnum<T extends string>(values: readonly T[], value: unknown): T | undefined {
  if (isUnset(value)) return undefined;
  const raw = String(value);
  let seen = seenEnums.get(values);
  const known = seen?.get(raw);
  if (known !== undefined) return known as T;
  const text = raw.trim();
  let folded = foldedEnums.get(values);
  if (!folded) {
    folded = new Map(values.map((v) => [fold(v), v]));
    foldedEnums.set(values, folded);
  }
  const result = folded.get(fold(text)) ?? text;
  if (!seen) {
    seen = new Map();
    seenEnums.set(values, seen);
  }
  if (seen.size < SEEN_ENUMS_KEPT) seen.set(raw, result);
  return result as T;
}

/** What makes an Images text more than URLs separated by commas: white space, `|` or `;`. */
const NOT_COMMAS_ALONE = /[\s|;]/;

/** `Images` comes back as one string: a JSON array, or URLs separated by commas, `|`, `;` or newlines. */
export function toImages(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map(String).filter((s) => s.trim() !== '');
  if (isUnset(value) || typeof value !== 'string') return undefined;
  const text = value.trim();
  // URLs separated by commas alone (what every answer of ours holds): split where the regular
  // expression below would, without it (a comma at the end is kept by it, so that text takes it).
  if (!text.endsWith(',') && !text.startsWith('[') && !NOT_COMMAS_ALONE.test(text)) {
    const urls = text.split(',').filter((s) => s !== '');
    return urls.length > 0 ? urls : undefined;
  }
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return toImages(parsed);
    } catch {
      // Not JSON after all: fall through to the separators.
    }
  }
  const urls = text
    .split(/\s*[,|;\n]\s*(?=\S)/)
    .map((s) => s.trim())
    .filter(Boolean);
  return urls.length > 0 ? urls : undefined;
}

/** A character that separates URLs in the platform's Images text, or white space. */
const SEPARATOR_OR_SPACE = /[\s,|;]/;

/**
 * URLs as the platform reads them back (`toImages`) once it has joined them into its one Images
 * text: a URL with a comma (or `|`, `;`) in it comes back as two, so the two are one value there,
 * and a run compares and digests Images in this form (compare.ts, digest.ts), not the feed's list
 * as it is (which would differ on every run: a flap no write can repair). URLs without a separator
 * or white space are returned as they are, without a copy.
 */
export function platformImages(urls: readonly unknown[]): readonly unknown[] {
  for (const url of urls)
    if (typeof url !== 'string' || SEPARATOR_OR_SPACE.test(url))
      return toImages(urls.map(String).join(',')) ?? [];
  return urls;
}

/** `ExtensionColumn` comes back as a JSON string of `{Key, value}` objects (keys matched loosely). */
export function toExtensionColumn(value: unknown): ExtensionEntry[] | undefined {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    if (isUnset(value)) return undefined;
    const plain = plainExtension(value);
    if (plain !== undefined) return plain;
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(parsed)) return undefined;
  const entries: ExtensionEntry[] = [];
  for (const item of parsed) {
    if (!item || typeof item !== 'object') continue;
    const o = item as Record<string, unknown>;
    // The spec writes `Key` and `value`; other casings are read too, without copying the entry.
    const key = o.Key ?? o.key ?? lookup(o, 'key');
    if (key === undefined || key === null) continue;
    const value = o.value ?? o.Value ?? lookup(o, 'value');
    entries.push({ Key: String(key), value: value === undefined || value === null ? '' : String(value) });
  }
  return entries.length > 0 ? entries : undefined;
}

const ENTRY_OPEN = '{"Key":"';
const ENTRY_MIDDLE = '","value":"';
const ENTRY_CLOSE = '"}';
/** Text JSON would read otherwise than by its quotes alone: an escape, or a control character it refuses. */
const NOT_PLAIN = /[\u0000-\u001f\\]/;

/**
 * ExtensionColumn as JSON.stringify writes the spec's entries, `[{"Key":"…","value":"…"},…]`, with
 * no escape in it (what every answer of ours holds), read by its quotes: without an escape every
 * `"` is a string's end, so the entries are exactly JSON.parse's, without the objects it makes and
 * the loop that reads them again (a tenth of a page's decoding). Anything else, `[]` too, is
 * undefined here and read as JSON.
 */
function plainExtension(s: string): ExtensionEntry[] | undefined {
  if (s.charCodeAt(0) !== 91 || NOT_PLAIN.test(s)) return undefined; // `[`
  const entries: ExtensionEntry[] = [];
  let i = 1;
  for (;;) {
    if (!s.startsWith(ENTRY_OPEN, i)) return undefined;
    const keyStart = i + ENTRY_OPEN.length;
    const keyEnd = s.indexOf('"', keyStart);
    if (keyEnd < 0 || !s.startsWith(ENTRY_MIDDLE, keyEnd)) return undefined;
    const valueStart = keyEnd + ENTRY_MIDDLE.length;
    const valueEnd = s.indexOf('"', valueStart);
    if (valueEnd < 0 || !s.startsWith(ENTRY_CLOSE, valueEnd)) return undefined;
    entries.push({ Key: s.slice(keyStart, keyEnd), value: s.slice(valueStart, valueEnd) });
    i = valueEnd + ENTRY_CLOSE.length;
    const c = s.charCodeAt(i);
    if (c === 44)
      i++; // `,`
    else return c === 93 && i === s.length - 1 ? entries : undefined; // `]`, the text's last
  }
}

function lookup(o: Record<string, unknown>, lowerName: string): unknown {
  for (const k in o) if (k.toLowerCase() === lowerName) return o[k];
  return undefined;
}

/** A text field: trimmed, or undefined when unset. */
function text(value: unknown): string | undefined {
  return isUnset(value) ? undefined : String(value).trim();
}

/**
 * Turn one record of `Data.List` back into the canonical listing (the quirks of spec 2.4). Pure.
 * Straight-line on purpose: it runs for every listing of every run, and named property reads of
 * records that all share one shape are several times faster than a loop of keyed reads. Unset
 * fields are `undefined` (one object shape for every listing). Which reader each field takes is
 * its class beside the listing schema: `TEXT_FIELDS` read as `text`, `NUMERIC_FIELDS` as
 * `toNumber`, the enums as `toEnum` (src/normalize/listing-schema.ts; canonicalize.test.ts checks).
 */
export function canonicalizeRemote(record: RemoteRecord): RemoteListing {
  const r = record as Record<string, unknown>;
  const listing = {
    PropertyType: text(r.PropertyType),
    SaleType: toEnum(SALE_TYPES, r.SaleType),
    Status: toEnum(STATUSES, r.Status),
    Images: toImages(r.Images),
    CurrencySymbol: text(r.CurrencySymbol),
    State: text(r.State),
    City: text(r.City),
    Address: text(r.Address),
    ZIP: text(r.ZIP),
    Url: text(r.Url),
    Tours: toEnum(TOURS, r.Tours),
    Description: text(r.Description),
    SpaceType: toEnum(SPACE_TYPES, r.SpaceType),
    Bathrooms: toNumber(r.Bathrooms),
    Bedrooms: toNumber(r.Bedrooms),
    YearBuilt: toNumber(r.YearBuilt),
    MLSNumber: text(r.MLSNumber),
    DaysOnMarket: toNumber(r.DaysOnMarket),
    LotArea: toNumber(r.LotArea),
    BuildingArea: toNumber(r.BuildingArea),
    ParkingSpots: toNumber(r.ParkingSpots),
    RentPrice: toNumber(r.RentPrice),
    DepositFee: toNumber(r.DepositFee),
    SalePrice: toNumber(r.SalePrice),
    UnitAreaPrice: toNumber(r.UnitAreaPrice),
    EstimatePrice: toNumber(r.EstimatePrice),
    HOAMonth: toNumber(r.HOAMonth),
    Latitude: toNumber(r.LATITUDE ?? r.Latitude),
    Longitude: toNumber(r.LONGITUDE ?? r.Longitude),
    ExtensionColumn: toExtensionColumn(r.ExtensionColumn),
  };
  return { id: Number(record.ID), listing: listing as Partial<Listing> };
}
