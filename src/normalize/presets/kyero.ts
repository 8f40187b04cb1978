import type { MappingConfig } from '../mapping-schema.ts';

/** `price_freq` values meaning a rent (Kyero v3: `sale`, `month`, `week`; some feeds send `night`). */
const RENT = ['month', 'week', 'night', 'day', 'year'];
/** Kyero's languages, in the order a listing's `url` and `desc` are picked. */
const LANGUAGES = ['en', 'es', 'de', 'fr', 'nl', 'it', 'pt', 'sv', 'da', 'no', 'fi', 'ru', 'pl'];
const inEachLanguage = (element: string) => LANGUAGES.map((language) => `${element}.${language}`);

/**
 * Kyero v3 (`root/property`). One `price` serves sales and rentals, told apart by `price_freq`;
 * rents are converted to monthly and the published period kept. `url` and `desc` come per language
 * (English first). Currency is EUR unless `currency` says otherwise. Kyero carries no status (a
 * listed property is active), year built, days on market or parking: the unknown marker.
 */
export const kyero: MappingConfig = {
  areaUnit: 'Square Meters',
  fields: {
    MLSNumber: { from: ['ref', 'id'] },
    Url: { from: [...inEachLanguage('url'), 'url'] },
    Status: { const: 'Active' },
    SaleType: { from: 'price_freq', map: { sale: 'for_sale', '*': 'for_rent' }, default: 'sale' },
    PropertyType: 'type',
    CurrencySymbol: { from: 'currency', default: 'EUR' },
    SalePrice: { from: 'price', when: { path: 'price_freq', notIn: RENT } },
    RentPrice: { from: 'price', periodFrom: 'price_freq', when: { path: 'price_freq', in: RENT } },
    Bedrooms: 'beds',
    Bathrooms: 'baths',
    BuildingArea: { from: 'surface_area.built', unit: 'm2' },
    LotArea: { from: 'surface_area.plot', unit: 'm2' },
    City: 'town',
    State: 'province',
    Location: 'location_detail',
    Latitude: 'location.latitude',
    Longitude: 'location.longitude',
    Description: { from: inEachLanguage('desc'), html: true },
    Images: { from: 'images.image', url: 'url', order: '@id' },
  },
  extensions: {
    fields: { Features: 'features.feature', Pool: 'pool', 'New build': 'new_build', Leasehold: 'leasehold' },
  },
};
