import type { MappingConfig } from './mapping-schema.ts';
import { PRESETS } from './presets/presets.ts';

/**
 * The mapping in effect: the preset (if any) with the feed's own mapping merged over it, field by
 * field and map by map. A feed field set to `null` drops the preset's rule.
 */
export function resolveMapping(config: MappingConfig): MappingConfig {
  const base: MappingConfig = config.preset ? PRESETS[config.preset] : {};
  return mergeMappings(base, config);
}

export function mergeMappings(base: MappingConfig, over: MappingConfig): MappingConfig {
  const maps: NonNullable<MappingConfig['maps']> = { ...base.maps };
  for (const [field, map] of Object.entries(over.maps ?? {}) as [
    keyof typeof maps,
    Record<string, string>,
  ][]) {
    maps[field] = { ...maps[field], ...map };
  }
  const merged: MappingConfig = { ...base, ...over, fields: { ...base.fields, ...over.fields } };
  const defaults = { ...base.defaults, ...over.defaults };
  // Empty sections are left out, so the mapping `validate` prints is only what is in effect.
  if (Object.keys(maps).length > 0) merged.maps = maps;
  else delete merged.maps;
  if (Object.keys(defaults).length > 0) merged.defaults = defaults;
  else delete merged.defaults;
  const missing = { ...base.missing, ...over.missing };
  if (Object.keys(missing).length > 0) merged.missing = missing;
  else delete merged.missing;
  if (base.extensions || over.extensions) {
    // Facts merge key by key, like fields: a feed adding one keeps the preset's others.
    merged.extensions = { ...base.extensions, ...over.extensions };
    if (base.extensions?.fields && over.extensions?.fields)
      merged.extensions.fields = { ...base.extensions.fields, ...over.extensions.fields };
    if (base.extensions?.exclude && over.extensions?.exclude)
      merged.extensions.exclude = [...new Set([...base.extensions.exclude, ...over.extensions.exclude])];
  }
  return merged;
}
