import type { MappingConfig } from '../mapping-schema.ts';

/** `price_freq` values naming a rent's period (Kyero v3: `sale`, `month`, `week`; some feeds `night`). */
const RENT_PERIODS = ['month', 'week', 'night', 'day', 'year'];
/** Rentals some exporters send without a period: long lets are quoted per month, short lets per week. */
const RENT_LONG = ['rent', 'rentlong', 'long_term_rental', 'longterm'];
const RENT_SHORT = ['rentshort', 'short_term_rental', 'shortterm'];
const RENT = [...RENT_PERIODS, ...RENT_LONG, ...RENT_SHORT];
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
  // No `decimalComma`: Spanish exports write `1.250` for 1250; a dot before three final digits is
  // refused, naming the setting (prices are read as whole euros, `kyeroInteger`).
  areaUnit: 'Square Meters',
  fields: {
    MLSNumber: { from: ['ref', 'id'] },
    Url: { from: [...inEachLanguage('url'), 'url'] },
    Status: { const: 'Active' },
    SaleType: { from: 'price_freq', map: { sale: 'for_sale', '*': 'for_rent' }, default: 'sale' },
    PropertyType: 'type',
    CurrencySymbol: { from: 'currency', default: 'EUR' },
    // `$price`, `$built`, `$plot` (kyero-derive.ts): Kyero's integers, a Spanish `12.500` read as 12500.
    SalePrice: { from: '$price', when: { path: 'price_freq', notIn: RENT } },
    RentPrice: [
      { from: '$price', periodFrom: 'price_freq', when: { path: 'price_freq', in: RENT_PERIODS } },
      { from: '$price', period: 'month', when: { path: 'price_freq', in: RENT_LONG } },
      { from: '$price', period: 'week', when: { path: 'price_freq', in: RENT_SHORT } },
    ],
    // Spanish community fees (`community_fees`) are quoted per month.
    HOAMonth: 'community_fees',
    Bedrooms: 'beds',
    Bathrooms: 'baths',
    // `$built` / `$plot` (kyero-derive.ts): the area, or the number free text starts with.
    BuildingArea: { from: '$built', unit: 'm2' },
    LotArea: { from: '$plot', unit: 'm2' },
    City: 'town',
    State: 'province',
    ZIP: 'postcode',
    Location: { from: ['location_detail', 'costa'] },
    Latitude: { from: ['location.latitude', 'latitude'] },
    Longitude: { from: ['location.longitude', 'longitude'] },
    Description: { from: inEachLanguage('desc'), html: true },
    Images: { from: 'images.image', url: 'url', order: '@id' },
    Tours: { const: '3D', when: { path: 'virtual_tour_url', set: true } },
  },
  // `$`-fields are the derive step's, never copied by `extensions.unmapped`.
  extensions: {
    exclude: ['$*'],
    fields: {
      Features: 'features.feature',
      // `pool`: 1 available, 0 unknown (Kyero's own definition); exporters also write text
      // (`Private`, `Communal`, `Privé`), which is kept.
      Pool: { from: 'pool', map: { '1': 'yes', '0': '' } },
      'New build': { from: 'new_build', map: { '1': 'yes', '0': '' } },
      Tenure: { from: 'leasehold', map: { '1': 'leasehold', '0': '' } },
      'Part ownership': { from: 'part_ownership', map: { '1': 'yes', '0': '' } },
      'Energy rating': { from: 'energy_rating.consumption', map: { X: 'exempt or pending' } },
      'Emissions rating': { from: 'energy_rating.emissions', map: { X: 'exempt or pending' } },
      Price: '$priceOnRequest',
      'Built area (as given)': '$builtText',
      'Plot (as given)': '$plotText',
      Contact: { from: ['email', 'contact_number', 'whatsapp_number'] },
      'Virtual tour': 'virtual_tour_url',
      Video: 'video_url',
      'Cadastral reference': 'catastral',
      Notes: 'notes',
      Country: { from: 'country', as: 'country' },
    },
  },
};
