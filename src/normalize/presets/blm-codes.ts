/**
 * Code lists of Rightmove's BLM datafeed (specification version 3), as the labels a person reads.
 * Codes not listed here are kept as sent, so a new code shows up in the listing rather than vanishing.
 */

/** `STATUS_ID`. 6 and 7 are sent by some agency systems for completed sales and lets. */
export const BLM_STATUS: Readonly<Record<string, string>> = {
  '0': 'Available',
  '1': 'SSTC',
  '2': 'SSTCM',
  '3': 'Under Offer',
  '4': 'Reserved',
  '5': 'Let Agreed',
  '6': 'Sold',
  '7': 'Let',
};

/** `PRICE_QUALIFIER` (0 = none). 1 POA: the price is not published. */
export const BLM_PRICE_QUALIFIER: Readonly<Record<string, string>> = {
  '1': 'POA',
  '2': 'Guide Price',
  '3': 'Fixed Price',
  '4': 'Offers in Excess of',
  '5': 'OIRO',
  '6': 'Sale by Tender',
  '7': 'From',
  '9': 'Shared Ownership',
  '10': 'Offers Over',
  '11': 'Part Buy Part Rent',
  '12': 'Shared Equity',
  '14': 'Equity Loan',
  '15': 'Offers Invited',
};

/** `LET_RENT_FREQUENCY` → [label, the period the mapping converts from]. Empty means monthly (the default). */
export const BLM_RENT_FREQUENCY: Readonly<Record<string, readonly [string, string]>> = {
  '0': ['Weekly', 'week'],
  '1': ['Monthly', 'month'],
  '2': ['Quarterly', 'quarter'],
  '3': ['Annual', 'year'],
  '5': ['Per person per week', 'week'],
};

/** `LET_FURN_ID`. */
export const BLM_FURNISHED: Readonly<Record<string, string>> = {
  '0': 'Furnished',
  '1': 'Part furnished',
  '2': 'Unfurnished',
  '4': 'Furnished or unfurnished',
};

/** `TENURE_TYPE_ID`. */
export const BLM_TENURE: Readonly<Record<string, string>> = {
  '1': 'Freehold',
  '2': 'Leasehold',
  '3': 'Feudal',
  '4': 'Commonhold',
  '5': 'Share of Freehold',
};

/** `PROP_SUB_ID`, the residential types and a few commercial ones (17 became 202 Hotel in revision 3.3). */
export const BLM_PROPERTY_TYPE: Readonly<Record<string, string>> = {
  '0': 'Not Specified',
  '1': 'Terraced House',
  '2': 'End of Terrace House',
  '3': 'Semi-Detached House',
  '4': 'Detached House',
  '5': 'Mews House',
  '6': 'Cluster House',
  '7': 'Ground Flat',
  '8': 'Flat',
  '9': 'Studio',
  '10': 'Ground Maisonette',
  '11': 'Maisonette',
  '12': 'Bungalow',
  '13': 'Terraced Bungalow',
  '14': 'Semi-Detached Bungalow',
  '15': 'Detached Bungalow',
  '16': 'Mobile Home',
  '17': 'Hotel',
  '18': 'Guest House',
  '20': 'Land',
  '21': 'Link Detached House',
  '22': 'Town House',
  '23': 'Cottage',
  '24': 'Chalet',
  '27': 'Villa',
  '28': 'Apartment',
  '29': 'Penthouse',
  '30': 'Finca',
  '43': 'Barn Conversion',
  '44': 'Serviced Apartment',
  '45': 'Parking',
  '46': 'Sheltered Housing',
  '47': 'Retirement Property',
  '48': 'House Share',
  '49': 'Flat Share',
  '51': 'Garage',
  '52': 'Farm House',
  '53': 'Equestrian Facility',
  '56': 'Duplex',
  '59': 'Triplex',
  '68': 'Barn',
  '95': 'Village House',
  '107': 'Farm Land',
  '110': 'Plot',
  '113': 'Country House',
  '116': 'Stone House',
  '117': 'Caravan',
  '118': 'Lodge',
  '120': 'Manor House',
  '121': 'Stately Home',
  '125': 'Off-Plan',
  '128': 'Semi-detached Villa',
  '131': 'Detached Villa',
  '142': 'Hotel Room',
  '143': 'Block of Apartments',
  '144': 'Private Halls',
  '202': 'Hotel',
  '253': 'Commercial Property',
};

/** Property types with no rooms: their Bedrooms and Bathrooms are the unknown marker 0, not a rejection. */
export const BLM_NO_ROOMS: ReadonlySet<string> = new Set(['20', '45', '51', '107', '110']);
