import type { MappingConfig } from '../mapping-schema.ts';

const LEASES = ['ResidentialLease', 'CommercialLease'];
// Functions, not shared objects: `validate` prints the mapping as YAML, where a shared object would
// become an anchor and an alias.
const notLease = () => ({ path: 'PropertyType', notIn: [...LEASES] });
const lease = () => ({ path: 'PropertyType', in: [...LEASES] });

/** A Data Dictionary list: an array in OData 4.01 JSON, a comma-separated text in 4.0 (`Cats OK,Dogs OK`). */
const list = (from: string | string[], map?: Record<string, string>) => ({
  from,
  split: ',',
  map: { None: '', ...map },
});
const yesNo = (path: string) => ({ yes: { [path]: 'yes' }, no: 'no' });
/** A Data Dictionary boolean that says no (`false` in JSON, `N`, `0` in text). */
const NO = () => ['false', 'no', 'n', '0'];
/**
 * `InternetAddressDisplayYN` false: the seller does not allow the address on the internet (IDX
 * rules), so neither the street nor the point that locates it is sent; the area (city, state, ZIP)
 * stays.
 */
const addressShown = () => ({ path: 'InternetAddressDisplayYN', notIn: NO() });
/** The street parts of a Data Dictionary address, in the order a person writes them. */
const STREET_PARTS = () => [
  'StreetNumber',
  'StreetDirPrefix',
  'StreetName',
  'StreetSuffix',
  'StreetDirSuffix',
];

/**
 * Data Dictionary lookup values as words (`SingleFamilyResidence` → Single Family Residence): the
 * PropertyType and PropertySubType enumerations of the Data Dictionary 2.0. Keys compare normalized,
 * so a provider that already sends words (`Single Family Residence`) gets the same text.
 */
const PROPERTY_TYPE_WORDS = () => ({
  Residential: 'Residential',
  ResidentialLease: 'Residential Lease',
  ResidentialIncome: 'Residential Income',
  CommercialSale: 'Commercial Sale',
  CommercialLease: 'Commercial Lease',
  BusinessOpportunity: 'Business Opportunity',
  ManufacturedInPark: 'Manufactured In Park',
  Land: 'Land',
  Farm: 'Farm',
  SingleFamilyResidence: 'Single Family Residence',
  Condominium: 'Condominium',
  Townhouse: 'Townhouse',
  Apartment: 'Apartment',
  Duplex: 'Duplex',
  Triplex: 'Triplex',
  Quadruplex: 'Quadruplex',
  ManufacturedHome: 'Manufactured Home',
  ManufacturedOnLand: 'Manufactured On Land',
  MobileHome: 'Mobile Home',
  StockCooperative: 'Stock Cooperative',
  OwnYourOwn: 'Own Your Own',
  Cabin: 'Cabin',
  Timeshare: 'Timeshare',
  BoatSlip: 'Boat Slip',
  DeededParking: 'Deeded Parking',
  MultiFamily: 'Multi Family',
  MixedUse: 'Mixed Use',
  UnimprovedLand: 'Unimproved Land',
  HotelMotel: 'Hotel/Motel',
  Industrial: 'Industrial',
  Office: 'Office',
  Retail: 'Retail',
  Warehouse: 'Warehouse',
  Agriculture: 'Agriculture',
  Ranch: 'Ranch',
  Business: 'Business',
});

/**
 * RESO Data Dictionary `Property`. Local fields (`NST_…`) are simply never read. RESO has no
 * standard listing URL: `ListingURL` is what most vendors send; otherwise give `fields.Url` a template.
 * Every Data Dictionary field is optional: a count or size a record lacks (a condo's lot, a ranch's
 * bedrooms) is the unknown marker, never a rejection. Attribution (listing agent and office, their
 * phones and e-mails, as IDX display rules want) and the buyer facts the Data Dictionary standardizes
 * go to ExtensionColumn; private fields (`PrivateRemarks`, `ShowingInstructions`, keys) never do.
 */
export const reso: MappingConfig = {
  // RESO's Data Dictionary: numbers are JSON numbers, or decimals with a point. `1.250` is 1.25 (a mapping without a preset does not say: see `DecimalComma`).
  decimalComma: false,
  areaUnit: 'Square Feet',
  fields: {
    MLSNumber: { from: ['ListingId', 'ListingKey'] },
    Url: { from: ['ListingURL'] },
    // `InternetEntireListingDisplayYN` false: the seller does not allow the listing on the internet
    // at all (IDX rules); a chatbot is on the internet, so the listing is removed from it.
    Status: [
      { const: 'remove', when: { path: 'InternetEntireListingDisplayYN', in: NO() } },
      { from: ['StandardStatus', 'MlsStatus'] },
    ],
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
      { from: 'ClosePrice', when: [{ path: 'StandardStatus', in: ['Closed'] }, notLease()] },
      { from: 'ListPrice', when: notLease() },
    ],
    RentPrice: { from: ['LeaseAmount', 'ListPrice'], periodFrom: 'LeaseAmountFrequency', when: lease() },
    HOAMonth: { from: 'AssociationFee', periodFrom: 'AssociationFeeFrequency' },
    // The street parts first: `UnparsedAddress` usually repeats the city, state and ZIP the listing
    // carries in their own fields (`123 Main St, Springfield, IL 62701`).
    Address: [
      {
        from: [...STREET_PARTS(), 'UnitNumber'],
        join: ' ',
        when: [addressShown(), { path: 'StreetName', set: true }],
      },
      { from: 'UnparsedAddress', when: addressShown() },
    ],
    City: 'City',
    State: 'StateOrProvince',
    ZIP: 'PostalCode',
    Location: { from: ['SubdivisionName', 'MLSAreaMajor'] },
    Latitude: { from: 'Latitude', when: addressShown() },
    Longitude: { from: 'Longitude', when: addressShown() },
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
  maps: { PropertyType: PROPERTY_TYPE_WORDS() },
  missing: { Bedrooms: 'unknown', Bathrooms: 'unknown' },
  extensions: {
    fields: {
      // The photos' stamp: unchanged photos are not rewritten when a provider re-signs their URLs
      // (src/normalize/photo-stamp.ts).
      'feed-sync:photos': 'PhotosChangeTimestamp',
      Agent: {
        from: [
          ['ListAgentFullName', '{ListAgentFirstName} {ListAgentLastName}'],
          [
            'ListAgentDirectPhone',
            'ListAgentPreferredPhone',
            'ListAgentMobilePhone',
            'ListAgentCellPhone',
            'ListAgentOfficePhone',
          ],
          'ListAgentEmail',
        ],
      },
      Office: {
        from: ['ListOfficeName', ['ListOfficePhone', 'ListOfficePreferredPhone'], 'ListOfficeEmail'],
      },
      'Co-listing agent': {
        from: [
          ['CoListAgentFullName', '{CoListAgentFirstName} {CoListAgentLastName}'],
          [
            'CoListAgentDirectPhone',
            'CoListAgentPreferredPhone',
            'CoListAgentMobilePhone',
            'CoListAgentOfficePhone',
          ],
          'CoListAgentEmail',
        ],
      },
      'Co-listing office': { from: ['CoListOfficeName', 'CoListOfficePhone', 'CoListOfficeEmail'] },
      MLS: 'OriginatingSystemName',
      'Open house': {
        each: 'OpenHouse',
        itemWhen: [
          { path: 'OpenHouseStatus', notIn: ['Canceled', 'Cancelled', 'Ended'] },
          { path: 'OpenHouseType', notIn: ['Broker', 'Office', 'BrokerOnly'] },
        ],
        from: ['OpenHouseDate', 'OpenHouseStartTime', 'OpenHouseEndTime'],
        as: 'openHouse',
      },
      Pool: { yes: { PoolPrivateYN: 'private' }, no: 'no private pool' },
      'Pool features': list('PoolFeatures'),
      Spa: list('SpaFeatures'),
      'Pets allowed': list('PetsAllowed', {
        CatsOK: 'cats',
        DogsOK: 'dogs',
        Yes: 'yes',
        No: 'no',
        Call: 'ask the agent',
        BreedRestrictions: 'breed restrictions',
        NumberLimit: 'number limit',
        SizeLimit: 'size limit',
        Conditional: 'conditional',
        Negotiable: 'negotiable',
        CatsOnly: 'cats only',
        DogsOnly: 'dogs only',
      }),
      Heating: list('Heating'),
      Cooling: list('Cooling'),
      'Garage spaces': { from: 'GarageSpaces', as: 'number' },
      Parking: list('ParkingFeatures'),
      View: list('View'),
      Waterfront: yesNo('WaterfrontYN'),
      'Waterfront features': list('WaterfrontFeatures'),
      'HOA fee includes': list('AssociationFeeIncludes'),
      'Community amenities': list('AssociationAmenities'),
      Appliances: list('Appliances'),
      'Interior features': list('InteriorFeatures'),
      'Outdoor space': list(['PatioAndPorchFeatures', 'ExteriorFeatures']),
      Fencing: list('Fencing'),
      Fireplace: list('FireplaceFeatures'),
      Flooring: list('Flooring'),
      Laundry: list('LaundryFeatures'),
      Basement: list('Basement'),
      Stories: { from: ['StoriesTotal', 'Stories'], as: 'number' },
      Furnished: {
        from: 'Furnished',
        map: { Unfurnished: 'unfurnished', Furnished: 'furnished', Partially: 'partly furnished' },
      },
      'Senior community': { yes: { SeniorCommunityYN: 'yes' } },
      'New construction': { yes: { NewConstructionYN: 'yes' } },
      Accessibility: list('AccessibilityFeatures'),
      Security: list('SecurityFeatures'),
      'Green features': list(['GreenEnergyEfficient', 'GreenEnergyGeneration']),
      Utilities: list('Utilities'),
      Schools: {
        from: ['Elementary: {ElementarySchool}', 'Middle: {MiddleOrJuniorSchool}', 'High: {HighSchool}'],
      },
      'School district': {
        from: ['HighSchoolDistrict', 'ElementarySchoolDistrict', 'MiddleOrJuniorSchoolDistrict'],
      },
      Taxes: { from: ['{TaxAnnualAmount} ({TaxYear})'] },
      'Available from': { from: 'AvailabilityDate', as: 'date' },
      'Lease term': 'LeaseTerm',
      'Rent includes': list('RentIncludes'),
      'Virtual tour': 'VirtualTourURLUnbranded',
    },
  },
};
