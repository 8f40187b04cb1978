import type { MappingConfig } from '../mapping-schema.ts';

const LEASES = ['ResidentialLease', 'CommercialLease'];
const notLease = { path: 'PropertyType', notIn: LEASES };
const lease = { path: 'PropertyType', in: LEASES };

/**
 * RESO Data Dictionary `Property`. Local fields (`NST_…`) are simply never read. RESO has no
 * standard listing URL: `ListingURL` is what most vendors send; otherwise give `fields.Url` a template.
 * A condo has no lot (`LotSizeArea` unset): the unknown marker, like any size a record lacks.
 */
export const reso: MappingConfig = {
  areaUnit: 'Square Feet',
  fields: {
    MLSNumber: { from: ['ListingId', 'ListingKey'] },
    Url: { from: ['ListingURL'] },
    Status: { from: ['StandardStatus', 'MlsStatus'] },
    SaleType: {
      from: 'PropertyType',
      map: { ResidentialLease: 'for_rent', CommercialLease: 'for_rent', '*': 'for_sale' },
    },
    PropertyType: { from: ['PropertySubType', 'PropertyType'] },
    CurrencySymbol: { const: '$' },
    Bedrooms: { from: ['BedroomsTotal'] },
    Bathrooms: {
      from: ['BathroomsTotalDecimal', 'BathroomsTotalInteger'],
      full: 'BathroomsFull',
      half: 'BathroomsHalf',
      threeQuarter: 'BathroomsThreeQuarter',
      quarter: 'BathroomsOneQuarter',
    },
    YearBuilt: 'YearBuilt',
    // The MLS's own counts first, then days since the listing went on the market (RESO dates are ISO).
    DaysOnMarket: [
      { from: ['DaysOnMarket', 'CumulativeDaysOnMarket'] },
      { daysSince: 'OnMarketDate' },
      { daysSince: 'ListingContractDate' },
    ],
    ParkingSpots: { from: ['ParkingTotal', 'GarageSpaces'] },
    BuildingArea: { from: 'LivingArea', unitFrom: 'LivingAreaUnits', unit: 'sqft' },
    LotArea: [
      { from: 'LotSizeSquareFeet', unit: 'sqft' },
      { from: 'LotSizeAcres', unit: 'acres' },
      { from: 'LotSizeArea', unitFrom: 'LotSizeUnits', unit: 'sqft' },
    ],
    SalePrice: [
      { from: 'ClosePrice', when: [{ path: 'StandardStatus', in: ['Closed'] }, notLease] },
      { from: 'ListPrice', when: notLease },
    ],
    RentPrice: { from: ['LeaseAmount', 'ListPrice'], periodFrom: 'LeaseAmountFrequency', when: lease },
    HOAMonth: { from: 'AssociationFee', periodFrom: 'AssociationFeeFrequency' },
    Address: [
      { from: 'UnparsedAddress' },
      {
        from: [
          'StreetNumber',
          'StreetDirPrefix',
          'StreetName',
          'StreetSuffix',
          'StreetDirSuffix',
          'UnitNumber',
        ],
        join: ' ',
      },
    ],
    City: 'City',
    State: 'StateOrProvince',
    ZIP: 'PostalCode',
    Location: { from: ['SubdivisionName', 'MLSAreaMajor'] },
    Latitude: 'Latitude',
    Longitude: 'Longitude',
    Description: { from: 'PublicRemarks', html: true },
    Tours: { const: '3D', when: { path: 'VirtualTourURLUnbranded', notIn: [''] } },
    // Photos only (no floor plans, videos or documents), in their `Order`.
    Images: {
      from: 'Media',
      url: 'MediaURL',
      order: 'Order',
      itemWhen: { path: 'MediaCategory', in: ['Photo', 'Photos', 'Image', ''] },
    },
  },
  // The photos' stamp: unchanged photos are not rewritten when a provider re-signs their URLs
  // (src/normalize/photo-stamp.ts).
  extensions: { fields: { 'feed-sync:photos': 'PhotosChangeTimestamp' } },
};
