import type { CompiledMapping } from '../compile-mapping.ts';
import type { MappingConfig, PresetName } from '../mapping-schema.ts';
import { blmHooks } from './blm-derive.ts';
import { kyeroHooks } from './kyero-derive.ts';
import { listhubHooks } from './listhub-derive.ts';
import { openimmoHooks } from './openimmo-derive.ts';
import type { PresetContext, PresetHooks } from './preset-hook-types.ts';
import { reaxmlHooks } from './reaxml-derive.ts';
import { presetRequirementErrors } from './requirements.ts';

export const PRESET_HOOKS: Readonly<Partial<Record<PresetName, PresetHooks>>> = {
  blm: blmHooks,
  kyero: kyeroHooks,
  listhub: listhubHooks,
  openimmo: openimmoHooks,
  reaxml: reaxmlHooks,
};

/**
 * `preset blm: set mapping.fields.Url, e.g. { template: "https://…/{AGENT_REF}" }` when the mapping
 * leaves a field the preset requires unmapped; undefined when nothing is missing. The table is
 * requirements.ts, which the config schema also checks when the config loads.
 */
export function missingPresetFields(mapping: MappingConfig): string | undefined {
  const errors = presetRequirementErrors(mapping.preset, mapping.fields, mapping.defaults);
  return errors.length === 0 ? undefined : errors.map((e) => e.message).join('; ');
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
    fieldPaths: compiled.fieldPaths,
    map: (record, explain) => compiled.map(derive(record, context), explain),
  };
}
