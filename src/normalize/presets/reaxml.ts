import type { MappingConfig } from '../mapping-schema.ts';

// Functions, not shared objects: `validate` prints the mapping as YAML, where a shared object would
// become an anchor and an alias.

/** Record elements (`$tag`) whose listings are let, whatever else they say. */
const RENTALS = () => ['rental', 'holidayRental'];
/** Commercial and business listings say sale or lease in `commercialListingType` (`both`: either). */
const LEASE_ONLY = () => ({ path: 'commercialListingType.@value', in: ['lease'] });
const NOT_LEASE_ONLY = () => ({ path: 'commercialListingType.@value', notIn: ['lease'] });
const LEASABLE = () => ({ path: 'commercialListingType.@value', in: ['lease', 'both'] });
const SHOWN = (path: string) => ({ path: `${path}.@display`, notIn: ['no'] });
/** REAXML area units in words. */
const AREA_UNIT_WORDS = () => ({ squareMeter: 'm²', square: 'squares', acre: 'acres', hectare: 'ha' });

/** A status-only update (`<residential status="sold"><agentID/><uniqueID/>…`) has no address. */
const STATUS_ONLY = () => ({ path: 'address', set: false });

/**
 * realestate.com.au REAXML (`propertyList`, DOCTYPE propertyList.dtd): records are the children of
 * `propertyList`, whose element name (`$tag`: residential, rental, land, rural, commercial,
 * commercialLand, business, holidayRental) says the kind. The key is `agentID-uniqueID`. A record
 * with only its ids and a status (`withdrawn`, `offmarket`, and `sold` / `leased` sent as status-only
 * updates) removes the listing: there is nothing to show, and the status says it is off the market.
 * REAXML carries no listing URL (`fields.Url` is required, see requirements.ts), no days on market
 * and no year built (the unknown marker). Prices are in AUD.
 */
export const reaxml: MappingConfig = {
  // REAXML's numbers are written with a decimal point. `1.250` is 1.25 (a mapping without a preset does not say: see `DecimalComma`).
  decimalComma: false,
  areaUnit: 'Square Meters',
  fields: {
    MLSNumber: { template: '{agentID}-{uniqueID}' },
    Status: [
      { const: 'remove', when: [{ path: '@status', in: ['sold', 'leased'] }, STATUS_ONLY()] },
      {
        const: 'Under Offer',
        when: [
          { path: '@status', in: ['current'] },
          { path: 'underOffer.@value', in: ['yes'] },
        ],
      },
      { from: '@status' },
    ],
    SaleType: [
      { const: 'for_rent', when: { path: '$tag', in: RENTALS() } },
      { const: 'for_rent', when: [{ path: '$tag', in: ['commercial', 'business'] }, LEASE_ONLY()] },
      { const: 'for_sale' },
    ],
    PropertyType: [
      { from: '$tag', map: { land: 'Land', commercialLand: 'Commercial Land', '*': '' } },
      {
        from: [
          'category.@name',
          'holidayCategory.@name',
          'ruralCategory.@name',
          'commercialCategory.@name',
          'businessCategory.name',
          'businessCategory.@name',
        ],
      },
      {
        from: '$tag',
        map: {
          residential: 'Residential',
          rental: 'Residential',
          holidayRental: 'Holiday Rental',
          rural: 'Rural',
          commercial: 'Commercial',
          business: 'Business',
        },
      },
    ],
    CurrencySymbol: { const: 'AUD' },
    // `display="no"`: the agent does not publish the price, so neither do we.
    SalePrice: [
      { from: 'soldDetails.price', when: [{ path: '@status', in: ['sold'] }, SHOWN('soldDetails.price')] },
      {
        from: 'soldDetails.soldPrice',
        when: [{ path: '@status', in: ['sold'] }, SHOWN('soldDetails.soldPrice')],
      },
      { from: 'price', when: [{ path: '$tag', notIn: RENTALS() }, NOT_LEASE_ONLY(), SHOWN('price')] },
      // A commercial listing offered in several configurations (`isMultiple`) gives a price range:
      // its lower bound ("from"), the range kept in ExtensionColumn.
      {
        from: 'price.range.min',
        when: [{ path: '$tag', notIn: RENTALS() }, NOT_LEASE_ONLY(), SHOWN('price')],
      },
    ],
    RentPrice: [
      {
        from: 'rent',
        periodFrom: 'rent.@period',
        when: [{ path: '$tag', in: RENTALS() }, SHOWN('rent'), { path: 'rent.@period', set: true }],
      },
      // A rent without its `period`: Australian rents are mostly weekly, some monthly, and the file
      // does not say which, so it is never read as either (4.33× off): the record is refused as any
      // rent of an unknown period is (`unknown_period`, held and reported). A feed that knows its
      // period maps it: `RentPrice: { from: rent, periodFrom: rent.@period, period: week }`.
      { from: 'rent', period: 'not stated', when: [{ path: '$tag', in: RENTALS() }, SHOWN('rent')] },
      {
        from: 'commercialRent',
        periodFrom: 'commercialRent.@period',
        period: 'annual',
        when: [LEASABLE(), SHOWN('commercialRent')],
      },
    ],
    DepositFee: 'bond',
    // `<bedrooms>Studio</bedrooms>` is a valid REAXML value: a studio has no separate bedroom.
    Bedrooms: { from: 'features.bedrooms', map: { studio: '0' } },
    Bathrooms: 'features.bathrooms',
    ParkingSpots: [
      { sum: ['features.garages', 'features.carports', 'features.openSpaces'] },
      { from: ['carSpaces', 'features.carSpaces', 'parking.@carSpaces'] },
    ],
    // An area given as a range (`<area unit="squareMeter"><range><min>880</min><max>990</max>…`):
    // its lower bound, the range kept in ExtensionColumn.
    BuildingArea: [
      { from: 'buildingDetails.area', unitFrom: 'buildingDetails.area.@unit', unit: 'm2' },
      { from: 'buildingDetails.area.range.min', unitFrom: 'buildingDetails.area.@unit', unit: 'm2' },
    ],
    LotArea: [
      { from: 'landDetails.area', unitFrom: 'landDetails.area.@unit', unit: 'm2' },
      { from: 'landDetails.area.range.min', unitFrom: 'landDetails.area.@unit', unit: 'm2' },
    ],
    YearBuilt: { from: ['buildingDetails.yearBuilt', 'yearBuilt'] },
    // Australian addresses write the unit before the number: `2/39 Main Road`. A hidden address
    // (`display="no"`) publishes the suburb only.
    Address: [
      {
        template: '{address.subNumber}/{address.streetNumber} {address.street}',
        when: SHOWN('address'),
      },
      { template: '{address.streetNumber} {address.street}', when: SHOWN('address') },
      { template: 'Lot {address.lotNumber} {address.street}', when: SHOWN('address') },
      { from: 'address.street', when: SHOWN('address') },
    ],
    City: { from: 'address.suburb', when: SHOWN('address.suburb') },
    State: 'address.state',
    ZIP: 'address.postcode',
    // `geocode` beside or inside `address`, or (some CRMs) `latitude`/`longitude` in `address` itself.
    // A hidden address (`display="no"`) hides its point too: the coordinates are the street address.
    Latitude: {
      from: ['geocode.latitude', 'address.geocode.latitude', 'geocode.@latitude', 'address.latitude'],
      when: SHOWN('address'),
    },
    Longitude: {
      from: ['geocode.longitude', 'address.geocode.longitude', 'geocode.@longitude', 'address.longitude'],
      when: SHOWN('address'),
    },
    Location: 'municipality',
    Description: { from: 'description', html: true },
    // Photos only: `objects` also holds floor plans (`floorplan` elements, not read).
    Images: { from: ['images.img', 'objects.img'], url: '@url' },
  },
  // `$`-fields are the derive step's (reaxml-derive.ts), never copied by `extensions.unmapped`.
  extensions: {
    exclude: ['$*'],
    fields: {
      Headline: 'headline',
      'Price view': 'priceView',
      'Price range': { from: ['price.range.min', 'price.range.max'], as: 'range', prefix: '$' },
      'Floor area range': {
        from: [
          'buildingDetails.area.range.min',
          'buildingDetails.area.range.max',
          'buildingDetails.area.@unit',
        ],
        as: 'range',
        map: AREA_UNIT_WORDS(),
      },
      'Land area range': {
        from: ['landDetails.area.range.min', 'landDetails.area.range.max', 'landDetails.area.@unit'],
        as: 'range',
        map: AREA_UNIT_WORDS(),
      },
      Agent: { each: 'listingAgent', from: ['name', 'telephone', 'email'] },
      'Open house': { from: 'inspectionTimes.inspection', as: 'inspection', join: '; ' },
      Auction: { from: ['auction.@date', 'auction'], as: 'dateTime' },
      'Available from': { from: 'dateAvailable', as: 'date' },
      // `$pool` (reaxml-derive.ts): the older `<pool type="inground">yes</pool>` with its kind.
      Pool: {
        from: '$pool',
        yes: {
          'features.poolInGround': 'in-ground',
          'features.poolAboveGround': 'above-ground',
        },
      },
      Cooling: {
        yes: {
          'features.airConditioning': 'air conditioning',
          'features.ductedCooling': 'ducted',
          'features.splitsystemAircon': 'split system',
          'features.splitSystemAirCon': 'split system',
          'features.reverseCycleAircon': 'reverse cycle',
          'features.reverseCycleAirCon': 'reverse cycle',
          'features.evaporativeCooling': 'evaporative',
        },
      },
      // `<heating type="gas"/>` (the element reference's shape) beside the flags.
      Heating: {
        from: 'features.heating.@type',
        map: { GDH: 'gas ducted', solid: 'solid fuel', other: '', none: '' },
        yes: {
          'features.ductedHeating': 'ducted',
          'features.gasHeating': 'gas',
          'features.hydronicHeating': 'hydronic',
          'features.splitsystemHeating': 'split system',
          'features.splitSystemHeating': 'split system',
          'features.openFirePlace': 'open fireplace',
        },
      },
      'Hot water': { from: 'features.hotWaterService.@type', map: { other: '', none: '' } },
      Parking: {
        yes: {
          'features.secureParking': 'secure parking',
          'features.remoteGarage': 'remote-controlled garage',
        },
        count: {
          'features.garages': 'garage|garages',
          'features.carports': 'carport|carports',
          'features.openSpaces': 'open space|open spaces',
          carSpaces: 'car space|car spaces',
        },
      },
      'Parking notes': 'parkingComments',
      Rooms: {
        count: {
          'features.ensuite': 'ensuite|ensuites',
          'features.toilets': 'toilet|toilets',
          'features.livingAreas': 'living area|living areas',
        },
      },
      'Outdoor space': {
        yes: {
          'features.balcony': 'balcony',
          'features.deck': 'deck',
          'features.courtyard': 'courtyard',
          'features.outdoorEnt': 'outdoor entertaining area',
          'features.fullyFenced': 'fully fenced',
          'features.shed': 'shed',
          'features.tennisCourt': 'tennis court',
          'features.outsideSpa': 'outdoor spa',
        },
      },
      Features: {
        from: 'features.otherFeatures',
        yes: {
          'features.study': 'study',
          'features.rumpusRoom': 'rumpus room',
          'features.gym': 'gym',
          'features.workshop': 'workshop',
          'features.insideSpa': 'indoor spa',
          'features.builtInRobes': 'built-in wardrobes',
          'features.floorboards': 'floorboards',
          'features.dishwasher': 'dishwasher',
          'features.broadband': 'broadband',
          'features.payTV': 'pay TV',
          'features.alarmSystem': 'alarm system',
          'features.intercom': 'intercom',
          'features.vacuumSystem': 'ducted vacuum',
        },
      },
      'Eco features': {
        yes: {
          'features.ecoFriendly.solarPanels': 'solar panels',
          'features.ecoFriendly.solarHotWater': 'solar hot water',
          'features.ecoFriendly.waterTank': 'water tank',
          'features.ecoFriendly.greyWaterSystem': 'grey water system',
          'ecoFriendly.solarPanels': 'solar panels',
          'ecoFriendly.solarHotWater': 'solar hot water',
          'ecoFriendly.waterTank': 'water tank',
          'ecoFriendly.greyWaterSystem': 'grey water system',
        },
      },
      'Energy rating': { from: 'buildingDetails.energyRating', suffix: ' stars' },
      'Pets allowed': { yes: { 'allowances.petFriendly': 'yes', 'features.petFriendly': 'yes' } },
      Furnished: { yes: { 'allowances.furnished': 'yes', 'features.furnished': 'yes' } },
      'New construction': { yes: { newConstruction: 'yes' } },
      Highlights: { from: 'highlight', join: '; ' },
      Tenancy: {
        from: 'tenancy',
        map: { unknown: '', vacant: 'vacant possession', tenanted: 'tenanted investment' },
      },
      Return: 'return',
      Outgoings: 'outgoings',
      'Council rates': { from: ['ruralFeatures.councilRates', 'councilRates'] },
      'Annual rainfall': 'ruralFeatures.annualRainfall',
      Soil: 'ruralFeatures.soilTypes',
      Irrigation: 'ruralFeatures.irrigation',
      'Carrying capacity': 'ruralFeatures.carryingCapacity',
      Fencing: 'ruralFeatures.fencing',
      Improvements: 'ruralFeatures.improvements',
      Services: 'ruralFeatures.services',
      Country: { from: 'address.country', as: 'country', map: { AUS: '', Australia: '' } },
      // `externalLink`: 3D tours, online auctions, walkthrough videos (REAXML allows two or three).
      Links: { from: ['externalLink.@href', 'videoLink.@href'] },
    },
  },
};
