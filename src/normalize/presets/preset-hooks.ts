import type { CompiledMapping } from '../compile-mapping.ts';
import type { ListingField } from '../listing-schema.ts';
import type { MappingConfig, PresetName } from '../mapping-schema.ts';
import { blmHooks } from './blm-derive.ts';
import { openimmoHooks } from './openimmo-derive.ts';
import type { PresetContext, PresetHooks } from './preset-hook-types.ts';

export const PRESET_HOOKS: Readonly<Partial<Record<PresetName, PresetHooks>>> = {
  blm: blmHooks,
  openimmo: openimmoHooks,
};

/**
 * `preset blm: set mapping.fields.Url, e.g. { template: "https://…/{AGENT_REF}" }` when the mapping
 * leaves a field the preset requires unmapped; undefined when nothing is missing.
 */
export function missingPresetFields(mapping: MappingConfig): string | undefined {
  const preset = mapping.preset;
  const requires = preset ? PRESET_HOOKS[preset]?.requires : undefined;
  if (!preset || !requires) return undefined;
  const missing = Object.entries(requires).filter(
    ([field]) =>
      mapping.fields?.[field as ListingField] == null &&
      mapping.defaults?.[field as ListingField] === undefined,
  );
  if (missing.length === 0) return undefined;
  const asks = missing.map(([field, example]) => `set mapping.fields.${field}, e.g. ${example}`);
  return `preset ${preset}: ${asks.join('; ')}`;
}

/** The compiled mapping with the preset's `derive` run on each record first (the mapping itself unchanged). */
export function withPresetHooks(
  compiled: CompiledMapping,
  mapping: MappingConfig,
  context: PresetContext,
): CompiledMapping {
  const derive = mapping.preset ? PRESET_HOOKS[mapping.preset]?.derive : undefined;
  if (!derive) return compiled;
  return {
    mapping: compiled.mapping,
    map: (record, explain) => compiled.map(derive(record, context), explain),
  };
}
