import type { MappingConfig } from '../mapping-schema.ts';
import { BLM_FURNISHED, BLM_LET_TYPE, BLM_PROPERTY_TYPE, BLM_TENURE } from './blm-codes.ts';

// Functions, not shared objects: `validate` prints the mapping as YAML, where a shared object would
// become an anchor and an alias.
const sale = () => ({ path: 'TRANS_TYPE_ID', in: ['1'] });
const onLet = () => ({ path: 'TRANS_TYPE_ID', in: ['2'] });
/** PRICE_QUALIFIER 1 (POA): the agent does not publish the price, so neither do we. */
const priceShown = () => ({ path: 'PRICE_QUALIFIER', notIn: ['1'] });
const FEATURES = Array.from({ length: 10 }, (_, i) => `FEATURE${i + 1}`);

/**
 * Rightmove BLM (`source: { format: blm }`), version 3 and the overseas 3i. The `$`-fields come
 * from `deriveBlmFields` (blm-derive.ts): code lists as labels, photos as absolute URLs. BLM carries
 * no listing URL (the feed must set `fields.Url`), year built, areas or parking: areas and parking
 * are the unknown marker 0, as is a bathroom count (`BATHROOMS` is optional in the specification;
 * `BEDROOMS` is mandatory). Prices are pounds in a UK file; a 3i file names no currency, so an
 * overseas listing gets none (set `defaults.CurrencySymbol`). Rents are converted to monthly from
 * `LET_RENT_FREQUENCY`, kept in ExtensionColumn. Statuses under offer or sold subject to contract
 * stay Active, as the default maps do for Pending.
 */
export const blm: MappingConfig = {
  // BLM (Rightmove's format): numbers with a decimal point. `1.250` is 1.25 (a mapping without a preset does not say: see `DecimalComma`).
  decimalComma: false,
  fields: {
    MLSNumber: 'AGENT_REF',
    Status: '$status',
    SaleType: 'TRANS_TYPE_ID',
    PropertyType: 'PROP_SUB_ID',
    // A UK file (no COUNTRY_CODE, or GB) is in pounds; an overseas one says nothing: no currency.
    CurrencySymbol: { const: 'GBP', when: { path: 'COUNTRY_CODE', in: ['', 'GB', 'UK'] } },
    SalePrice: { from: 'PRICE', when: [sale(), priceShown()] },
    RentPrice: { from: 'PRICE', periodFrom: '$rentPeriod', when: [onLet(), priceShown()] },
    DepositFee: 'LET_BOND',
    Bedrooms: { from: ['BEDROOMS', '$noRooms'] },
    Bathrooms: { from: ['BATHROOMS', '$noRooms'] },
    DaysOnMarket: { daysSince: 'CREATE_DATE' },
    // v3 `ADDRESS_1`–`3`; 3i `HOUSE_NAME_NUMBER`, `STREET_NAME` (blm-derive.ts: a house number
    // alone joins its street with a space, `9 Alwyne Villas`).
    Address: '$address',
    City: { from: ['TOWN', 'OS_TOWN_CITY'] },
    State: { from: ['ADDRESS_4', 'OS_REGION'] },
    ZIP: [{ from: ['POSTCODE1', 'POSTCODE2'], join: ' ' }, { from: 'ZIPCODE' }],
    Location: 'DISPLAY_ADDRESS',
    Latitude: { from: ['LATITUDE', 'EXACT_LATITUDE'] },
    Longitude: { from: ['LONGITUDE', 'EXACT_LONGITUDE'] },
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
  // BATHROOMS is optional in the specification: a file without it says nothing, never "broken".
  missing: { Bathrooms: 'unknown' },
  // `$`-fields are the derive step's, never copied by `extensions.unmapped`.
  extensions: {
    exclude: ['$*'],
    fields: {
      'Source status': '$status',
      'Price qualifier': '$priceQualifier',
      'Rent frequency': '$rentFrequency',
      Furnished: { from: 'LET_FURN_ID', map: BLM_FURNISHED },
      'Let type': { from: 'LET_TYPE_ID', map: BLM_LET_TYPE },
      'Available from': { from: 'LET_DATE_AVAILABLE', as: 'date' },
      'Minimum term': { from: 'LET_CONTRACT_IN_MONTHS', suffix: ' months' },
      'Bills included': {
        yes: {
          LET_BILL_INC_WATER: 'water',
          LET_BILL_INC_GAS: 'gas',
          LET_BILL_INC_ELECTRICITY: 'electricity',
          LET_BILL_INC_TV_LICENCE: 'TV licence',
          LET_BILL_INC_TV_LICIENCE: 'TV licence',
          LET_BILL_INC_TV_SUBSCRIPTION: 'TV subscription',
          LET_BILL_INC_INTERNET: 'internet',
        },
      },
      Appliances: { yes: { LET_WASHING_MACHINE_FLAG: 'washing machine', LET_DISHWASHER_FLAG: 'dishwasher' } },
      Security: { yes: { LET_BURGLAR_ALARM_FLAG: 'burglar alarm' } },
      'Administration fee': 'ADMINISTRATION_FEE',
      Tenure: { from: 'TENURE_TYPE_ID', map: BLM_TENURE },
      'Council tax band': 'COUNCIL_TAX_BAND',
      'New build': { yes: { NEW_HOME_FLAG: 'yes' } },
      'Reception rooms': 'LIVING_ROOMS',
      Features: { from: FEATURES, join: '; ' },
      Development: 'DEVELOPMENT_NAME',
      Country: { from: 'COUNTRY_CODE', as: 'country' },
      'Virtual tour': { from: 'MEDIA_VIRTUAL_TOUR_00' },
      Summary: 'SUMMARY',
    },
  },
};
