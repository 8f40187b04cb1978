/**
 * Header synonyms of typical MLS and brokerage CSV exports, per role: RESO Data Dictionary names
 * (`ListPrice`, `BedroomsTotal`) and the display forms exports print (`List Price`, `Beds`, `# Bedrooms`),
 * and the downloads of US sites as other projects' importers read them: Redfin's upper-case ones
 * (`ZIP OR POSTAL CODE`, `STATE OR PROVINCE`, `HOA/MONTH`, `$/SQUARE FEET`, `URL (SEE …)`), Zillow's
 * (`Street address`, `Zip`, `Property price (USD)`, `detailUrl`, `zpid`) and Realtor.com's
 * (`property_url`, `zip_code`, `state_code`, `days_on_mls`).
 * Compared normalized (case, spaces, `-`, `_`, `.`, `/` ignored: `Sq. Ft.` = `SqFt`). Roles claim
 * headers in this order, each header once, so the more specific roles come first.
 */
export const CSV_HEADERS = [
  [
    'key',
    [
      'MLS #',
      'MLS#',
      'MLS Number',
      'MLS No',
      'MLS ID',
      'ListingId',
      'Listing ID',
      'List Number',
      'Listing Number',
      'MLS',
      'ListingKey',
      'Listing Key',
      'Reference',
      'Ref',
      // Zillow's own id, in exports of Zillow searches (`zpid`).
      'zpid',
    ],
  ],
  [
    'url',
    [
      'Listing URL',
      'ListingURL',
      'URL',
      'Link',
      'Details URL',
      'Permalink',
      'Web Link',
      'Property URL',
      'Website',
      'Listing Link',
      'Property Link',
      'Detail URL',
      'Listing Page',
      // Exports of Zillow searches (`detailUrl`) and Realtor.com ones (`property_url`).
      'Detail Url',
    ],
  ],
  [
    'tour',
    ['Virtual Tour URL', 'VirtualTourURLUnbranded', 'VirtualTourURLBranded', 'Virtual Tour', 'Tour URL'],
  ],
  ['status', ['Status', 'Listing Status', 'StandardStatus', 'Standard Status', 'MlsStatus', 'MLS Status']],
  [
    'saleType',
    [
      'Sale Type',
      'Listing Type',
      'Transaction Type',
      'Offer Type',
      'For Sale/Rent',
      'Sale Or Rent',
      'Sale/Rent',
    ],
  ],
  [
    'subType',
    [
      'PropertySubType',
      'Property Sub Type',
      'Property Subtype',
      'Sub Type',
      'SubType',
      'Home Type',
      'Dwelling Type',
      'Structure Type',
      'Style',
    ],
  ],
  [
    'class',
    ['PropertyType', 'Property Type', 'Prop Type', 'Property Class', 'Class', 'Listing Class', 'Type'],
  ],
  ['soldPrice', ['ClosePrice', 'Close Price', 'Sold Price', 'Sale Price', 'Sales Price', 'Closed Price']],
  [
    'rent',
    ['Rent', 'Monthly Rent', 'Rent Price', 'Lease Price', 'LeaseAmount', 'Lease Amount', 'Rental Price'],
  ],
  [
    'rentPeriod',
    ['LeaseAmountFrequency', 'Lease Frequency', 'Rent Frequency', 'Rent Period', 'Lease Period'],
  ],
  [
    'price',
    [
      'ListPrice',
      'List Price',
      'Price',
      'Asking Price',
      'Listing Price',
      'Current Price',
      'Original List Price',
      // Zillow's "properties for sale" export.
      'Property Price',
      'Property Price (USD)',
    ],
  ],
  ['currency', ['Currency', 'Currency Code', 'CurrencyCode']],
  ['beds', ['BedroomsTotal', 'Bedrooms Total', 'Beds', 'Bedrooms', '# Bedrooms', 'Beds Total', 'BR', 'Bed']],
  ['bathsFull', ['BathroomsFull', 'Baths Full', 'Full Baths', 'Bathrooms Full', 'Full Bathrooms']],
  ['bathsHalf', ['BathroomsHalf', 'Baths Half', 'Half Baths', 'Bathrooms Half', 'Half Bathrooms']],
  [
    'baths',
    [
      'BathroomsTotalDecimal',
      'BathroomsTotalInteger',
      'Bathrooms Total',
      'Baths Total',
      'Total Baths',
      'Baths',
      'Bathrooms',
      '# Bathrooms',
      'BA',
      'Bath',
    ],
  ],
  [
    'lotSqft',
    ['LotSizeSquareFeet', 'Lot Size Square Feet', 'Lot SqFt', 'Lot Sq Ft', 'Lot Size Sq Ft', 'Lot Size SqFt'],
  ],
  ['lotAcres', ['LotSizeAcres', 'Lot Size Acres', 'Lot Acres', 'Acres', 'Acreage']],
  ['lotUnit', ['LotSizeUnits', 'Lot Size Units', 'Lot Units']],
  ['lot', ['LotSizeArea', 'Lot Size Area', 'Lot Size', 'Lot Area', 'Lot']],
  ['areaUnit', ['LivingAreaUnits', 'Living Area Units', 'Area Unit', 'Size Unit']],
  [
    'sqft',
    [
      'LivingArea',
      'Living Area',
      'SqFt',
      'Sq Ft',
      'Square Feet',
      'Approx Sq Ft',
      'Living Sq Ft',
      'SqFt Total',
      'Total SqFt',
      'Building Area',
      'BuildingAreaTotal',
      'Floor Area',
      'Size',
      'Area',
    ],
  ],
  ['year', ['YearBuilt', 'Year Built', 'Yr Built', 'Built', 'Year']],
  [
    'dom',
    [
      'DaysOnMarket',
      'Days On Market',
      'DOM',
      'CumulativeDaysOnMarket',
      'Cumulative Days On Market',
      'CDOM',
      'Days On Zillow',
      'Days On MLS',
      'Days',
    ],
  ],
  [
    'listDate',
    [
      'OnMarketDate',
      'On Market Date',
      'ListingContractDate',
      'Listing Contract Date',
      'List Date',
      'Listing Date',
      'Date Listed',
      'Listed Date',
      'List Dt',
    ],
  ],
  [
    'parking',
    [
      'ParkingTotal',
      'Parking Total',
      'Parking Spaces',
      'Parking Spots',
      'Parking',
      'GarageSpaces',
      'Garage Spaces',
      'Garage',
      'Carport Spaces',
    ],
  ],
  [
    'hoaFrequency',
    [
      'AssociationFeeFrequency',
      'Association Fee Frequency',
      'HOA Frequency',
      'HOA Fee Frequency',
      'HOA Period',
    ],
  ],
  [
    'hoa',
    [
      'AssociationFee',
      'Association Fee',
      'HOA',
      'HOA Fee',
      'HOA Dues',
      'HOA Monthly',
      'HOA Fees',
      // Redfin: `HOA/MONTH` (monthly already).
      'HOA/Month',
      'HOA Per Month',
      'Monthly HOA',
      'HOA Dues Monthly',
    ],
  ],
  [
    'address',
    [
      'UnparsedAddress',
      'Unparsed Address',
      'Address',
      'Street Address',
      'Full Address',
      'Property Address',
      'Street',
      'Addr',
    ],
  ],
  ['city', ['City', 'Town', 'Municipality']],
  [
    'state',
    [
      'StateOrProvince',
      'State Or Province',
      'State/Province',
      'State',
      'State Code',
      'Province',
      'ST',
      'Region',
    ],
  ],
  [
    'zip',
    [
      'PostalCode',
      'Postal Code',
      'ZIP',
      'Zip Code',
      'ZIP or Postal Code',
      'Zip/Postal Code',
      'Zipcode',
      'ZIP5',
      'Postcode',
      'Postal',
    ],
  ],
  ['latitude', ['Latitude', 'Lat']],
  ['longitude', ['Longitude', 'Lng', 'Lon', 'Long']],
  ['description', ['PublicRemarks', 'Public Remarks', 'Remarks', 'Description', 'Desc', 'Comments']],
  [
    'photos',
    [
      'Photo URLs',
      'PhotoURLs',
      'Photos',
      'Images',
      'Image URLs',
      'Pictures',
      'Media URLs',
      'Photo',
      'Image',
      'Photo URL',
    ],
  ],
  ['location', ['SubdivisionName', 'Subdivision', 'Neighborhood', 'Location', 'MLSAreaMajor', 'Area Name']],
  ['estimate', ['Estimate', 'Estimated Value']],
  ['deposit', ['SecurityDeposit', 'Security Deposit', 'Deposit']],
  [
    'pricePerArea',
    [
      'Price Per Sq Ft',
      '$/SqFt',
      '$/Sq Ft',
      '$/Square Feet',
      '$/Square Foot',
      'Price/SqFt',
      'Price Per SqFt',
      'Price Per Square Foot',
      'Price Per Square Feet',
      'List Price/SqFt',
    ],
  ],
  // The date a past sale closed (Redfin's `SOLD DATE` of a `PAST SALE`), as a fact.
  ['soldDate', ['Sold Date', 'Close Date', 'CloseDate', 'Closing Date', 'Date Sold']],
  // Redfin: `NEXT OPEN HOUSE START TIME` / `END TIME` (`November-07-2026 01:00 PM`).
  [
    'openHouseStart',
    ['Next Open House Start Time', 'Open House Start', 'Open House Start Time', 'Open House Date'],
  ],
  ['openHouseEnd', ['Next Open House End Time', 'Open House End', 'Open House End Time']],
] as const;

/**
 * Columns about the person who downloaded the file, or about the download itself, not about the
 * listing: Redfin's `FAVORITE` and `INTERESTED` (the user's own flags) and `SOURCE`. Never copied
 * into ExtensionColumn by the inference.
 */
export const NOISE_HEADERS = ['Favorite', 'Favorited', 'Interested', 'Source', 'Saved', 'Hidden'];

export type HeaderRole = (typeof CSV_HEADERS)[number][0];
