import type { MappingConfig } from '../mapping-schema.ts';
import { BLM_PROPERTY_TYPE } from './blm-codes.ts';

// Functions, not shared objects: `validate` prints the mapping as YAML, where a shared object would
// become an anchor and an alias.
const sale = () => ({ path: 'TRANS_TYPE_ID', in: ['1'] });
const onLet = () => ({ path: 'TRANS_TYPE_ID', in: ['2'] });
/** PRICE_QUALIFIER 1 (POA): the agent does not publish the price, so neither do we. */
const priceShown = () => ({ path: 'PRICE_QUALIFIER', notIn: ['1'] });

/**
 * Rightmove BLM (`source: { format: blm }`), version 3. The `$`-fields come from `deriveBlmFields`
 * (blm-derive.ts): code lists as labels, photos as absolute URLs. BLM carries no listing URL (the
 * feed must set `fields.Url`), year built, areas or parking: areas and parking are the unknown
 * marker 0. Rents are converted to monthly from `LET_RENT_FREQUENCY`, kept in ExtensionColumn.
 * Statuses under offer or sold subject to contract stay Active, as the default maps do for Pending.
 */
export const blm: MappingConfig = {
  fields: {
    MLSNumber: 'AGENT_REF',
    Status: '$status',
    SaleType: 'TRANS_TYPE_ID',
    PropertyType: 'PROP_SUB_ID',
    CurrencySymbol: { const: 'GBP' },
    SalePrice: { from: 'PRICE', when: [sale(), priceShown()] },
    RentPrice: { from: 'PRICE', periodFrom: '$rentPeriod', when: [onLet(), priceShown()] },
    DepositFee: 'LET_BOND',
    Bedrooms: { from: ['BEDROOMS', '$noRooms'] },
    Bathrooms: { from: ['BATHROOMS', '$noRooms'] },
    DaysOnMarket: { daysSince: 'CREATE_DATE' },
    Address: { from: ['ADDRESS_1', 'ADDRESS_2', 'ADDRESS_3'], join: ', ' },
    City: 'TOWN',
    State: 'ADDRESS_4',
    ZIP: { from: ['POSTCODE1', 'POSTCODE2'], join: ' ' },
    Location: 'DISPLAY_ADDRESS',
    Latitude: 'LATITUDE',
    Longitude: 'LONGITUDE',
    Description: { from: ['$description', 'SUMMARY'] },
    Images: { from: '$images' },
    Tours: '$tour',
  },
  maps: {
    Status: {
      Available: 'Active',
      SSTC: 'Active',
      SSTCM: 'Active',
      'Under Offer': 'Active',
      Reserved: 'Active',
      'Let Agreed': 'Active',
      Sold: 'Sold',
      Let: 'Sold',
      Unpublished: 'remove',
    },
    SaleType: { '1': 'for_sale', '2': 'for_rent' },
    PropertyType: BLM_PROPERTY_TYPE,
  },
  // What a record does not give is the unknown marker 0 by the mapping's `missing` policy (counted
  // per field in the ingest result; docs/feeds.md says what 0 means).
  // `$`-fields are the derive step's, never copied by `extensions.unmapped`.
  extensions: {
    exclude: ['$*'],
    fields: {
      'Source status': '$status',
      'Price qualifier': '$priceQualifier',
      'Rent frequency': '$rentFrequency',
      Furnished: '$furnished',
      Tenure: '$tenure',
      'Available from': 'LET_DATE_AVAILABLE',
      Features: '$features',
      Summary: 'SUMMARY',
    },
  },
};
