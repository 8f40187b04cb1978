import type { MappingHint } from '../infer-csv-mapping.ts';
import type { ListingField } from '../listing-schema.ts';
import type { MappingConfig } from '../mapping-schema.ts';

/**
 * Where each preset finds the listing URL, and the key a template can build it from: a record
 * without it is rejected `Url is missing`, and the feed is told once how to build the URL instead.
 * (BLM and REAXML carry no URL at all: the config asks for one when it loads, requirements.ts.)
 */
const URL_SOURCES: Readonly<Partial<Record<string, { where: string; key: string }>>> = {
  openimmo: { where: 'an ANBOBJURL attachment', key: 'verwaltung_techn.objektnr_extern' },
  reso: { where: 'ListingURL', key: 'ListingId' },
  zillow: { where: 'ListingDetails/ListingUrl', key: 'ListingDetails.MlsId' },
  listhub: { where: 'ListingURL', key: 'MlsNumber' },
  kyero: { where: 'url', key: 'ref' },
};

/**
 * A hint said once for a feed whose records a preset rejects for a reason the config can fix, or
 * undefined: a preset's record without its listing URL (`fields.Url` with a template from the key),
 * a BLM overseas (3i) record without a currency (`defaults.CurrencySymbol`). Only when the feed's own
 * config (`mapping`, before the preset is merged) does not already set the field.
 */
export function presetRejectionHint(
  feedId: string,
  mapping: MappingConfig,
  problem: { field?: string | undefined; reason: string },
): MappingHint | undefined {
  const { preset } = mapping;
  if (preset === undefined || problem.reason !== 'missing') return undefined;
  const field = problem.field as ListingField | undefined;
  if (field === undefined || mapping.fields?.[field] != null || mapping.defaults?.[field] !== undefined)
    return undefined;
  const url = URL_SOURCES[preset];
  if (field === 'Url' && url) {
    return {
      field: 'Url',
      code: 'no_listing_url',
      message: `a record without ${url.where} has no listing URL, so it is rejected with "Url is missing"`,
      fix: `build the URL from the key in feed ${feedId}'s mapping: \`mapping: { preset: ${preset}, fields: { Url: { template: "https://example.com/listing/{${url.key}}" } } }\``,
    };
  }
  if (field === 'CurrencySymbol' && preset === 'blm') {
    return {
      field: 'CurrencySymbol',
      code: 'no_currency',
      message:
        'an overseas (3i) BLM file names no currency and none is assumed, so its records are rejected with "CurrencySymbol is missing"',
      fix: `say the feed's currency in feed ${feedId}'s mapping: \`mapping: { preset: blm, defaults: { CurrencySymbol: EUR } }\` (its ISO code: EUR, USD, AED…)`,
    };
  }
  return undefined;
}
