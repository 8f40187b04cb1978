import type { MappingConfig } from '../mapping-schema.ts';

/** Statuses of a rental: for rent, or let (`Rented`, `Leased`: Sold on the platform, SaleType for_rent). */
const RENT = ['For Rent', 'Rented', 'Leased'];
/** Words a feed uses for "no" (`<DisplayAddress>No</DisplayAddress>`). */
const NO = () => ['no', 'false', '0', 'n'];
/**
 * `<DisplayAddress>No</DisplayAddress>` (in `Location`, or beside it in some generators): the seller
 * does not publish the street address, so neither the street nor the point that locates it is sent;
 * the area (city, state, ZIP) stays.
 */
const ADDRESS_SHOWN = () => [
  { path: 'Location.DisplayAddress', notIn: NO() },
  { path: 'DisplayAddress', notIn: NO() },
];

/**
 * The Zillow listing feed (`Listings/Listing`). `<Bathrooms/>` is often empty beside the full/half
 * counts; `LotSize` is in acres; the year is the element `year-built`. Picture URLs without a scheme
 * (`//cdn…`) take https; relative ones need `mapping.baseUrl` (else they are dropped and counted).
 * Days on market from `DateListed`, else the unknown marker.
 */
export const zillow: MappingConfig = {
  // Zillow's feed format: numbers with a decimal point. `1.250` is 1.25 (a mapping without a preset does not say: see `DecimalComma`).
  decimalComma: false,
  areaUnit: 'Square Feet',
  fields: {
    MLSNumber: { from: ['ListingDetails.MlsId', 'ListingDetails.ProviderListingId'] },
    Url: 'ListingDetails.ListingUrl',
    Status: 'ListingDetails.Status',
    SaleType: {
      from: 'ListingDetails.Status',
      map: { ForRent: 'for_rent', Rented: 'for_rent', Leased: 'for_rent', '*': 'for_sale' },
    },
    PropertyType: 'BasicDetails.PropertyType',
    CurrencySymbol: { const: '$' },
    SalePrice: { from: 'ListingDetails.Price', when: { path: 'ListingDetails.Status', notIn: [...RENT] } },
    RentPrice: { from: 'ListingDetails.Price', when: { path: 'ListingDetails.Status', in: [...RENT] } },
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
    // `DateListed` (ISO, or a US `MM/DD/YYYY`): days on market when the feed gives no count.
    DaysOnMarket: [
      { from: ['ListingDetails.DaysOnMarket', 'DaysOnMarket'] },
      { daysSince: 'ListingDetails.DateListed', dateOrder: 'mdy' },
      { daysSince: 'DateListed', dateOrder: 'mdy' },
    ],
    ParkingSpots: {
      from: [
        'RichDetails.NumParkingSpaces',
        'RichDetails.ParkingSpaces',
        'BasicDetails.NumParkingSpaces',
        'BasicDetails.ParkingSpaces',
        'RichDetails.GarageSpaces',
      ],
    },
    // The HOA fee among the listing's fees, whichever comes first (it was read only when first).
    HOAMonth: {
      from: 'Fees.Fee[FeeType=HOA].FeeAmount',
      periodFrom: 'Fees.Fee[FeeType=HOA].FeePeriod',
    },
    Address: { from: ['Location.StreetAddress', 'Location.UnitNumber'], join: ' ', when: ADDRESS_SHOWN() },
    City: 'Location.City',
    State: 'Location.State',
    ZIP: 'Location.Zip',
    Latitude: { from: 'Location.Lat', when: ADDRESS_SHOWN() },
    Longitude: { from: 'Location.Long', when: ADDRESS_SHOWN() },
    Description: { from: 'BasicDetails.Description', html: true },
    Tours: [
      { const: '3D', when: { path: 'ListingDetails.VirtualTourUrl', notIn: [''] } },
      { const: 'OpenHouse', when: { path: 'OpenHouses.OpenHouse.Date', notIn: [''] } },
    ],
    Images: { from: 'Pictures.Picture', url: 'PictureUrl' },
  },
  // Zillow's property type codes in words (`SingleFamily` → Single Family).
  maps: {
    PropertyType: {
      SingleFamily: 'Single Family',
      Condo: 'Condo',
      Townhouse: 'Townhouse',
      Coop: 'Co-op',
      Cooperative: 'Co-op',
      MultiFamily: 'Multi Family',
      Manufactured: 'Manufactured',
      VacantLand: 'Vacant Land',
      Apartment: 'Apartment',
      Other: 'Other',
    },
  },
  extensions: {
    fields: {
      Title: 'BasicDetails.Title',
      Agent: {
        each: 'Agent',
        from: ['{FirstName} {LastName}', ['MobilePhoneLineNumber', 'OfficeLineNumber'], 'EmailAddress'],
      },
      Office: { from: ['Office.BrokerageName', 'Office.BrokerPhone', 'Office.BrokerEmail'] },
      'Listing courtesy of': 'ListingDetails.MlsName',
      'Open house': { each: 'OpenHouses.OpenHouse', from: ['Date', 'StartTime', 'EndTime'], as: 'openHouse' },
      'Available from': { from: 'RentalDetails.Availability', as: 'date' },
      'Lease term': {
        from: 'RentalDetails.LeaseTerm',
        map: {
          ContactForDetails: '',
          Monthly: 'month to month',
          MonthToMonth: 'month to month',
          SixMonths: 'six months',
          OneYear: 'one year',
          RentToOwn: 'rent to own',
        },
      },
      'Pets allowed': {
        yes: {
          'RentalDetails.PetsAllowed.Cats': 'cats',
          'RentalDetails.PetsAllowed.SmallDogs': 'small dogs',
          'RentalDetails.PetsAllowed.LargeDogs': 'large dogs',
          'RentalDetails.PetsAllowed.NoPets': 'none',
        },
      },
      'Utilities included': {
        yes: {
          'RentalDetails.UtilitiesIncluded.Water': 'water',
          'RentalDetails.UtilitiesIncluded.Sewage': 'sewage',
          'RentalDetails.UtilitiesIncluded.Garbage': 'trash',
          'RentalDetails.UtilitiesIncluded.Electricity': 'electricity',
          'RentalDetails.UtilitiesIncluded.Gas': 'gas',
          'RentalDetails.UtilitiesIncluded.Internet': 'internet',
          'RentalDetails.UtilitiesIncluded.Cable': 'cable',
          'RentalDetails.UtilitiesIncluded.SatTV': 'satellite TV',
        },
      },
      Furnished: { yes: { 'RichDetails.Furnished': 'yes' } },
      Appliances: 'RichDetails.Appliances.Appliance',
      Cooling: 'RichDetails.CoolingSystems.CoolingSystem',
      Heating: { from: ['RichDetails.HeatingSystems.HeatingSystem', 'RichDetails.HeatingFuels.HeatingFuel'] },
      Pool: { yes: { 'RichDetails.Pool': 'yes' }, no: 'no' },
      Waterfront: { yes: { 'RichDetails.Waterfront': 'yes' }, no: 'no' },
      View: 'RichDetails.ViewTypes.ViewType',
      Parking: 'RichDetails.ParkingTypes.ParkingType',
      'Outdoor space': {
        yes: {
          'RichDetails.Deck': 'deck',
          'RichDetails.Patio': 'patio',
          'RichDetails.Porch': 'porch',
          'RichDetails.Garden': 'garden',
          'RichDetails.Lawn': 'lawn',
          'RichDetails.FencedYard': 'fenced yard',
          'RichDetails.BarbecueArea': 'barbecue area',
          'RichDetails.Pond': 'pond',
          'RichDetails.Dock': 'dock',
          'RichDetails.TennisCourt': 'tennis court',
          'RichDetails.BasketballCourt': 'basketball court',
          'RichDetails.SportsCourt': 'sports court',
        },
      },
      Features: {
        from: 'RichDetails.AdditionalFeatures',
        yes: {
          'RichDetails.Fireplace': 'fireplace',
          'RichDetails.Basement': 'basement',
          'RichDetails.Attic': 'attic',
          'RichDetails.Elevator': 'elevator',
          'RichDetails.Doorman': 'doorman',
          'RichDetails.ControlledAccess': 'controlled access',
          'RichDetails.GatedEntry': 'gated entry',
          'RichDetails.SecuritySystem': 'security system',
          'RichDetails.Intercom': 'intercom',
          'RichDetails.HottubSpa': 'hot tub or spa',
          'RichDetails.Sauna': 'sauna',
          'RichDetails.JettedBathTub': 'jetted bath tub',
          'RichDetails.Wetbar': 'wet bar',
          'RichDetails.MotherInLaw': 'in-law unit',
          'RichDetails.CeilingFan': 'ceiling fans',
          'RichDetails.VaultedCeiling': 'vaulted ceilings',
          'RichDetails.Skylight': 'skylights',
          'RichDetails.DoublePaneWindows': 'double-pane windows',
          'RichDetails.SprinklerSystem': 'sprinkler system',
          'RichDetails.RvParking': 'RV parking',
          'RichDetails.DisabledAccess': 'disabled access',
          'RichDetails.FitnessCenter': 'fitness center',
          'RichDetails.Storage': 'storage',
          'RichDetails.OnsiteLaundry': 'on-site laundry',
          'RichDetails.HighspeedInternet': 'high-speed internet',
          'RichDetails.CableSatTV': 'cable/satellite TV',
          'RichDetails.CableReady': 'cable ready',
          'RichDetails.NearTransportation': 'near public transport',
          'RichDetails.Over55ActiveCommunity': '55+ community',
          'RichDetails.AssistedLivingCommunity': 'assisted living',
        },
      },
      Flooring: 'RichDetails.FloorCoverings.FloorCovering',
      'Architecture style': 'RichDetails.ArchitectureStyle',
      Exterior: 'RichDetails.ExteriorTypes.ExteriorType',
      Roof: 'RichDetails.RoofTypes.RoofType',
      Floors: { from: 'RichDetails.NumFloors', as: 'number' },
      'Unit floor': 'RichDetails.CondoFloorNum',
      'Year updated': 'RichDetails.YearUpdated',
      'What the owner loves': 'RichDetails.WhatOwnerLoves',
      // A fee without an amount (`<FeeAmount/>` beside its period) says nothing.
      Fees: {
        each: 'Fees.Fee',
        itemWhen: { path: 'FeeAmount', set: true },
        from: ['{FeeType}: {FeeAmount} {FeePeriod}'],
      },
      Schools: {
        from: [
          'Elementary: {Schools.Elementary}',
          'Middle: {Schools.Middle}',
          'Junior high: {Schools.JuniorHigh}',
          'High: {Schools.High}',
        ],
      },
      'School district': 'Schools.District',
      Neighborhood: 'Neighborhood.Name',
      'Virtual tour': 'ListingDetails.VirtualTourUrl',
    },
  },
};
