import { z } from 'zod';
import { AREA_UNITS, LISTING_FIELDS, type ListingField, MARKER_FIELDS } from './listing-schema.ts';
import { presetRequirementErrors } from './presets/requirements.ts';

/**
 * Presets shipped with the project (src/normalize/presets), written in this same mapping language.
 * `mls-csv` is the CSV export of an MLS or a brokerage tool: its mapping is inferred from the header
 * by known synonyms (`MLS #`, `Beds`, `List Price`…), with the feed's own fields merged over it.
 */
export const PRESET_NAMES = [
  'reso',
  'reaxml',
  'kyero',
  'listhub',
  'zillow',
  'blm',
  'openimmo',
  'mls-csv',
] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/** Listing fields whose values go through an enum map (`maps.<Field>`). */
export const MAPPED_ENUM_FIELDS = ['Status', 'SaleType', 'PropertyType', 'Tours', 'SpaceType'] as const;
export type MappedEnumField = (typeof MAPPED_ENUM_FIELDS)[number];

/** `unknown`: the marker 0 ("the feed does not say"); `reject`: the record is rejected as missing. */
export const missingPolicy = z.enum(['unknown', 'reject']);
export type MissingPolicy = z.infer<typeof missingPolicy>;

const listingField = z.enum(LISTING_FIELDS as [ListingField, ...ListingField[]]);
/** A path into a record: `ListPrice`, `Location.City`, `price.@display`, `images.image.url`, `commons:City`. */
const path = z.string().min(1);
const paths = z.union([path, z.array(path).min(1)]);
const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** Apply a rule only when the value at `path` is (or is not) one of the listed values (compared normalized). */
export const conditionSchema = z.strictObject({
  path,
  in: z.array(z.string()).optional(),
  notIn: z.array(z.string()).optional(),
  /** `true`: the path holds something (text, or an element with children); `false`: nothing. */
  set: z.boolean().optional(),
});

/** How one listing field is produced. A bare string is a source path; `null` drops a preset's rule. */
export const fieldRuleObjectSchema = z.strictObject({
  /** Source path, or several: the first that is set wins (or all of them, with `join`). */
  from: paths.optional(),
  /** A constant value. */
  const: scalar.optional(),
  /** `https://acme.example/listing/{ListingId}`: placeholders are paths; an unset one leaves the field unset. */
  template: z.string().optional(),
  /** Join every set value of `from` with this separator (address parts). */
  join: z.string().optional(),
  /** Add the numbers at these paths (`[features.garages, features.carports]`); unset when none is set. */
  sum: paths.optional(),
  /** Every condition must hold, else the rule gives nothing. */
  when: z.union([conditionSchema, z.array(conditionSchema)]).optional(),
  /**
   * Value map for this rule: source value → value, keys compared normalized, `*` catches the rest,
   * unlisted values pass through (`""` leaves the field unset). On enum fields it is merged over
   * `maps.<Field>` and the defaults. Any field: `{ from: $tag, map: { rental: for_rent } }`.
   */
  map: z.record(z.string(), z.string()).optional(),
  /** The value is HTML (`<br/>`, `<p>`, `&amp;`): turned into plain text, whitespace collapsed. */
  html: z.boolean().optional(),
  /** Used when the rule produces no value. */
  default: scalar.optional(),
  /** Area unit of the value (`sqft`, `m2`, `acres`, `ha`, `square`), converted to the feed's `areaUnit`. */
  unit: z.string().optional(),
  /** Path of the unit, for feeds that send it per record. */
  unitFrom: path.optional(),
  /** Money per period (`month`, `week`, `year`, `quarter`) converted to per month. */
  period: z.string().optional(),
  periodFrom: path.optional(),
  /** Bathrooms: counts added when the total (`from`) is unset. Half counts 0.5, three-quarter 0.75, quarter 0.25. */
  full: path.optional(),
  half: path.optional(),
  threeQuarter: path.optional(),
  quarter: path.optional(),
  /** Images: split string values on this separator (or on each of these). */
  split: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
  /** Images: the URL's path inside each item (`MediaURL`), and the order key (`Order`). */
  url: path.optional(),
  order: path.optional(),
  /** Images: keep only the items (e.g. RESO `Media`) for which this holds, paths read inside the item. */
  itemWhen: z.union([conditionSchema, z.array(conditionSchema)]).optional(),
  /**
   * Whole days from the date at this path (ISO `2024-05-01`, or a timestamp) to the day of the run,
   * for `DaysOnMarket` when a feed sends a listing date instead. A date in the future counts 0.
   */
  daysSince: path.optional(),
  /** For `daysSince`: how to read `05/01/2024`, `mdy` (US) or `dmy`. ISO dates and month names need none. */
  dateOrder: z.enum(['mdy', 'dmy']).optional(),
  /** Multiply numeric values (e.g. 0.01 for cents). */
  scale: z.number().optional(),
});
const singleRule = z.union([path, fieldRuleObjectSchema]);
/** A path, a rule, a list of alternatives (the first that gives a value wins), or `null` to drop a preset's rule. */
export const fieldRuleSchema = z.union([singleRule, z.array(singleRule).min(1), z.null()]);
export type SingleRule = z.infer<typeof singleRule>;
export type FieldRuleObject = z.infer<typeof fieldRuleObjectSchema>;
export type FieldRule = z.infer<typeof fieldRuleSchema>;
export type Condition = z.infer<typeof conditionSchema>;

const conditions = z.union([conditionSchema, z.array(conditionSchema)]);

/** How a fact's values read (`as:`): see compile-facts.ts. */
export const FACT_FORMATS = [
  'text',
  'yesno',
  'html',
  'date',
  'dateTime',
  'openHouse',
  'inspection',
  'range',
  'country',
  'number',
  'money',
] as const;

/**
 * One `ExtensionColumn` entry a chatbot answers from (`Pool: yes`, `Agent: Jane Doe, 0400 000 000`),
 * as data: the values of `from`, the `count`s above 0, the labels of the `yes` flags that hold, in
 * that order, each value mapped to words (`map`) and read `as` a kind (`yesno`, `date`, `openHouse`…).
 * Nothing set: no entry. With `each`, every item (each agent, each open house) gives one text.
 */
export const factRuleSchema = z.strictObject({
  /**
   * Paths of the values, in order; a nested list gives its first set path (`[DirectPhone, OfficePhone]`);
   * an entry with `{…}` is a template of paths (`"{FirstName} {LastName}"`), its missing parts left out.
   */
  from: z.union([path, z.array(z.union([path, z.array(path).min(1)])).min(1)]).optional(),
  /** Path → label: the label when the value says yes (`true`, `yes`, `1`, `Y`). */
  yes: z.record(z.string(), z.string()).optional(),
  /**
   * The text when nothing holds but the feed said no to a `yes` flag or gave a `count` of 0
   * (`no: "no"`). Unset: no entry, for formats whose `false` only means "not stated".
   */
  no: z.string().optional(),
  /** Path → `singular|plural`: `2 garages` when the value is a count above 0. */
  count: z.record(z.string(), z.string()).optional(),
  /** Values (and the unit of a `range`) as words: keys compared normalized, `*` the rest, `""` drops. */
  map: z.record(z.string(), z.string()).optional(),
  /** Split each text value on this separator first (`Cats,Dogs`). */
  split: z.string().optional(),
  /** Read the rule inside each item at this path; the items' texts are joined with `; `. */
  each: path.optional(),
  /** With `each`: only the items for which this holds (paths read inside the item). */
  itemWhen: conditions.optional(),
  /** How the values read: `text` (default), `yesno`, `html`, `date`, `dateTime`, `openHouse` (date, start, end), `inspection` (REAXML), `range` (min, max, unit), `country` (ISO code), `number` (`3.00` → `3`), `money` (amount, currency: `€2,210`; numbers read as mapped fields read them, `mapping.decimalComma` included). */
  as: z.enum(FACT_FORMATS).optional(),
  /** Separator between the values of one text. Default `, `. */
  join: z.string().optional(),
  /** Every condition must hold, else no entry. */
  when: conditions.optional(),
  /** Text around the value: `{ suffix: " km" }`. */
  prefix: z.string().optional(),
  suffix: z.string().optional(),
});
export type FactRule = z.infer<typeof factRuleSchema>;

export const extensionsSchema = z.strictObject({
  /**
   * `ExtensionColumn` Key → source path, or a fact rule (`{ from, yes, map, as, … }`). Merged over the
   * preset's facts key by key; `null` drops one of the preset's.
   */
  fields: z.record(z.string(), z.union([path, factRuleSchema, z.null()])).optional(),
  /** Also add every top-level source field that no rule reads. Default false. */
  unmapped: z.boolean().optional(),
  /** Fields never copied by `unmapped`; a trailing `*` matches a prefix (`NST_*`). */
  exclude: z.array(z.string()).optional(),
});

/**
 * The declarative mapping of one feed (`feeds[].mapping`). Every key is optional and merges over
 * the preset (field by field, map by map), so `mapping: { preset: reso }` is a whole mapping.
 */
export const mappingSchema = z
  .strictObject({
    preset: z.enum(PRESET_NAMES).optional(),
    /** Listing field → rule. */
    fields: z.partialRecord(listingField, fieldRuleSchema).optional(),
    /** Enum maps (source value → listing value) for Status, SaleType, PropertyType, Tours, SpaceType. Keys are
     * compared normalized (case, spaces, hyphens, underscores). A Status mapped to `remove` means "no longer listed". */
    maps: z.partialRecord(z.enum(MAPPED_ENUM_FIELDS), z.record(z.string(), z.string())).optional(),
    /** The unit BuildingArea and LotArea are converted to. Default `Square Feet`. */
    areaUnit: z.enum(AREA_UNITS).optional(),
    /** Numbers use a decimal comma (`84,5`). Default false. */
    decimalComma: z.boolean().optional(),
    /**
     * Base for relative listing and image URLs (`/photos/1.jpg`, `img/1.jpg`). Protocol-less ones
     * (`//cdn.example/1.jpg`) take `https:` with or without it.
     */
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * What a listing under contract (Pending, Active Under Contract, Contingent, Under Offer) becomes:
     * `active` (default: still advertised until it closes) or `remove`. Either way the feed's own
     * status is kept in ExtensionColumn (`Source status`) while the listing stays.
     */
    underContract: z.enum(['active', 'remove']).optional(),
    /** Most images kept per listing. Default 50. */
    maxImages: z.number().int().positive().optional(),
    /**
     * Values for fields the feed does not carry, when the value is known for the whole feed
     * (`CurrencySymbol: EUR`). Used only when unset. Never a plausible guess: see `missing`.
     */
    defaults: z.partialRecord(listingField, scalar).optional(),
    /**
     * What a required count or size the record lacks becomes: `unknown` (the marker 0, counted in the
     * report) or `reject`. Defaults: `unknown` for LotArea, BuildingArea, YearBuilt, DaysOnMarket,
     * ParkingSpots; Bedrooms and Bathrooms `unknown` only where the property type has none (land).
     */
    missing: z.partialRecord(z.enum(MARKER_FIELDS), missingPolicy).optional(),
    extensions: extensionsSchema.optional(),
  })
  // A preset that cannot stand alone asks for what its format does not carry, by name.
  .superRefine((mapping, ctx) => {
    for (const { field, message } of presetRequirementErrors(
      mapping.preset,
      mapping.fields,
      mapping.defaults,
    ))
      ctx.addIssue({ code: 'custom', path: ['fields', field], message });
  });
export type MappingConfig = z.infer<typeof mappingSchema>;
