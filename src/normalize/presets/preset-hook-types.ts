import type { RawFields } from '../field-path.ts';

// The types of a preset's hooks, below both preset-hooks.ts and the presets' derive files, so they
// do not import each other.

/** What a preset's code may read from the feed's config. */
export interface PresetContext {
  /** `source.mediaBaseUrl`, else `mapping.baseUrl`: relative media names are resolved against it, else dropped. */
  mediaBaseUrl?: string | undefined;
}

/**
 * The part of a preset that plain mapping data cannot say yet: a format's code lists (BLM `STATUS_ID`
 * 1 = SSTC), media names that need a base URL, the name of an element (OpenImmo `<haus/>`). `derive`
 * adds `$`-fields to a record (`$status`, `$images`) that the preset's rules then read like any other;
 * it is pure and runs before the mapping. (Written before the mapping language grew value maps on
 * any field, element names as values and a base URL: the `$`-fields can move into rules then.)
 */
export interface PresetHooks {
  derive?: (fields: RawFields, context: PresetContext) => RawFields;
}
