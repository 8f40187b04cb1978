import type { MappingConfig } from '../mapping-schema.ts';

/** Record elements (`$tag`) whose listings are let, whatever else they say. */
const RENTALS = ['rental', 'holidayRental'];
/** Commercial and business listings say sale or lease in `commercialListingType` (`both`: either). */
const LEASE_ONLY = { path: 'commercialListingType.@value', in: ['lease'] };
const NOT_LEASE_ONLY = { path: 'commercialListingType.@value', notIn: ['lease'] };
const LEASABLE = { path: 'commercialListingType.@value', in: ['lease', 'both'] };
const SHOWN = (path: string) => ({ path: `${path}.@display`, notIn: ['no'] });
/** A status-only update (`<residential status="sold"><agentID/><uniqueID/>…`) has no address. */
const STATUS_ONLY = { path: 'address', set: false };

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
  areaUnit: 'Square Meters',
  fields: {
    MLSNumber: { template: '{agentID}-{uniqueID}' },
    Status: [
      { const: 'remove', when: [{ path: '@status', in: ['sold', 'leased'] }, STATUS_ONLY] },
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
      { const: 'for_rent', when: { path: '$tag', in: RENTALS } },
      { const: 'for_rent', when: [{ path: '$tag', in: ['commercial', 'business'] }, LEASE_ONLY] },
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
      { from: 'price', when: [{ path: '$tag', notIn: RENTALS }, NOT_LEASE_ONLY, SHOWN('price')] },
    ],
    RentPrice: [
      { from: 'rent', periodFrom: 'rent.@period', when: [{ path: '$tag', in: RENTALS }, SHOWN('rent')] },
      {
        from: 'commercialRent',
        periodFrom: 'commercialRent.@period',
        period: 'annual',
        when: [LEASABLE, SHOWN('commercialRent')],
      },
    ],
    DepositFee: 'bond',
    Bedrooms: 'features.bedrooms',
    Bathrooms: 'features.bathrooms',
    ParkingSpots: [
      { sum: ['features.garages', 'features.carports', 'features.openSpaces'] },
      { from: ['carSpaces', 'features.carSpaces', 'parking.@carSpaces'] },
    ],
    BuildingArea: { from: 'buildingDetails.area', unitFrom: 'buildingDetails.area.@unit', unit: 'm2' },
    LotArea: { from: 'landDetails.area', unitFrom: 'landDetails.area.@unit', unit: 'm2' },
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
    Latitude: { from: ['geocode.latitude', 'address.geocode.latitude', 'geocode.@latitude'] },
    Longitude: { from: ['geocode.longitude', 'address.geocode.longitude', 'geocode.@longitude'] },
    Location: 'municipality',
    Description: { from: 'description', html: true },
    // Photos only: `objects` also holds floor plans (`floorplan` elements, not read).
    Images: { from: ['images.img', 'objects.img'], url: '@url' },
  },
  extensions: {
    fields: {
      Headline: 'headline',
      'Price view': 'priceView',
      Agent: 'listingAgent.name',
      Outgoings: 'outgoings',
    },
  },
};
