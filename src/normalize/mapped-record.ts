import type { RawFields } from './field-path.ts';
import type { FieldProblem } from './field-problem.ts';
import type { AreaUnit, MarkerField } from './listing-schema.ts';
import type { DecimalComma } from './parse-number.ts';

// The data the field compilers share (compile-field.ts, compile-images.ts), below both.

/** What mapping one record produced, before validation. */
export interface MappedRecord {
  /** Candidate listing: every listing field, `undefined` when unset. */
  listing: Record<string, unknown>;
  /**
   * The feed's raw value behind each listing field, for rejection messages. Only when mapping with
   * `explain`: the hot path skips it, and a record that fails is mapped again to explain why.
   */
  raw?: Record<string, unknown>;
  problems: FieldProblem[];
  /** The Status maps to "no longer listed". */
  remove: boolean;
  /** Required fields the record lacks, filled with the unknown marker (by the mapping's `missing` policy). */
  unknown?: readonly MarkerField[];
  /** ExtensionColumn entries the rules add (the period a rent was published in). */
  notes?: { Key: string; value: string }[];
  /**
   * Values an ExtensionColumn fact left out because it could not read them (`2.210` where the
   * mapping does not say `decimalComma`), for the report: the fact is not sent, the listing is.
   */
  droppedFacts?: { key: string; path: string; value: string; message: string }[];
  /** Image URLs dropped because they cannot be absolute http(s) URLs, for the report. */
  droppedImages?: string[];
  /** The currency signs the prices carried (`£1,379,000`), held against the listing's CurrencySymbol. */
  priceSigns?: { field: string; value: string; sign: string }[];
}

export interface FieldContext {
  areaUnit: AreaUnit;
  /** How the feed writes decimals (`DecimalComma`): the mapping's `decimalComma`, else `'unsaid'`. */
  decimalComma: DecimalComma;
  maxImages: number;
  /** Normalized enum map of this field (defaults, preset, feed, rule merged). */
  enumMap?: Map<string, string>;
  /** Values the listing schema accepts for this enum field. */
  enumValues?: readonly string[];
  /** `mapping.defaults[field]`. */
  fallback?: string | number | boolean | undefined;
  /** The run's clock (epoch ms), for `daysSince`. Passed in: normalize never reads the clock. */
  now?: number;
  /** `mapping.baseUrl`, for relative listing and image URLs. */
  baseUrl?: string;
  /** `mapping.underContract`: what Pending / Active Under Contract / Contingent become. Default `active`. */
  underContract?: 'active' | 'remove';
}

export type FieldWriter = (record: RawFields, out: MappedRecord) => void;
