import { compileFact, extensionValue, factPaths } from './compile-facts.ts';
import {
  compileField,
  type FieldContext,
  type FieldKind,
  type FieldWriter,
  type MappedRecord,
} from './compile-field.ts';
import { DEFAULT_MAPS } from './enum-maps.ts';
import { compilePath, isSet, type RawFields } from './field-path.ts';
import { problem } from './field-problem.ts';
import {
  LISTING_FIELDS,
  type ListingField,
  SALE_TYPES,
  SPACE_TYPES,
  STATUSES,
  TOURS,
} from './listing-schema.ts';
import { propertyReader } from './literal-access.ts';
import {
  type FactRule,
  MAPPED_ENUM_FIELDS,
  type MappedEnumField,
  type MappingConfig,
  type SingleRule,
} from './mapping-schema.ts';
import { PRICE_ON_REQUEST, signOf } from './money.ts';
import { normalizeMap } from './normalize-token.ts';
import { resolveMapping } from './resolve-mapping.ts';
import { compileMarkers } from './unknown-markers.ts';

export type { MappedRecord } from './compile-field.ts';

/** How each listing field's raw value is read (exported for `explain`, which words the conversion). */
export const KINDS: Readonly<Record<ListingField, FieldKind>> = {
  SaleType: 'enum',
  Status: 'enum',
  PropertyType: 'enum',
  Tours: 'enum',
  SpaceType: 'enum',
  CurrencySymbol: 'currency',
  Url: 'url',
  Images: 'images',
  Bathrooms: 'bathrooms',
  Bedrooms: 'number',
  YearBuilt: 'number',
  DaysOnMarket: 'number',
  ParkingSpots: 'number',
  Latitude: 'number',
  Longitude: 'number',
  LotArea: 'area',
  BuildingArea: 'area',
  SalePrice: 'money',
  UnitAreaPrice: 'money',
  HOAMonth: 'money',
  EstimatePrice: 'money',
  RentPrice: 'money',
  DepositFee: 'money',
  MLSNumber: 'string',
  Description: 'string',
  Location: 'string',
  Address: 'string',
  City: 'string',
  State: 'string',
  ZIP: 'string',
  AreaUnit: 'string',
  ExtensionColumn: 'string',
};

const ENUM_VALUES: Readonly<Record<MappedEnumField, readonly string[] | undefined>> = {
  Status: STATUSES,
  SaleType: SALE_TYPES,
  Tours: TOURS,
  SpaceType: SPACE_TYPES,
  PropertyType: undefined,
};

/** Fields the mapping itself decides rather than the feed. */
const COMPUTED = new Set<string>(['AreaUnit', 'ExtensionColumn']);
/**
 * Every listing field, unset. Each record's candidate listing and raw values start as a copy of it:
 * fields then only change value, and V8 keeps such an object compact and fast, where fields added
 * one by one past ~18 would turn it into a dictionary.
 */
const UNSET_FIELDS: Readonly<Record<string, unknown>> = Object.fromEntries(
  LISTING_FIELDS.map((field) => [field, undefined]),
);

/** The element name of an XML record (`residential`, `commercial`), as the XML source names it. */
const TAG_FIELD = '$tag';

/** Never copied into ExtensionColumn: parser bookkeeping (the record's element name and the document's namespace) and OData annotations. */
const ALWAYS_EXCLUDED = ['$tag', '$xmlns', '@odata.*', '#text'];

export interface CompiledMapping {
  /** The resolved mapping (preset merged), as data for `validate` to print. */
  mapping: MappingConfig;
  /** Map one record; `explain` also keeps the raw value behind each field, for messages. */
  map(record: RawFields, explain?: boolean): MappedRecord;
  /** The paths each mapped field reads (every alternative, its conditions and companions). */
  fieldPaths: Readonly<Partial<Record<ListingField, readonly string[]>>>;
}

export interface CompileOptions {
  /** The run's clock, for `daysSince` rules (the caller reads it: normalize stays pure). */
  now?: Date;
}

/** Compile a feed's mapping once; `map` then runs per record with no further parsing of the config. */
export function compileMapping(config: MappingConfig, options: CompileOptions = {}): CompiledMapping {
  const now = options.now?.getTime();
  const mapping = resolveMapping(config);
  const areaUnit = mapping.areaUnit ?? 'Square Feet';
  const writers: FieldWriter[] = [];
  const used = new Set<string>();
  const fieldPaths: Partial<Record<ListingField, string[]>> = {};
  for (const [field, rule] of Object.entries(mapping.fields ?? {}) as [ListingField, unknown][]) {
    if (rule === null || rule === undefined || COMPUTED.has(field)) continue;
    const enumField = (MAPPED_ENUM_FIELDS as readonly string[]).includes(field)
      ? (field as MappedEnumField)
      : undefined;
    const alternatives = (Array.isArray(rule) ? rule : [rule]) as SingleRule[];
    const ctx: FieldContext = {
      areaUnit,
      decimalComma: mapping.decimalComma ?? 'unsaid',
      maxImages: mapping.maxImages ?? 50,
      ...(now === undefined ? {} : { now }),
      ...(mapping.baseUrl === undefined ? {} : { baseUrl: mapping.baseUrl }),
      ...(mapping.underContract === undefined ? {} : { underContract: mapping.underContract }),
    };
    if (enumField) {
      ctx.enumMap = normalizeMap(DEFAULT_MAPS[enumField], mapping.maps?.[enumField]);
      ctx.enumValues = ENUM_VALUES[enumField];
    }
    const compiled = alternatives.map((alternative, i) => {
      // The per-feed default applies once every alternative has given nothing.
      const last = i === alternatives.length - 1;
      const fieldCtx = last ? { ...ctx, fallback: mapping.defaults?.[field] } : ctx;
      const enumMap =
        enumField && typeof alternative === 'object' && alternative.map
          ? normalizeMap(DEFAULT_MAPS[enumField], mapping.maps?.[enumField], alternative.map)
          : ctx.enumMap;
      return compileField(field, KINDS[field], alternative, { ...fieldCtx, ...(enumMap ? { enumMap } : {}) });
    });
    for (const c of compiled) for (const path of c.paths) markUsed(used, path);
    fieldPaths[field] = compiled.flatMap((c) => c.paths);
    if (compiled.length === 1) {
      writers.push(compiled[0]!.write);
      continue;
    }
    const get = propertyReader(field);
    writers.push((record, out) => {
      const problems = out.problems.length;
      for (const c of compiled) {
        c.write(record, out);
        if (get(out.listing) !== undefined || out.remove || out.problems.length > problems) return;
      }
    });
  }
  const defaultsOnly = Object.entries(mapping.defaults ?? {}).filter(
    ([field]) => !mapping.fields?.[field as ListingField],
  );
  for (const [field, value] of defaultsOnly) {
    const ctx: FieldContext = { areaUnit, decimalComma: false, maxImages: 50, fallback: value };
    writers.push(compileField(field as ListingField, KINDS[field as ListingField], {}, ctx).write);
  }
  const extensions = compileExtensions(mapping, used);
  const markers = compileMarkers(mapping.missing, TAG_FIELD);
  return {
    mapping,
    fieldPaths,
    map(record, explain = false) {
      const out: MappedRecord = { listing: { ...UNSET_FIELDS }, problems: [], remove: false };
      if (explain) out.raw = { ...UNSET_FIELDS };
      out.listing.AreaUnit = areaUnit;
      for (const write of writers) write(record, out);
      if (out.priceSigns) checkPriceSigns(out);
      // `Price: on request` only where no price is published: a zero-filled or `POA` rent column
      // beside a list price said it of a listing with one (a reviewer).
      if (out.notes && (out.listing.SalePrice !== undefined || out.listing.RentPrice !== undefined))
        out.notes = out.notes.filter((note) => note.Key !== PRICE_ON_REQUEST.Key);
      // Many MLS exports send 0,0 for "no coordinates": that is not a point in the Gulf of Guinea.
      if (out.listing.Latitude === 0 && out.listing.Longitude === 0) {
        out.listing.Latitude = undefined;
        out.listing.Longitude = undefined;
      }
      markers(out, record);
      let entries = extensions(record, out);
      // A note whose Key the feed's own extensions already carry (`Source status`) is not repeated.
      if (out.notes) {
        entries ??= [];
        for (const note of out.notes) if (!entries.some((e) => e.Key === note.Key)) entries.push(note);
      }
      if (entries !== undefined && entries.length > 0) out.listing.ExtensionColumn = entries;
      return out;
    },
  };
}

/**
 * A price whose text carries another currency than the listing's CurrencySymbol (`£1,379,000` under
 * a constant `$`): the record is rejected, naming both, where it would reach the chatbot as dollars.
 * Signs only: two dollars (`US$`, `A$`, `$`) are not told apart, and a symbol without a sign (`CHF`)
 * is not checked.
 */
function checkPriceSigns(out: MappedRecord): void {
  const symbol = out.listing.CurrencySymbol;
  const listed = typeof symbol === 'string' ? signOf(symbol) : undefined;
  if (listed === undefined) return;
  for (const { field, value, sign } of out.priceSigns ?? [])
    if (sign !== listed)
      out.problems.push(
        problem(
          field,
          value,
          'currency_mismatch',
          `is in ${sign}, but the listing's CurrencySymbol is ${String(symbol)}: map CurrencySymbol from the price column (as the presets do: a price text gives its own currency) or fix the feed`,
        ),
      );
}

function compileExtensions(
  mapping: MappingConfig,
  used: Set<string>,
): (record: RawFields, out: MappedRecord) => Entry[] | undefined {
  // `null`: a preset's fact the feed dropped.
  const fields = Object.entries(mapping.extensions?.fields ?? {}).filter(
    (entry): entry is [string, string | FactRule] => entry[1] !== null,
  );
  // A plain path is read as before (a CSV column, one element's text); a fact rule is compiled.
  const named = fields.map(([key, rule]) =>
    typeof rule === 'string'
      ? {
          key,
          reader: compilePath(rule),
          column: /[.:]/.test(rule) ? undefined : propertyReader(rule.normalize('NFC')),
          fact: undefined,
        }
      : {
          key,
          reader: undefined,
          column: undefined,
          // Numbers as the fields read them: a `2.210` no rule may read 1000× off (compile-facts.ts).
          fact: compileFact(rule, { decimalComma: mapping.decimalComma ?? 'unsaid' }),
        },
  );
  for (const [, rule] of fields)
    for (const path of typeof rule === 'string' ? [rule] : factPaths(rule)) markUsed(used, path);
  const unmapped = mapping.extensions?.unmapped ?? false;
  const excluded = [...ALWAYS_EXCLUDED, ...(mapping.extensions?.exclude ?? [])];
  const isExcluded = (key: string) =>
    excluded.some((pattern) =>
      pattern.endsWith('*') ? key.startsWith(pattern.slice(0, -1)) : key === pattern,
    );
  // Undefined rather than an empty array when the record has none: most records of most feeds.
  return (record, out) => {
    let entries: Entry[] | undefined;
    for (let i = 0; i < named.length; i++) {
      const { key, reader, column, fact } = named[i]!;
      if (fact) {
        // A value the fact cannot read leaves it out and is said (`droppedFacts`); the listing goes
        // on: a side figure never holds the price, status and photos it is quoted beside.
        const value = fact(record, (problem) => {
          out.droppedFacts ??= [];
          out.droppedFacts.push({ key, ...problem });
        });
        if (value !== undefined) entries = withEntry(entries, { Key: key, value });
        continue;
      }
      // A CSV column holds one text: no arrays to build.
      const text = column === undefined ? undefined : column(record);
      if (typeof text === 'string') {
        const value = text.trim();
        if (value !== '') entries = withEntry(entries, { Key: key, value });
        continue;
      }
      const values = reader!(record).map(extensionValue).filter(isSet);
      if (values.length > 0)
        entries = withEntry(entries, { Key: key, value: values.map(stringify).join(', ') });
    }
    if (unmapped) {
      for (const [key, value] of Object.entries(record)) {
        if (used.has(key) || isExcluded(key) || !isSet(value)) continue;
        entries = withEntry(entries, { Key: key, value: stringify(value) });
      }
    }
    return entries;
  };
}

/**
 * The top-level field a path reads, for `extensions.unmapped` to leave out: its first segment, and
 * the whole path too, since a CSV header may hold dots and is read whole (`Sq. Ft.`, Redfin's `URL
 * (SEE https://www.redfin.com/…)`).
 */
function markUsed(used: Set<string>, path: string): void {
  used.add(path);
  used.add(path.split('.')[0]!);
}

type Entry = { Key: string; value: string };

function withEntry(entries: Entry[] | undefined, entry: Entry): Entry[] {
  if (entries === undefined) return [entry];
  entries.push(entry);
  return entries;
}

function stringify(value: unknown): string {
  return typeof value === 'string'
    ? value.trim()
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
}
