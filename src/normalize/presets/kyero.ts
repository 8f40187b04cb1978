import type { MappingConfig } from '../mapping-schema.ts';

const RENT = ['month', 'week'];

/**
 * Kyero v3 (`root/property`). One `price` field serves sales and rentals, told apart by
 * `price_freq`. Kyero carries no status (a listed property is active), year built, days on market
 * or parking: set `defaults` for the required ones.
 */
export const kyero: MappingConfig = {
  areaUnit: 'Square Meters',
  fields: {
    MLSNumber: { from: ['ref', 'id'] },
    Url: { from: ['url.en', 'url.es', 'url.de', 'url.fr', 'url.nl', 'url'] },
    Status: { const: 'Active' },
    SaleType: { from: 'price_freq', map: { sale: 'for_sale', month: 'for_rent', week: 'for_rent' } },
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
    Description: { from: ['desc.en', 'desc.es', 'desc.de', 'desc.fr', 'desc.nl'] },
    Images: { from: 'images.image', url: 'url', order: '@id' },
  },
  extensions: { fields: { Features: 'features.feature', Pool: 'pool', 'New build': 'new_build' } },
};
