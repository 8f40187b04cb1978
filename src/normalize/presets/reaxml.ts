import type { MappingConfig } from '../mapping-schema.ts';

const RENTALS = ['rental', 'holidayRental'];

/**
 * realestate.com.au REAXML: records are the children of `propertyList` (`residential`, `rental`,
 * `land`, …), whose element name (`$tag`) says the kind. The key is `agentID-uniqueID`; withdrawn
 * records carry only those ids, which is all a removal needs. REAXML has no listing URL, year built or
 * days on market: set `fields.Url` (a template) and `defaults` for those.
 */
export const reaxml: MappingConfig = {
  areaUnit: 'Square Meters',
  fields: {
    MLSNumber: { template: '{agentID}-{uniqueID}' },
    Status: { from: '@status' },
    SaleType: { from: '$tag', map: { rental: 'for_rent', holidayRental: 'for_rent', '*': 'for_sale' } },
    PropertyType: [
      { from: 'category.@name' },
      {
        from: '$tag',
        map: {
          residential: 'Residential',
          rental: 'Rental',
          holidayRental: 'Holiday Rental',
          land: 'Land',
          rural: 'Rural',
          commercial: 'Commercial',
          commercialLand: 'Commercial Land',
          business: 'Business',
        },
      },
    ],
    CurrencySymbol: { const: 'AUD' },
    // `display="no"`: the agent does not publish the price, so neither do we.
    SalePrice: {
      from: 'price',
      when: [
        { path: '$tag', notIn: RENTALS },
        { path: 'price.@display', notIn: ['no'] },
      ],
    },
    RentPrice: {
      from: 'rent',
      periodFrom: 'rent.@period',
      when: [
        { path: '$tag', in: RENTALS },
        { path: 'rent.@display', notIn: ['no'] },
      ],
    },
    DepositFee: 'bond',
    Bedrooms: 'features.bedrooms',
    Bathrooms: 'features.bathrooms',
    ParkingSpots: { from: ['features.garages', 'features.carports', 'features.openSpaces'] },
    BuildingArea: { from: 'buildingDetails.area', unitFrom: 'buildingDetails.area.@unit', unit: 'm2' },
    LotArea: { from: 'landDetails.area', unitFrom: 'landDetails.area.@unit', unit: 'm2' },
    YearBuilt: 'yearBuilt',
    Address: { from: ['address.subNumber', 'address.streetNumber', 'address.street'], join: ' ' },
    City: 'address.suburb',
    State: 'address.state',
    ZIP: 'address.postcode',
    Description: 'description',
    Url: 'externalLink.@href',
    Images: { from: ['images.img', 'objects.img'], url: '@url' },
  },
  extensions: { fields: { Headline: 'headline', 'Price view': 'priceView', Agent: 'listingAgent.name' } },
};
