import type { MappingConfig } from '../mapping-schema.ts';

const RENT = ['For Rent', 'Rented'];

/**
 * The Zillow listing feed (`Listings/Listing`). `<Bathrooms/>` is often empty beside the full/half
 * counts; `LotSize` is in acres; the year is the element `year-built`. Picture URLs without a scheme
 * (`//cdn…`) take https; relative ones need `mapping.baseUrl` (else they are dropped and counted).
 * No days on market: the unknown marker.
 */
export const zillow: MappingConfig = {
  areaUnit: 'Square Feet',
  fields: {
    MLSNumber: { from: ['ListingDetails.MlsId', 'ListingDetails.ProviderListingId'] },
    Url: 'ListingDetails.ListingUrl',
    Status: 'ListingDetails.Status',
    SaleType: {
      from: 'ListingDetails.Status',
      map: { ForRent: 'for_rent', Rented: 'for_rent', '*': 'for_sale' },
    },
    PropertyType: 'BasicDetails.PropertyType',
    CurrencySymbol: { const: '$' },
    SalePrice: { from: 'ListingDetails.Price', when: { path: 'ListingDetails.Status', notIn: RENT } },
    RentPrice: { from: 'ListingDetails.Price', when: { path: 'ListingDetails.Status', in: RENT } },
    DepositFee: 'RentalDetails.DepositFees',
    Bedrooms: 'BasicDetails.Bedrooms',
    Bathrooms: {
      from: 'BasicDetails.Bathrooms',
      full: 'BasicDetails.FullBathrooms',
      half: 'BasicDetails.HalfBathrooms',
      threeQuarter: 'BasicDetails.ThreeQuarterBathrooms',
      quarter: 'BasicDetails.QuarterBathrooms',
    },
    YearBuilt: { from: ['BasicDetails.year-built', 'BasicDetails.YearBuilt'] },
    BuildingArea: { from: 'BasicDetails.LivingArea', unit: 'sqft' },
    LotArea: { from: 'BasicDetails.LotSize', unit: 'acres' },
    ParkingSpots: {
      from: [
        'RichDetails.NumParkingSpaces',
        'RichDetails.ParkingSpaces',
        'BasicDetails.NumParkingSpaces',
        'BasicDetails.ParkingSpaces',
        'RichDetails.GarageSpaces',
      ],
    },
    HOAMonth: {
      from: 'Fees.Fee.FeeAmount',
      periodFrom: 'Fees.Fee.FeePeriod',
      when: { path: 'Fees.Fee.FeeType', in: ['HOA'] },
    },
    Address: { from: ['Location.StreetAddress', 'Location.UnitNumber'], join: ' ' },
    City: 'Location.City',
    State: 'Location.State',
    ZIP: 'Location.Zip',
    Latitude: 'Location.Lat',
    Longitude: 'Location.Long',
    Description: { from: 'BasicDetails.Description', html: true },
    Tours: [
      { const: '3D', when: { path: 'ListingDetails.VirtualTourUrl', notIn: [''] } },
      { const: 'OpenHouse', when: { path: 'OpenHouses.OpenHouse.Date', notIn: [''] } },
    ],
    Images: { from: 'Pictures.Picture', url: 'PictureUrl' },
  },
  extensions: { fields: { Agent: 'Agent.FirstName', Brokerage: 'Office.BrokerageName' } },
};
