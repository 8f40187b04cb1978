import type { ListingField } from '../listing-schema.ts';

/**
 * What a format cannot carry, so the feed's config must say it: per preset, the fields and an
 * example rule. Checked when the config loads, one clear error per missing field.
 */
export const PRESET_REQUIREMENTS: Readonly<
  Record<string, readonly { field: ListingField; example: string }[]>
> = {
  // REAXML has no listing URL (`externalLink` is any link the agent chose: a video, the agency's home page).
  reaxml: [{ field: 'Url', example: '{ template: "https://agency.example/listing/{uniqueID}" }' }],
  // Rightmove BLM has no listing URL either.
  blm: [{ field: 'Url', example: '{ template: "https://…/{AGENT_REF}" }' }],
};

/** `preset reaxml: set mapping.fields.Url, e.g. { template: "https://…/{uniqueID}" }` for each field unset. */
export function presetRequirementErrors(
  preset: string | undefined,
  fields: Readonly<Partial<Record<string, unknown>>> | undefined,
  defaults?: Readonly<Partial<Record<string, unknown>>>,
): { field: ListingField; message: string }[] {
  if (preset === undefined) return [];
  return (PRESET_REQUIREMENTS[preset] ?? [])
    .filter(({ field }) => fields?.[field] == null && defaults?.[field] === undefined)
    .map(({ field, example }) => ({
      field,
      message: `preset ${preset}: set mapping.fields.${field}, e.g. ${example}`,
    }));
}
