import type { MappingConfig } from '../mapping-schema.ts';

const RENT = ['Lease', 'Rent'];
const DC = 'DetailedCharacteristics';

/**
 * `<DiscloseAddress>false</DiscloseAddress>`: the listing's street address is not to be published,
 * so neither the street nor the point that locates it is sent; the area (city, state, ZIP) stays.
 */
const ADDRESS_DISCLOSED = () => ({ path: 'DiscloseAddress', notIn: ['false', 'no', '0', 'n'] });

/**
 * ListHub / RETS Syndication (`Listings/Listing`, address parts in the `commons:` namespace), the
 * 2012-03 schema and the older 2008-03 one. Photo URLs without a scheme take https; relative ones
 * need `mapping.baseUrl`. Areas carry their unit in `commons:areaUnits`; without it, the schema's
 * documented unit decides: square feet for `LivingArea`; acres for a 2008-03 `LotSize` (the schema
 * named by the document's namespace); a 2012-03 `LotSize` has no documented default, so a unitless
 * one is the unknown marker, its value kept as a fact. A
 * `<DiscloseAddress>false</DiscloseAddress>` listing publishes its area, not its street or point.
 * Bedrooms and bathrooms are optional in the schema ("empty when no information is available"):
 * the unknown marker, never a rejection.
 */
export const listhub: MappingConfig = {
  // ListHub's schema (xs:decimal): a decimal point. `1.250` is 1.25 (a mapping without a preset does not say: see `DecimalComma`).
  decimalComma: false,
  areaUnit: 'Square Feet',
  fields: {
    MLSNumber: { from: ['MlsNumber', 'ListingKey'] },
    Url: 'ListingURL',
    Status: 'ListingStatus',
    SaleType: { from: 'ListingCategory', map: { Purchase: 'for_sale', Lease: 'for_rent', Rent: 'for_rent' } },
    PropertyType: { from: ['PropertySubType', 'PropertyType'] },
    CurrencySymbol: { from: 'ListPrice.@currencyCode', default: '$' },
    SalePrice: { from: 'ListPrice', when: { path: 'ListingCategory', notIn: [...RENT] } },
    RentPrice: {
      from: 'ListPrice',
      periodFrom: 'ListPrice.@currencyPeriod',
      when: { path: 'ListingCategory', in: [...RENT] },
    },
    Bedrooms: 'Bedrooms',
    Bathrooms: {
      from: 'Bathrooms',
      full: 'FullBathrooms',
      half: 'HalfBathrooms',
      threeQuarter: 'ThreeQuarterBathrooms',
      quarter: 'OneQuarterBathrooms',
    },
    BuildingArea: { from: 'LivingArea', unitFrom: 'LivingArea.@areaUnits', unit: 'sqft' },
    LotArea: [
      {
        from: 'LotSize',
        unitFrom: 'LotSize.@areaUnits',
        when: [
          { path: 'LotSize.@areaUnits', set: true },
          { path: 'LotSize.@areaUnits', notIn: ['unknown'] },
        ],
      },
      // No unit: the schema decides (`$schema`, listhub-derive.ts, from the document's namespace).
      // 2008-03 states LotSize in acres (`<LotSize>5.750000</LotSize>`, "5.75 acres"). 2012-03 carries
      // the unit in `commons:areaUnits` and documents no default: a unitless `0.62` may be acres or
      // square feet, so it is the unknown marker, the value kept as the `Lot size (unit not stated)`
      // fact, never a guessed area. `areaUnits="unknown"` says so itself.
      {
        from: 'LotSize',
        unit: 'acres',
        when: [
          { path: 'LotSize.@areaUnits', set: false },
          { path: '$schema', in: ['2008-03'] },
        ],
      },
    ],
    YearBuilt: 'YearBuilt',
    // The homeowner association's fee among `Expenses` (listhub-derive.ts), monthly by its period.
    HOAMonth: { from: '$hoa', periodFrom: '$hoaPeriod' },
    ParkingSpots: {
      from: [
        `${DC}.NumParkingSpaces`,
        `${DC}.ParkingSpaces`,
        'NumParkingSpaces',
        'ParkingSpaces',
        `${DC}.NumGarageSpaces`,
      ],
    },
    // `ListingDate` is an xs:date (ISO): days on market from it when the feed gives no count.
    DaysOnMarket: [{ from: ['DaysOnMarket'] }, { daysSince: 'ListingDate' }],
    Address: [
      // With its unit (`2110 Elm Street 4B`, as zillow's), unless the full address already says it.
      {
        from: ['Address.commons:FullStreetAddress', '$unitAfterStreet'],
        join: ' ',
        when: [ADDRESS_DISCLOSED(), { path: 'Address.commons:FullStreetAddress', set: true }],
      },
      {
        from: ['Address.commons:StreetNumber', 'Address.commons:StreetName', 'Address.commons:UnitNumber'],
        join: ' ',
        when: ADDRESS_DISCLOSED(),
      },
    ],
    City: 'Address.commons:City',
    State: 'Address.commons:StateOrProvince',
    ZIP: 'Address.commons:PostalCode',
    Latitude: { from: 'Location.Latitude', when: ADDRESS_DISCLOSED() },
    Longitude: { from: 'Location.Longitude', when: ADDRESS_DISCLOSED() },
    Description: { from: 'ListingDescription', html: true },
    Tours: { const: '3D', when: { path: 'VirtualTours.VirtualTour.MediaURL', notIn: [''] } },
    // 2012-03 `<Photo><MediaURL>`, 2008-03 `<Photo><URL>`.
    Images: { from: ['Photos.Photo.MediaURL', 'Photos.Photo.URL'] },
  },
  missing: { Bedrooms: 'unknown', Bathrooms: 'unknown' },
  extensions: {
    exclude: ['$*'],
    fields: {
      Title: 'ListingTitle',
      'Lot size (unit not stated)': '$lotUnstated',
      Agent: {
        each: 'ListingParticipants.Participant',
        from: ['{FirstName} {LastName}', ['PrimaryContactPhone', 'OfficePhone', 'MobilePhone'], 'Email'],
      },
      Office: { each: 'Offices.Office', from: ['Name', 'PhoneNumber', 'OfficeEmail'] },
      Brokerage: { from: ['Brokerage.Name', 'Brokerage.Phone', 'Brokerage.Email'] },
      'Listing provided by': 'ProviderName',
      'Open house': {
        each: 'OpenHouses.OpenHouse',
        from: ['Date', 'StartTime', 'EndTime'],
        as: 'openHouse',
      },
      Appliances: `${DC}.Appliances.Appliance`,
      Cooling: `${DC}.CoolingSystems.CoolingSystem`,
      Heating: { from: [`${DC}.HeatingSystems.HeatingSystem`, `${DC}.HeatingFuels.HeatingFuel`] },
      Pool: { yes: { [`${DC}.HasPool`]: 'yes' }, no: 'no' },
      Waterfront: { yes: { [`${DC}.IsWaterfront`]: 'yes' }, no: 'no' },
      View: { from: `${DC}.ViewTypes.ViewType`, map: { None: '', Unknown: '' } },
      Parking: `${DC}.ParkingTypes.ParkingType`,
      'Outdoor space': {
        yes: {
          [`${DC}.HasDeck`]: 'deck',
          [`${DC}.HasPatio`]: 'patio',
          [`${DC}.HasPorch`]: 'porch',
          [`${DC}.HasGarden`]: 'garden',
          [`${DC}.HasLawn`]: 'lawn',
          [`${DC}.HasBarbecueArea`]: 'barbecue area',
          [`${DC}.HasPond`]: 'pond',
          [`${DC}.HasDock`]: 'dock',
          [`${DC}.HasSportsCourt`]: 'sports court',
          [`${DC}.HasGreenhouse`]: 'greenhouse',
        },
      },
      Features: {
        yes: {
          [`${DC}.HasFireplace`]: 'fireplace',
          [`${DC}.HasBasement`]: 'basement',
          [`${DC}.HasAttic`]: 'attic',
          [`${DC}.HasElevator`]: 'elevator',
          [`${DC}.HasDoorman`]: 'doorman',
          [`${DC}.HasGatedEntry`]: 'gated entry',
          [`${DC}.HasSecuritySystem`]: 'security system',
          [`${DC}.Intercom`]: 'intercom',
          [`${DC}.HasHotTubSpa`]: 'hot tub or spa',
          [`${DC}.HasSauna`]: 'sauna',
          [`${DC}.HasJettedBathTub`]: 'jetted bath tub',
          [`${DC}.HasWetBar`]: 'wet bar',
          [`${DC}.HasMotherInLaw`]: 'in-law unit',
          [`${DC}.HasCeilingFan`]: 'ceiling fans',
          [`${DC}.HasVaultedCeiling`]: 'vaulted ceilings',
          [`${DC}.HasSkylight`]: 'skylights',
          [`${DC}.HasDoublePaneWindows`]: 'double-pane windows',
          [`${DC}.HasSprinklerSystem`]: 'sprinkler system',
          [`${DC}.HasRVParking`]: 'RV parking',
          [`${DC}.HasDisabledAccess`]: 'disabled access',
          [`${DC}.IsCableReady`]: 'cable ready',
          [`${DC}.IsWired`]: 'wired',
        },
      },
      Flooring: `${DC}.FloorCoverings.FloorCovering`,
      'Architecture style': `${DC}.ArchitectureStyle`,
      Exterior: `${DC}.ExteriorTypes.ExteriorType`,
      Roof: `${DC}.RoofTypes.RoofType`,
      Floors: { from: `${DC}.NumFloors`, as: 'number' },
      'Unit floor': `${DC}.CondoFloorNum`,
      'Year updated': `${DC}.YearUpdated`,
      'New construction': { yes: { [`${DC}.IsNewConstruction`]: 'yes' } },
      Schools: {
        each: 'Location.Community.Schools.School',
        from: ['{Name} ({SchoolCategory})'],
      },
      'School district': {
        from: [['Location.Community.Schools.School.District', 'Schools.SchoolDistrict']],
      },
      Neighborhood: { each: 'Location.Neighborhoods.Neighborhood', from: [['Name', 'Description']] },
      Subdivision: 'Location.Community.Subdivision',
      County: 'Location.County',
      Expenses: {
        each: 'Expenses.Expense',
        from: ['{ExpenseCategory}: {ExpenseValue} {ExpenseValue.@currencyPeriod}'],
      },
      'Property taxes': { each: 'Taxes.Tax', from: ['{Amount} ({Year})'] },
      Foreclosure: 'ForeclosureStatus',
      'Virtual tour': 'VirtualTours.VirtualTour.MediaURL',
      Disclaimer: 'Disclaimer',
    },
  },
};
