import type { MappingConfig, PresetName } from '../mapping-schema.ts';
import { blm } from './blm.ts';
import { kyero } from './kyero.ts';
import { listhub } from './listhub.ts';
import { openimmo } from './openimmo.ts';
import { reaxml } from './reaxml.ts';
import { reso } from './reso.ts';
import { zillow } from './zillow.ts';

/** Mappings shipped with the project. Each is plain mapping-language data, printable by `validate`. */
export const PRESETS: Readonly<Record<PresetName, MappingConfig>> = {
  reso,
  reaxml,
  kyero,
  listhub,
  zillow,
  blm,
  openimmo,
  // Inferred from each file's header (see infer-csv-mapping.ts); nothing fixed.
  'mls-csv': {},
};

/** Where a preset's records live, for XML sources that do not say. */
export const PRESET_RECORD_PATHS: Readonly<Partial<Record<PresetName, string>>> = {
  reaxml: 'propertyList.*',
  kyero: 'root.property',
  listhub: 'Listings.Listing',
  zillow: 'Listings.Listing',
  openimmo: 'openimmo.anbieter.immobilie',
};
