import type { MappingConfig } from '../mapping-schema.ts';

const RENT = ['Lease', 'Rent'];

/**
 * ListHub / RETS Syndication 2012-03 (`Listings/Listing`, address parts in the `commons:` namespace).
 * Photo URLs without a scheme take https; relative ones need `mapping.baseUrl`.
 */
export const listhub: MappingConfig = {
  areaUnit: 'Square Feet',
  fields: {
    MLSNumber: { from: ['MlsNumber', 'ListingKey'] },
    Url: 'ListingURL',
    Status: 'ListingStatus',
    SaleType: { from: 'ListingCategory', map: { Purchase: 'for_sale', Lease: 'for_rent', Rent: 'for_rent' } },
    PropertyType: { from: ['PropertySubType', 'PropertyType'] },
    CurrencySymbol: { from: 'ListPrice.@currencyCode', default: '$' },
    SalePrice: { from: 'ListPrice', when: { path: 'ListingCategory', notIn: RENT } },
    RentPrice: {
      from: 'ListPrice',
      periodFrom: 'ListPrice.@currencyPeriod',
      when: { path: 'ListingCategory', in: RENT },
    },
    Bedrooms: 'Bedrooms',
    Bathrooms: {
      from: 'Bathrooms',
      full: 'FullBathrooms',
      half: 'HalfBathrooms',
      threeQuarter: 'ThreeQuarterBathrooms',
    },
    BuildingArea: { from: 'LivingArea', unit: 'sqft' },
    LotArea: { from: 'LotSize', unit: 'sqft' },
    YearBuilt: 'YearBuilt',
    ParkingSpots: {
      from: [
        'DetailedCharacteristics.NumParkingSpaces',
        'DetailedCharacteristics.ParkingSpaces',
        'NumParkingSpaces',
        'ParkingSpaces',
        'DetailedCharacteristics.NumGarageSpaces',
      ],
    },
    // `ListingDate` is an xs:date (ISO): days on market from it when the feed gives no count.
    DaysOnMarket: [{ from: ['DaysOnMarket'] }, { daysSince: 'ListingDate' }],
    Address: [
      { from: 'Address.commons:FullStreetAddress' },
      {
        from: ['Address.commons:StreetNumber', 'Address.commons:StreetName', 'Address.commons:UnitNumber'],
        join: ' ',
      },
    ],
    City: 'Address.commons:City',
    State: 'Address.commons:StateOrProvince',
    ZIP: 'Address.commons:PostalCode',
    Latitude: 'Location.Latitude',
    Longitude: 'Location.Longitude',
    Description: { from: 'ListingDescription', html: true },
    Tours: { const: '3D', when: { path: 'VirtualTours.VirtualTour.MediaURL', notIn: [''] } },
    Images: { from: 'Photos.Photo', url: 'MediaURL' },
  },
  extensions: { fields: { Title: 'ListingTitle', Brokerage: 'Brokerage.Name' } },
};
