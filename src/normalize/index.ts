export { normalizeAreaUnit } from './area-units.ts';
export { factPaths } from './compile-facts.ts';
export type { FieldKind } from './compile-field.ts';
export { type CompiledMapping, compileMapping, KINDS, type MappedRecord } from './compile-mapping.ts';
export { compileCondition } from './compile-rule.ts';
export { describeFact, explainFacts } from './describe-facts.ts';
export { REMOVE } from './enum-maps.ts';
export { compilePath, isSet, type RawFields, scalarOf } from './field-path.ts';
export type { FieldProblem } from './field-problem.ts';
export {
  fieldsForColumn,
  inferCsvMapping,
  inferredMappingHints,
  type MappingHint,
} from './infer-csv-mapping.ts';
export {
  AREA_FIELDS,
  ENUM_FIELDS,
  type ExtensionEntry,
  KEY_TYPES,
  LISTING_FIELDS,
  type Listing,
  type ListingField,
  listingSchema,
  MARKER_FIELDS,
  type MarkerField,
  MONEY_FIELDS,
  NUMERIC_FIELDS,
  SALE_TYPES,
  SPACE_TYPES,
  STATUSES,
  TEXT_FIELDS,
  TOURS,
  UNKNOWN,
} from './listing-schema.ts';
export { objectBuilder, propertyReader } from './literal-access.ts';
export {
  type Condition,
  type FactRule,
  type FieldRuleObject,
  type MappingConfig,
  mappingSchema,
  PRESET_NAMES,
  type PresetName,
  type SingleRule,
} from './mapping-schema.ts';
export { noteOf, noteRowsHint } from './note-row.ts';
export { parseNumber } from './parse-number.ts';
export { parseTimestamp } from './parse-timestamp.ts';
export { PHOTO_STAMP_KEY, photoStampOf } from './photo-stamp.ts';
export { presetRejectionHint } from './presets/preset-hints.ts';
export { missingPresetFields, PRESET_HOOKS, withPresetHooks } from './presets/preset-hooks.ts';
export { PRESET_RECORD_PATHS, PRESETS } from './presets/presets.ts';
export { mergeMappings, resolveMapping } from './resolve-mapping.ts';
export { compileTemplate } from './template.ts';
export { acceptListing, type Validation, validateListing } from './validate-listing.ts';
