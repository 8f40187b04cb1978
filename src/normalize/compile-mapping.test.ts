import { describe, expect, it } from 'vitest';
import { compileMapping } from './compile-mapping.ts';
import { inferCsvMapping } from './infer-csv-mapping.ts';
import type { MappingConfig } from './mapping-schema.ts';
import { mergeMappings, resolveMapping } from './resolve-mapping.ts';
import { validateListing } from './validate-listing.ts';

const base: MappingConfig = {
  fields: {
    MLSNumber: 'id',
    Url: { template: 'https://acme.example/l/{id}' },
    Status: 'status',
    SaleType: { const: 'for_sale' },
    PropertyType: { const: 'House' },
    CurrencySymbol: { const: 'USD' },
    Bedrooms: 'beds',
    Bathrooms: { from: 'baths', full: 'full', half: 'half', threeQuarter: 'tq' },
    YearBuilt: 'year',
    DaysOnMarket: { const: 1 },
    ParkingSpots: { const: 0 },
    BuildingArea: { from: 'area', unitFrom: 'unit' },
    LotArea: { from: 'lot', unit: 'acres' },
  },
};
const good = {
  id: 'X1',
  status: 'Active',
  beds: '3',
  baths: '2',
  year: '1999',
  area: '100',
  unit: 'm2',
  lot: '1',
};
const map = (record: Record<string, unknown>, mapping: MappingConfig = base) =>
  compileMapping(mapping).map(record);

describe('compileMapping', () => {
  it('maps a complete record to a valid listing, converting areas to the feed unit', () => {
    const result = validateListing(map(good));
    expect(result.ok).toBe(true);
    expect(result.ok && result.listing).toMatchObject({
      MLSNumber: 'X1',
      Url: 'https://acme.example/l/X1',
      CurrencySymbol: '$',
      BuildingArea: 1076.39,
      LotArea: 43_560,
      AreaUnit: 'Square Feet',
    });
  });
  it.each([
    ['Active', 'Active'],
    ['Active Under Contract', 'Active'],
    ['ACTIVE-UNDER-CONTRACT', 'Active'],
    ['ComingSoon', 'PreOnMarket'],
    ['Coming Soon', 'PreOnMarket'],
    ['Closed', 'Sold'],
    ['sold', 'Sold'],
  ])('Status %s → %s', (status, expected) => expect(map({ ...good, status }).listing.Status).toBe(expected));
  it.each(['Withdrawn', 'Canceled', 'Cancelled', 'Expired', 'Delete', 'off market'])(
    'Status %s removes',
    (status) => {
      expect(map({ ...good, status }).remove).toBe(true);
    },
  );
  it('rejects an unknown status, and feed maps override the defaults', () => {
    expect(map({ ...good, status: 'Bogus' }).problems[0]).toMatchObject({
      field: 'Status',
      reason: 'unknown_status',
      // Which setting reads it (a new user's "Aktiv" said only "not a known status").
      message:
        'Status "Bogus" is not a known status: map it in the feed\'s mapping, `maps: { Status: { "Bogus": Active } }` (or PreOnMarket, Sold, remove)',
    });
    const custom = { ...base, maps: { Status: { Bogus: 'Sold', Active: 'remove' } } };
    expect(map({ ...good, status: 'bogus' }, custom).listing.Status).toBe('Sold');
    expect(map(good, custom).remove).toBe(true);
  });
  it.each([
    [{ baths: '2.5' }, 2.5],
    [{ baths: '', full: '2', half: '1' }, 2.5],
    [{ baths: undefined, full: '1', half: '2', tq: '1' }, 2.75],
  ])('bathrooms %j → %d', (parts, expected) =>
    expect(map({ ...good, ...parts }).listing.Bathrooms).toBe(expected),
  );
  it('reports a number that is not one, naming field and value', () => {
    expect(validateListing(map({ ...good, beds: 'three' }))).toMatchObject({
      ok: false,
      problems: [
        {
          field: 'Bedrooms',
          value: 'three',
          reason: 'not_a_number',
          message: 'Bedrooms "three" is not a number',
        },
      ],
    });
  });
  it.each([
    [{ year: '20015' }, 'YearBuilt', 'out_of_range'],
    [{ id: undefined }, 'MLSNumber', 'missing'],
    [{ beds: '-1' }, 'Bedrooms', 'out_of_range'],
    [{ unit: 'furlongs' }, 'BuildingArea', 'unknown_unit'],
    [{ year: '1999.5' }, 'YearBuilt', 'not_an_integer'],
  ])('rejects %j as %s %s', (change, field, reason) => {
    const result = validateListing(map({ ...good, ...change }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.find((p) => p.field === field)).toMatchObject({ field, reason });
  });
  it('uses per-feed defaults only when the feed gives nothing', () => {
    const mapping: MappingConfig = {
      ...base,
      fields: { ...base.fields, City: 'city' },
      defaults: { City: 'Springfield' },
    };
    expect(map({ ...good, city: 'N/A' }, mapping).listing.City).toBe('Springfield');
    expect(map({ ...good, city: 'Riverton' }, mapping).listing.City).toBe('Riverton');
  });
  describe('daysSince', () => {
    const now = new Date('2024-05-10T08:00:00Z');
    const mapping: MappingConfig = {
      ...base,
      fields: { ...base.fields, DaysOnMarket: [{ from: 'dom' }, { daysSince: 'listed' }] },
      defaults: { DaysOnMarket: 0 },
    };
    const days = (record: Record<string, unknown>) =>
      compileMapping(mapping, { now }).map({ ...good, ...record });
    it.each([
      ['2024-05-01', 9],
      ['2024-05-09T23:30:00Z', 1],
      ['2024-05-10T07:00:00+00:00', 0],
      ['2024-05-03-14:30', 7],
      ['2024-06-01', 0],
    ])('%s → %d days before the run', (listed, expected) => {
      expect(days({ listed }).listing.DaysOnMarket).toBe(expected);
    });
    it('prefers the feed’s own count, falls back to the default, rejects what is not a date', () => {
      expect(days({ dom: '3', listed: '2024-05-01' }).listing.DaysOnMarket).toBe(3);
      expect(days({ listed: 'N/A' }).listing.DaysOnMarket).toBe(0);
      expect(days({ listed: '05/01/2024' }).problems).toEqual([
        expect.objectContaining({ field: 'DaysOnMarket', reason: 'not_a_date', value: '05/01/2024' }),
      ]);
    });
    it('needs the clock passed in: normalize never reads it', () => {
      expect(() => compileMapping(mapping)).toThrow(/daysSince rule needs the run's clock/);
    });
  });
  it('applies conditions, alternatives, periods and enum maps with a catch-all', () => {
    const mapping: MappingConfig = {
      fields: {
        SaleType: { from: 'freq', map: { sale: 'for_sale', '*': 'for_rent' } },
        SalePrice: { from: 'price', when: { path: 'freq', in: ['sale'] } },
        RentPrice: { from: 'price', periodFrom: 'freq', when: { path: 'freq', notIn: ['sale'] } },
        LotArea: [
          { from: 'lotSqft', unit: 'sqft' },
          { from: 'lotAcres', unit: 'acres' },
        ],
      },
    };
    expect(map({ freq: 'sale', price: '100', lotAcres: '2' }, mapping).listing).toMatchObject({
      SaleType: 'for_sale',
      SalePrice: 100,
      LotArea: 87_120,
    });
    const rent = map({ freq: 'week', price: '300', lotSqft: '500', lotAcres: '2' }, mapping).listing;
    expect(rent).toMatchObject({ SaleType: 'for_rent', RentPrice: 1300, LotArea: 500 });
    expect(rent.SalePrice).toBeUndefined();
  });
  it('collects images from delimited strings and ordered media, capped', () => {
    const split = map(
      { photos: 'https://i.example/a.jpg| https://i.example/b.jpg |https://i.example/a.jpg' },
      { fields: { Images: { from: 'photos', split: '|' } } },
    );
    expect(split.listing.Images).toEqual(['https://i.example/a.jpg', 'https://i.example/b.jpg']);
    const media = [
      { MediaURL: 'c.jpg', Order: 3 },
      { MediaURL: 'a.jpg', Order: 1 },
      { MediaURL: 'b.jpg', Order: 2 },
    ];
    const ordered = map(
      { Media: media },
      {
        maxImages: 2,
        baseUrl: 'https://media.example/l/1/',
        fields: { Images: { from: 'Media', url: 'MediaURL', order: 'Order' } },
      },
    );
    expect(ordered.listing.Images).toEqual([
      'https://media.example/l/1/a.jpg',
      'https://media.example/l/1/b.jpg',
    ]);
  });
  it('keeps only absolute http(s) images, de-duplicated in feed order, and reports the dropped ones', () => {
    const images = [
      '//cdn.example/1.jpg',
      'https://cdn.example/1.jpg',
      '/photos/2.jpg',
      'ftp://old.example/3.jpg',
      'data:image/png;base64,AAAA',
      'http://cdn.example/4.jpg',
    ];
    const mapping: MappingConfig = { fields: { Images: 'img' } };
    const bare = map({ img: images }, mapping);
    expect(bare.listing.Images).toEqual(['https://cdn.example/1.jpg', 'http://cdn.example/4.jpg']);
    expect(bare.droppedImages).toEqual([
      '/photos/2.jpg',
      'ftp://old.example/3.jpg',
      'data:image/png;base64,AAAA',
    ]);
    const based = map({ img: images }, { ...mapping, baseUrl: 'https://agency.example/listing/9' });
    expect(based.listing.Images).toEqual([
      'https://cdn.example/1.jpg',
      'https://agency.example/photos/2.jpg',
      'http://cdn.example/4.jpg',
    ]);
  });
  it('resolves a relative listing URL against baseUrl; a protocol-less one takes https', () => {
    const mapping: MappingConfig = { baseUrl: 'https://agency.example/', fields: { Url: 'link' } };
    expect(map({ link: '/listing/7' }, mapping).listing.Url).toBe('https://agency.example/listing/7');
    expect(map({ link: '//agency.example/l/7' }, mapping).listing.Url).toBe('https://agency.example/l/7');
  });
  it('sums several paths, maps values on any field, turns HTML into text', () => {
    const mapping: MappingConfig = {
      fields: {
        ParkingSpots: { sum: ['garages', 'carports', 'open'] },
        SaleType: { from: '$tag', map: { rental: 'for_rent', '*': 'for_sale' } },
        City: { from: 'town', map: { 'St Kilda Beach': 'St Kilda', Unknown: '' } },
        Description: { from: 'desc', html: true },
      },
    };
    const out = map(
      {
        $tag: 'rental',
        garages: '2',
        carports: '1',
        open: '',
        town: 'st-kilda beach',
        desc: '<p>Four beds &amp; two baths.<br/>Walk to <b>schools</b>.</p>\n\n\n<p>Caf&eacute;s&nbsp;&#241; nearby</p>',
      },
      mapping,
    );
    expect(out.listing).toMatchObject({ ParkingSpots: 3, SaleType: 'for_rent', City: 'St Kilda' });
    expect(out.listing.Description).toBe('Four beds & two baths.\nWalk to schools.\n\nCafés ñ nearby');
    expect(map({ $tag: 'residential', town: 'Unknown' }, mapping).listing).toMatchObject({
      SaleType: 'for_sale',
      City: undefined,
      ParkingSpots: 0, // no path set: the unknown marker
    });
    expect(map({ garages: 'two', carports: '1' }, mapping).problems[0]).toMatchObject({
      field: 'ParkingSpots',
      value: 'two',
      reason: 'not_a_number',
    });
  });
  it('converts rent and HOA periods to monthly and keeps the published period', () => {
    const mapping: MappingConfig = {
      fields: {
        RentPrice: { from: 'rent', periodFrom: 'per' },
        HOAMonth: { from: 'hoa', periodFrom: 'hoaPer' },
      },
    };
    const cases: [string, number][] = [
      ['week', 2383.33],
      ['Weekly', 2383.33],
      ['fortnightly', 1191.67],
      ['quarterly', 183.33],
      ['annual', 45.83],
      ['month', 550],
    ];
    for (const [per, expected] of cases)
      expect(map({ rent: '550', per }, mapping).listing.RentPrice).toBe(expected);
    const annual = map({ rent: '550', per: 'week', hoa: '1,200', hoaPer: 'Annually' }, mapping).listing;
    expect(annual).toMatchObject({ HOAMonth: 100 });
    expect(annual.ExtensionColumn).toEqual([
      { Key: 'RentPrice period', value: 'week' },
      { Key: 'HOAMonth period', value: 'Annually' },
    ]);
  });
  it('adds ExtensionColumn entries from named and unmapped fields, excluding local ones', () => {
    const mapping: MappingConfig = {
      fields: { MLSNumber: 'id' },
      extensions: { fields: { Agent: 'agent.name' }, unmapped: true, exclude: ['NST_*'] },
    };
    const out = map(
      { id: '1', agent: { name: 'Pat' }, Features: 'Pool', NST_Local: 'x', Empty: '' },
      mapping,
    );
    expect(out.listing.ExtensionColumn).toEqual([
      { Key: 'Agent', value: 'Pat' },
      { Key: 'Features', value: 'Pool' },
    ]);
  });
  it("merges a feed's facts over a preset's key by key: added, replaced, or dropped with null", () => {
    const mapping: MappingConfig = {
      preset: 'kyero',
      extensions: {
        fields: { Agent: 'agent_name', Pool: null, Notes: { from: 'notes', prefix: 'Note: ' } },
        exclude: ['x_*'],
      },
    };
    const compiled = compileMapping(mapping);
    expect(compiled.mapping.extensions?.exclude).toEqual(['$*', 'x_*']);
    const { listing } = compiled.map({
      ref: 'K1',
      pool: '1',
      new_build: '1',
      agent_name: 'Ana',
      notes: 'Quiet street',
      features: { feature: 'Lift' },
    });
    expect(listing.ExtensionColumn).toEqual([
      { Key: 'Features', value: 'Lift' },
      { Key: 'New build', value: 'yes' },
      { Key: 'Notes', value: 'Note: Quiet street' },
      { Key: 'Agent', value: 'Ana' },
    ]);
  });

  it('drops 0,0 coordinates', () => {
    const out = map({ lat: '0', lng: '0' }, { fields: { Latitude: 'lat', Longitude: 'lng' } });
    expect(out.listing.Latitude).toBeUndefined();
  });
  it.each([
    ['85 m2', 914.93],
    ['85 sq m', 914.93],
    ['85 m^2', 914.93],
    ['85 sqft', 85],
    ['85 ft2', 85],
    ['85 sq. ft.', 85],
  ])('reads an area whose unit is written %j (a tester: `SqFt "85 m2"` was not a number)', (area, sqft) => {
    const out = map({ area }, { fields: { BuildingArea: { from: 'area', unit: 'sqft' } } });
    expect(out.problems).toEqual([]);
    expect(out.listing.BuildingArea).toBe(sqft);
  });
  it('decimal comma when configured', () => {
    expect(
      map({ a: '84,5' }, { decimalComma: true, areaUnit: 'Square Meters', fields: { BuildingArea: 'a' } })
        .listing.BuildingArea,
    ).toBe(84.5);
  });
});

describe('inferCsvMapping', () => {
  it('maps header synonyms to listing fields', () => {
    const mapping = inferCsvMapping([
      'MLS #',
      'Beds',
      'List Price',
      '# Bathrooms',
      'Sq. Ft.',
      'Photos',
      'Agent',
      'Lot Acres',
    ]);
    expect(mapping.fields).toMatchObject({
      MLSNumber: 'MLS #',
      Bedrooms: 'Beds',
      SalePrice: [{ from: 'List Price' }],
      Bathrooms: '# Bathrooms',
      BuildingArea: { from: 'Sq. Ft.', unit: 'sqft' },
      Images: { from: 'Photos', split: ['|', ';', '\n', ' '] },
      LotArea: [{ from: 'Lot Acres', unit: 'acres' }],
      CurrencySymbol: [{ from: 'List Price' }],
    });
    // The dollar is a default, so a feed's own defaults win over it.
    expect(mapping.defaults).toEqual({ CurrencySymbol: '$' });
    expect(mapping.extensions).toEqual({ unmapped: true });
  });
  it.each([
    ['Contact Agent', 'on request'],
    ['Auction', 'by auction'],
    ['For Sale by Tender', 'by tender'],
    ['Expressions of Interest', 'by expressions of interest'],
    ['Preis auf Anfrage', 'on request'],
    ['TBA', 'on request'],
  ])('a price %j publishes none: unset, the fact Price: %s, the listing synced', (text, says) => {
    const out = compileMapping(inferCsvMapping(['MLS #', 'List Price'])).map({
      'MLS #': 'A',
      'List Price': text,
    });
    expect(out.problems).toEqual([]);
    expect(out.listing.SalePrice).toBeUndefined();
    expect(out.listing.ExtensionColumn).toEqual([{ Key: 'Price', value: says }]);
  });
  it('says a price is on request only where none is published (a reviewer: a POA rent beside a list price)', () => {
    const both = compileMapping({ fields: { MLSNumber: 'id', SalePrice: 'price', RentPrice: 'rent' } });
    const sale = both.map({ id: 'A', price: '$450,000', rent: 'POA' });
    expect(sale.listing.SalePrice).toBe(450_000);
    expect(sale.listing.ExtensionColumn).toBeUndefined();
    // A price of 0 stays 0, as it was: no listing changes for it on upgrading.
    expect(both.map({ id: 'A', price: '$450,000', rent: '0' }).listing).toMatchObject({
      SalePrice: 450_000,
      RentPrice: 0,
    });
    expect(both.map({ id: 'A', price: 'POA', rent: '' }).listing.ExtensionColumn).toEqual([
      { Key: 'Price', value: 'on request' },
    ]);
  });
  it.each([
    ['$900,000+', 900_000, 'or more', undefined],
    ['Offers above $900k', 900_000, 'Offers above', undefined],
    ['Price guide $1,200,000', 1_200_000, 'Price guide', undefined],
    ['Buyers guide $750,000', 750_000, 'Buyers guide', undefined],
    ['Shared ownership £120,000', 120_000, 'Shared ownership', undefined],
    ['VB 350.000 €', 350_000, 'VB', true],
    ['350.000 € VHB', 350_000, 'VHB', true],
    ['ab 299.000 €', 299_000, 'ab', true],
    ['299.000 € Festpreis', 299_000, 'Festpreis', true],
  ] as const)('a price %j is %d with the qualifier %j', (text, value, qualifier, decimalComma) => {
    const mapping = compileMapping({
      fields: { MLSNumber: 'id', SalePrice: 'price' },
      ...(decimalComma ? { decimalComma } : {}),
    });
    const out = mapping.map({ id: 'A', price: text });
    expect(out.problems).toEqual([]);
    expect(out.listing.SalePrice).toBe(value);
    expect(out.listing.ExtensionColumn).toEqual([{ Key: 'Price qualifier', value: qualifier }]);
  });
  it('a rent written $1,500/mo. or $2,100 mo is monthly; 850 € kalt keeps its word; About $450,000 is refused', () => {
    const rent = compileMapping({ fields: { MLSNumber: 'id', RentPrice: 'rent' } });
    expect(rent.map({ id: 'A', rent: '$1,500/mo.' }).listing.RentPrice).toBe(1500);
    expect(rent.map({ id: 'A', rent: '$2,100 mo' }).listing.RentPrice).toBe(2100);
    const cold = rent.map({ id: 'A', rent: '850 € kalt' });
    expect(cold.listing.RentPrice).toBe(850);
    expect(cold.listing.ExtensionColumn).toEqual([{ Key: 'Price qualifier', value: 'kalt' }]);
    const sale = compileMapping({ fields: { MLSNumber: 'id', SalePrice: 'price' } });
    for (const text of ['About $450,000', 'Abc 450', 'Frommage $5', '$450,000 - $500,000'])
      expect(
        sale.map({ id: 'A', price: text }).problems.map((p) => p.reason),
        text,
      ).toEqual(['not_a_number']);
  });
  it('reads the currency through a price qualifier, and takes the feed’s default currency over the dollar', () => {
    const header = ['MLS #', 'List Price'];
    const inferred = compileMapping(inferCsvMapping(header));
    const uk = compileMapping(
      mergeMappings(inferCsvMapping(header), { defaults: { CurrencySymbol: 'GBP' } }),
    );
    const at = (m: typeof inferred, price: string) => m.map({ 'MLS #': 'UK-1', 'List Price': price }).listing;
    expect(at(inferred, 'Guide Price £450,000')).toMatchObject({ SalePrice: 450_000, CurrencySymbol: '£' });
    expect(at(inferred, 'From €450,000')).toMatchObject({ SalePrice: 450_000, CurrencySymbol: '€' });
    expect(at(inferred, 'POA').CurrencySymbol).toBe('$');
    expect(at(uk, 'POA').CurrencySymbol).toBe('£');
    expect(at(uk, '450000').CurrencySymbol).toBe('£');
    // A feed in dollars: a qualified price in pounds is a mismatch, never published as dollars.
    const usd = compileMapping({
      fields: { MLSNumber: 'MLS #', SalePrice: 'List Price', CurrencySymbol: { const: 'USD' } },
    });
    expect(
      usd.map({ 'MLS #': 'X', 'List Price': 'Guide Price £450,000' }).problems.map((p) => p.reason),
    ).toContain('currency_mismatch');
  });
  it('reads a Living Area in the feed’s areaUnit, square feet only where the header says so', () => {
    expect(inferCsvMapping(['MLS #', 'Living Area']).fields?.BuildingArea).toEqual({ from: 'Living Area' });
    expect(inferCsvMapping(['MLS #', 'SqFt']).fields?.BuildingArea).toEqual({ from: 'SqFt', unit: 'sqft' });
    // A European export in m²: 184,5 is 184.5 m², not 184.5 sq ft converted (17.14 m²).
    const inferred = inferCsvMapping(['MLS #', 'Living Area', 'Lot Size']);
    const metric = compileMapping({ ...inferred, areaUnit: 'Square Meters', decimalComma: true });
    expect(
      metric.map({ 'MLS #': 'ES-1', 'Living Area': '184,5', 'Lot Size': '1.649' }).listing,
    ).toMatchObject({
      BuildingArea: 184.5,
      LotArea: 1649,
    });
  });
  it.each(['MLS#', 'List Number', 'mls number', 'ListingId'])('%s → MLSNumber', (header) => {
    expect(inferCsvMapping([header]).fields?.MLSNumber).toBe(header);
  });
  const exportHeaders = [
    'MLS #',
    'Status',
    'Class',
    'Property Sub Type',
    'List Price',
    'HOA',
    'HOA Frequency',
    'Beds',
  ];
  const exportMapping = { ...inferCsvMapping(exportHeaders), missing: { Bathrooms: 'unknown' as const } };
  const row = (values: Record<string, string>) =>
    compileMapping(exportMapping).map({ 'MLS #': 'X', Status: 'Active', Beds: '2', ...values }).listing;
  it.each([
    [
      { Class: 'Residential', 'List Price': '$425,000' },
      { SaleType: 'for_sale', SalePrice: 425_000 },
    ],
    [
      { Class: 'Residential Lease', 'List Price': '2,100' },
      { SaleType: 'for_rent', RentPrice: 2100 },
    ],
    [
      { Class: 'ResidentialLease', 'List Price': '2100' },
      { SaleType: 'for_rent', RentPrice: 2100 },
    ],
    [
      { Class: 'Residential', Status: 'For Rent', 'List Price': '1800' },
      { SaleType: 'for_rent', RentPrice: 1800 },
    ],
    [
      { Class: 'Residential', 'List Price': 'USD 300,000' },
      { CurrencySymbol: '$', SalePrice: 300_000 },
    ],
  ])('one price column, split by class or status: %j', (values, expected) => {
    const listing = row(values);
    expect(listing).toMatchObject(expected);
    expect(listing.SalePrice === undefined || listing.RentPrice === undefined).toBe(true);
  });
  it('prefers the sub-type over the class for PropertyType, and makes HOA monthly by its frequency', () => {
    expect(row({ Class: 'Residential', 'Property Sub Type': 'Condominium' }).PropertyType).toBe(
      'Condominium',
    );
    expect(row({ Class: 'Residential' }).PropertyType).toBe('Residential');
    expect(row({ HOA: '1,200', 'HOA Frequency': 'Annually' }).HOAMonth).toBe(100);
    expect(row({ HOA: '300', 'HOA Frequency': 'Quarterly' }).HOAMonth).toBe(100);
    expect(row({ HOA: '150', 'HOA Frequency': 'Monthly' }).HOAMonth).toBe(150);
  });
  it('counts days on market from a list date when the export has no count, US dates read as such', () => {
    const mapping = inferCsvMapping(['MLS #', 'List Date', 'Beds']);
    expect(mapping.fields?.DaysOnMarket).toEqual([{ daysSince: 'List Date', dateOrder: 'mdy' }]);
    const now = new Date('2024-05-10T12:00:00Z');
    const days = (listDate: string) =>
      compileMapping(mapping, { now }).map({ 'MLS #': 'X', 'List Date': listDate });
    expect(days('05/01/2024').listing.DaysOnMarket).toBe(9);
    expect(days('2024-05-01').listing.DaysOnMarket).toBe(9);
    expect(days('May 1, 2024').listing.DaysOnMarket).toBe(9);
    expect(days('02/30/2024').problems[0]).toMatchObject({ field: 'DaysOnMarket', reason: 'not_a_date' });
    expect(inferCsvMapping(['MLS #', 'DOM', 'List Date']).fields?.DaysOnMarket).toEqual([
      { from: 'DOM' },
      { daysSince: 'List Date', dateOrder: 'mdy' },
    ]);
  });
  it('reads RESO Data Dictionary names as headers too', () => {
    const fields = inferCsvMapping([
      'ListingId',
      'StandardStatus',
      'PropertyType',
      'PropertySubType',
      'ListPrice',
      'BedroomsTotal',
      'BathroomsTotalInteger',
      'LivingArea',
      'LotSizeAcres',
      'AssociationFee',
      'AssociationFeeFrequency',
      'PublicRemarks',
      'ListingURL',
    ]).fields;
    expect(fields).toMatchObject({
      MLSNumber: 'ListingId',
      Status: 'StandardStatus',
      PropertyType: [{ from: 'PropertySubType' }, { from: 'PropertyType' }],
      Bedrooms: 'BedroomsTotal',
      Bathrooms: 'BathroomsTotalInteger',
      BuildingArea: { from: 'LivingArea' },
      LotArea: [{ from: 'LotSizeAcres', unit: 'acres' }],
      HOAMonth: { from: 'AssociationFee', periodFrom: 'AssociationFeeFrequency' },
      Description: { from: 'PublicRemarks' },
      Url: 'ListingURL',
    });
  });
  it('splits photo lists on pipes, spaces, semicolons and commas before a URL', () => {
    const images = compileMapping({ fields: { Images: { from: 'p', split: ['|', ';', '\n', ' '] } } }).map({
      p: 'https://a.example/1.jpg, https://a.example/2.jpg,https://a.example/3.jpg|https://a.example/w_1,h_2/4.jpg',
    }).listing.Images;
    expect(images).toEqual([
      'https://a.example/1.jpg',
      'https://a.example/2.jpg',
      'https://a.example/3.jpg',
      'https://a.example/w_1,h_2/4.jpg',
    ]);
  });
});

describe('inferCsvMapping: the downloads US sites and MLS systems offer', () => {
  const REDFIN_NOW = [
    'SALE TYPE',
    'SOLD DATE',
    'PROPERTY TYPE',
    'ADDRESS',
    'CITY',
    'STATE OR PROVINCE',
    'ZIP OR POSTAL CODE',
    'PRICE',
    'BEDS',
    'BATHS',
    'LOCATION',
    'SQUARE FEET',
    'LOT SIZE',
    'YEAR BUILT',
    'DAYS ON MARKET',
    '$/SQUARE FEET',
    'HOA/MONTH',
    'STATUS',
    'NEXT OPEN HOUSE START TIME',
    'NEXT OPEN HOUSE END TIME',
    'URL (SEE https://www.redfin.com/buy-a-home/comparative-market-analysis FOR INFO ON PRICING)',
    'SOURCE',
    'MLS#',
    'FAVORITE',
    'INTERESTED',
    'LATITUDE',
    'LONGITUDE',
  ];
  // Older Redfin downloads: `STATE`, `ZIP`, and the remark's link over http.
  const REDFIN_OLD = REDFIN_NOW.map((header) =>
    header === 'STATE OR PROVINCE'
      ? 'STATE'
      : header === 'ZIP OR POSTAL CODE'
        ? 'ZIP'
        : header.startsWith('URL (SEE')
          ? 'URL (SEE http://www.redfin.com/buy-a-home/comparative-market-analysis FOR INFO ON PRICING)'
          : header,
  );

  it.each([
    ['today', REDFIN_NOW],
    ['older', REDFIN_OLD],
  ])(
    'a Redfin download (%s headers): URL, state, ZIP, HOA, $/sq ft, open house; the user’s columns left out',
    (_, headers) => {
      const mapping = inferCsvMapping(headers);
      expect(mapping.fields).toMatchObject({
        MLSNumber: 'MLS#',
        Url: headers[20],
        State: headers[5],
        ZIP: headers[6],
        HOAMonth: { from: 'HOA/MONTH' },
        UnitAreaPrice: '$/SQUARE FEET',
        Status: 'STATUS',
        Location: 'LOCATION',
      });
      expect(mapping.extensions).toMatchObject({
        unmapped: true,
        exclude: ['SOURCE', 'FAVORITE', 'INTERESTED'],
        fields: {
          'Sold on': { from: 'SOLD DATE', as: 'date' },
          'Open house': {
            from: ['NEXT OPEN HOUSE START TIME', 'NEXT OPEN HOUSE START TIME', 'NEXT OPEN HOUSE END TIME'],
            as: 'openHouse',
          },
        },
      });
      const listing = compileMapping(mapping).map({
        'SALE TYPE': 'PAST SALE',
        STATUS: 'Sold',
        'MLS#': 'R1',
        PRICE: '400000',
        [headers[20]!]: 'https://www.redfin.example/home/1',
        FAVORITE: 'Y',
      }).listing;
      expect(listing).toMatchObject({ SaleType: 'for_sale', Status: 'Sold', SalePrice: 400_000 });
      expect(listing.ExtensionColumn).toBeUndefined();
    },
  );

  it.each([
    ['MLS Listing', 'for_sale'],
    ['New Construction Home', 'for_sale'],
    ['For-Sale-by-Owner Listing', 'for_sale'],
    ['PAST SALE', 'for_sale'],
    ['For Rent', 'for_rent'],
    ['Something new', 'for_sale'], // says nothing: the next rule (here, none: a sale) decides
  ])('a sale-type value %j is %s, never a rejection', (value, saleType) => {
    const mapping = inferCsvMapping(['MLS #', 'Sale Type', 'Listing URL']);
    expect(compileMapping(mapping).map({ 'MLS #': 'X', 'Sale Type': value }).listing.SaleType).toBe(saleType);
  });

  it.each([
    ['Zip Code', 'zip'],
    ['Zip/Postal Code', 'zip'],
    ['Zipcode', 'zip'],
    ['State/Province', 'state'],
    ['ST', 'state'],
    ['Listing Link', 'url'],
    ['Property URL', 'url'],
    ['Detail URL', 'url'],
    ['HOA Per Month', 'hoa'],
    ['Price Per SqFt', 'pricePerArea'],
    // Zillow's and Realtor.com's downloads.
    ['detailUrl', 'url'],
    ['property_url', 'url'],
    ['zip_code', 'zip'],
    ['state_code', 'state'],
    ['Property price (USD)', 'price'],
  ])('%s is read (%s)', (header, role) => {
    const fields = inferCsvMapping(['MLS #', header]).fields ?? {};
    const field = {
      zip: 'ZIP',
      state: 'State',
      url: 'Url',
      hoa: 'HOAMonth',
      pricePerArea: 'UnitAreaPrice',
      price: 'SalePrice',
    }[role] as keyof typeof fields;
    expect(JSON.stringify(fields[field])).toContain(header);
  });

  it('a remark in brackets is read away only when it points elsewhere: `Lot Size (acres)` keeps its unit', () => {
    expect(inferCsvMapping(['MLS #', 'Lot Size (acres)']).fields?.LotArea).toEqual([
      { from: 'Lot Size (acres)', unit: 'acres' },
    ]);
    expect(inferCsvMapping(['MLS #', 'Link (see our site)']).fields?.Url).toBe('Link (see our site)');
  });
});

describe('a price in another currency than the listing’s', () => {
  const mapped = (price: string, CurrencySymbol: unknown, rent?: string) =>
    compileMapping({
      fields: {
        SalePrice: 'price',
        RentPrice: 'rent',
        CurrencySymbol: CurrencySymbol as never,
      },
    }).map({ price, ...(rent === undefined ? {} : { rent }) });
  const reasons = (out: ReturnType<typeof mapped>) => out.problems.map((p) => `${p.reason}: ${p.message}`);

  it('is rejected naming both, where it would reach the chatbot as the other currency', () => {
    expect(reasons(mapped('£1,379,000', { const: '$' }))).toEqual([
      'currency_mismatch: SalePrice "£1,379,000" is in £, but the listing\'s CurrencySymbol is $: map CurrencySymbol from the price column (as the presets do: a price text gives its own currency) or fix the feed',
    ]);
    expect(reasons(mapped('649.000,00 €', { const: 'USD' }))[0]).toMatch(
      /^currency_mismatch: SalePrice "649.000,00 €" is in €/,
    );
    expect(reasons(mapped('250000 GBP', { const: '$' }))[0]).toMatch(/is in £/);
    expect(reasons(mapped('$1', { const: '$' }, '£900 pcm')).map((r) => r.split(':')[0])).toEqual([
      'currency_mismatch',
    ]);
  });

  it('the everyday feed passes: the same sign, a bare number, two dollars, a currency without a sign, the price’s own', () => {
    expect(mapped('$1,250,000', { const: 'USD' }).problems).toEqual([]);
    expect(mapped('1250000', { const: '£' }).problems).toEqual([]);
    expect(mapped('US$ 5,000', { const: '$' }).problems).toEqual([]);
    expect(mapped('A$450,000', { const: 'USD' }).problems).toEqual([]);
    expect(mapped('CHF 1,000,000', { const: '$' }).problems).toEqual([]);
    expect(mapped('£1,379,000', 'price').problems).toEqual([]);
    expect(mapped('£1,379,000', 'price').listing).toMatchObject({
      SalePrice: 1_379_000,
      CurrencySymbol: '£',
    });
  });
});

describe('a price’s currency, read as the feeds write it (a review)', () => {
  const mapped = (price: string, CurrencySymbol: unknown) =>
    compileMapping({ fields: { SalePrice: 'price', CurrencySymbol: CurrencySymbol as never } }).map({
      price,
    });

  it('the full-width yen and dollar are the yen and the dollar', () => {
    expect(mapped('￥1,000', { const: 'JPY' }).problems).toEqual([]);
    expect(mapped('＄1,000', { const: 'USD' }).problems).toEqual([]);
  });

  it('CurrencySymbol mapped from the price takes its sign where the text has words too', () => {
    const out = mapped('£450,000 Guide Price', ['price', { const: 'USD' }]);
    expect(out.listing.CurrencySymbol).toBe('£');
    expect(out.problems.map((p) => p.reason)).not.toContain('currency_mismatch');
  });

  it('a price that is not a number is that problem alone', () => {
    expect(mapped('£ offers', { const: '$' }).problems.map((p) => p.reason)).toEqual(['not_a_number']);
  });
});

describe('a number the feed does not say how to read (a new user’s European feed)', () => {
  const map = (mapping: Record<string, unknown>, record: Record<string, string>) =>
    compileMapping({ fields: { SalePrice: 'price', BuildingArea: 'sqft' }, ...mapping } as never).map(record);

  it('is refused, naming the field, the value and the setting that says it, not read as 450 or 1.649', () => {
    const out = map({}, { price: '450.000', sqft: '1.649' });
    expect(out.listing.SalePrice).toBeUndefined();
    expect(out.listing.BuildingArea).toBeUndefined();
    expect(out.problems.map((p) => [p.field, p.reason])).toEqual([
      ['SalePrice', 'not_a_number'],
      ['BuildingArea', 'not_a_number'],
    ]);
    expect(out.problems[0]?.message).toBe(
      'SalePrice "450.000" is 450000 or 450.000: say which with the feed\'s `mapping.decimalComma` (true: a dot groups thousands; false: a dot is a decimal point)',
    );
  });

  it('is read as the mapping says, and the everyday US values need no setting', () => {
    expect(map({ decimalComma: true }, { price: '450.000', sqft: '1.649' }).listing).toMatchObject({
      SalePrice: 450_000,
      BuildingArea: 1649,
    });
    expect(map({ decimalComma: false }, { price: '450.000', sqft: '1.649' }).listing).toMatchObject({
      SalePrice: 450,
      BuildingArea: 1.649,
    });
    const us = map({}, { price: '$450,000', sqft: '1,649' });
    expect(us.problems).toEqual([]);
    expect(us.listing).toMatchObject({ SalePrice: 450_000, BuildingArea: 1649 });
  });

  it('a coordinate with three decimals is read as one, said or not, as none is 39676 (a tester: the listing held)', () => {
    const coordinates = (mapping: Record<string, unknown>, record: Record<string, string>) =>
      compileMapping({ fields: { Latitude: 'lat', Longitude: 'lon' }, ...mapping } as never).map(record);
    for (const decimalComma of [undefined, true, false]) {
      const out = coordinates(decimalComma === undefined ? {} : { decimalComma }, {
        lat: '39.676',
        lon: '-89.704',
      });
      expect([out.problems, out.listing.Latitude, out.listing.Longitude], String(decimalComma)).toEqual([
        [],
        39.676,
        -89.704,
      ]);
    }
    // A decimal-comma feed's comma still reads as its decimal mark; a price's dot is still asked about.
    expect(coordinates({ decimalComma: true }, { lat: '52,4987', lon: '13,3777' }).listing).toMatchObject({
      Latitude: 52.4987,
      Longitude: 13.3777,
    });
    expect(map({}, { price: '450.000' }).problems.map((p) => p.reason)).toEqual(['not_a_number']);
  });

  it('a hemisphere letter gives a coordinate its sign, never dropped (a reviewer: 33.86 S read as 33.86)', () => {
    const coordinates = (lat: string, lon: string) =>
      compileMapping({ fields: { Latitude: 'lat', Longitude: 'lon' } } as never).map({ lat, lon });
    expect(coordinates('33.8688° S', '151.2093 E').listing).toMatchObject({
      Latitude: -33.8688,
      Longitude: 151.2093,
    });
    expect(coordinates('40.7128 N', '74.0060 W').listing).toMatchObject({
      Latitude: 40.7128,
      Longitude: -74.006,
    });
    expect(coordinates('39,676', '-89,704').listing).toMatchObject({ Latitude: 39.676, Longitude: -89.704 });
    // A letter of the other axis, or a sign beside a letter: refused, naming the field.
    const wrong = coordinates('33.86 E', '-151.2 W');
    expect([wrong.listing.Latitude, wrong.listing.Longitude]).toEqual([undefined, undefined]);
    expect(wrong.problems.map((p) => p.message)).toEqual([
      'Latitude "33.86 E" is not a latitude in decimal degrees (39.676, -33.8688, 33.8688 S)',
      'Longitude "-151.2 W" is not a longitude in decimal degrees (-89.704, 151.2093 E, 74.006 W)',
    ]);
    // A hemisphere before the number, spelled out, a typeset minus (a tester: each read as positive).
    expect(coordinates('S 33.8688', 'W74.0060').listing).toMatchObject({
      Latitude: -33.8688,
      Longitude: -74.006,
    });
    expect(coordinates('33.8688 South', '\u2212151.2093').listing).toMatchObject({
      Latitude: -33.8688,
      Longitude: -151.2093,
    });
    // No text dropped around a coordinate's number, as around a price's; none read as a number it is not.
    for (const [lat, lon] of [
      ['W 74.0060', 'USD 39.5'],
      ['39.5 sqft', '39.676 NE'],
      ['39.676.5', 'N 39.6 S'],
      ['39°40\'33.6"N', '1234.5'],
    ]) {
      const refused = coordinates(lat as string, lon as string);
      expect(
        [refused.listing.Latitude, refused.listing.Longitude, refused.problems.length],
        `${lat} ${lon}`,
      ).toEqual([undefined, undefined, 2]);
    }
  });

  it('a preset whose feeds write a decimal point reads 1.250 as 1.25; openimmo and kyero do not say', () => {
    for (const preset of ['reso', 'reaxml', 'listhub', 'zillow', 'blm'] as const)
      expect(resolveMapping({ preset }).decimalComma, preset).toBe(false);
    // German and Spanish exports write `1.250` for 1250 whatever their schema says: not said.
    for (const preset of ['mls-csv', 'openimmo', 'kyero'] as const)
      expect(resolveMapping({ preset }).decimalComma, preset).toBeUndefined();
    // The feed's own word wins over its preset's.
    expect(resolveMapping({ preset: 'openimmo', decimalComma: true }).decimalComma).toBe(true);
  });
});

describe('a number repeated in one record with different values (a new user’s generic XML)', () => {
  const problemsOf = (record: Record<string, unknown>, mapping: MappingConfig = base) =>
    map(record, mapping).problems.map((p) => `${p.field} ${p.reason} ${JSON.stringify(p.value)}`);

  it('is a problem showing every value, not its first value taken unsaid', () => {
    expect(
      problemsOf({ ...good, beds: ['3', '4'], year: [{ '#text': '1999' }, { '#text': '2001' }] }),
    ).toEqual(['Bedrooms conflicting "3 | 4"', 'YearBuilt conflicting "1999 | 2001"']);
    expect(problemsOf({ ...good, baths: ['2', '3', '2'] })).toEqual(['Bathrooms conflicting "2 | 3"']);
    expect(map({ ...good, beds: ['3', '4'] }).problems[0]?.message).toMatch(
      /^Bedrooms "3 \| 4" is given 2 different values in one record .*: which one is meant is not known/,
    );
    const price: MappingConfig = { fields: { ...base.fields, SalePrice: 'details.price' } };
    expect(problemsOf({ ...good, details: { price: ['275000', '280000'] } }, price)).toEqual([
      'SalePrice conflicting "275000 | 280000"',
    ]);
  });

  it('reads the value when the repeats agree or say nothing; a text or a paired period takes the first', () => {
    const agreeing = map({ ...good, beds: ['3', ' 3 ', 'N/A', ''], baths: [{ '#text': '' }, '2'] });
    expect(agreeing.problems).toEqual([]);
    expect(agreeing.listing).toMatchObject({ Bedrooms: 3, Bathrooms: 2 });
    expect(map({ ...good, beds: ['N/A', '4'] }).listing.Bedrooms).toBe(4);
    // The same number written twice ways agrees (a new user's `199000` and `199000.00`).
    const same = map({ ...good, beds: ['2', '2.0'], baths: ['2', '2.00'] });
    expect([same.problems, same.listing.Bedrooms]).toEqual([[], 2]);
    // A weekly and a monthly rent read as a pair, each with its period: the first pair.
    const rent: MappingConfig = {
      fields: { ...base.fields, RentPrice: { from: 'rent', periodFrom: 'rent.@period' } },
    };
    const rents = map(
      {
        ...good,
        rent: [
          { '#text': '500', '@period': 'week' },
          { '#text': '2166', '@period': 'month' },
        ],
      },
      rent,
    );
    expect(rents.problems).toEqual([]);
    expect(rents.listing.RentPrice).toBeCloseTo(2166.67, 0);
    // Repeated categories, a repeated text: the first, as before.
    const text: MappingConfig = { fields: { ...base.fields, City: 'city' } };
    expect(map({ ...good, city: ['Springfield', 'Shelbyville'] }, text).listing.City).toBe('Springfield');
  });
});

describe('mapping odds a new user met', () => {
  it('a constant bathroom count is the count (it was ignored: every row "Bathrooms is missing")', () => {
    const mapping: MappingConfig = { fields: { ...base.fields, Bathrooms: { const: 1 } } };
    expect(map({ ...good, baths: undefined }, mapping).listing.Bathrooms).toBe(1);
  });

  it('a column named with a combining mark (macOS: `a` + `¨`) is the column the config names `ä`', () => {
    const nfd = 'Wohnfla\u0308che';
    const mapping: MappingConfig = { fields: { ...base.fields, BuildingArea: { from: nfd, unit: 'm2' } } };
    // The CSV reader gives its header names in NFC.
    expect(map({ ...good, Wohnfläche: '100' }, mapping).listing.BuildingArea).toBe(1076.39);
  });
});

describe('an element picked among repeated ones, and its companion from the same element', () => {
  it('a path picks by attribute or child: one price per currency, the HOA fee among fees', () => {
    const mapping: MappingConfig = {
      fields: {
        ...base.fields,
        SalePrice: 'price[@currency=EUR]',
        HOAMonth: { from: 'Fees.Fee[FeeType=HOA].FeeAmount', periodFrom: 'Fees.Fee[FeeType=HOA].FeePeriod' },
      },
    };
    const record = {
      ...good,
      price: [
        { '#text': '250000', '@currency': 'USD' },
        { '#text': '215000', '@currency': 'eur' },
      ],
      Fees: {
        Fee: [
          { FeeType: 'Tax', FeeAmount: '99', FeePeriod: 'Year' },
          { FeeType: 'HOA', FeeAmount: '450', FeePeriod: 'Monthly' },
        ],
      },
    };
    const out = map(record, mapping);
    expect(out.problems).toEqual([]);
    expect(out.listing).toMatchObject({ SalePrice: 215_000, HOAMonth: 450 });
    // Unpicked, the three prices are a problem that says how to pick.
    expect(map(record, { fields: { ...base.fields, SalePrice: 'price' } }).problems[0]?.message).toContain(
      'price[@currency=EUR]',
    );
  });

  it('a period or unit is the one of the element the value came from (a new user’s REAXML read 2166 a month as a week)', () => {
    const mapping: MappingConfig = {
      fields: {
        ...base.fields,
        RentPrice: { from: 'rent', periodFrom: 'rent.@period' },
        BuildingArea: { from: 'area', unitFrom: 'area.@unit' },
      },
    };
    const out = map(
      {
        ...good,
        rent: [{ '@period': 'week' }, { '#text': '2166', '@period': 'month' }],
        area: [{ '#text': '80' }, { '#text': '861', '@unit': 'sqft' }],
      },
      { ...mapping, areaUnit: 'Square Meters' },
    );
    expect(out.problems).toEqual([]);
    expect(out.listing).toMatchObject({ RentPrice: 2166, BuildingArea: 80 });
  });

  it('an area repeated with its own unit attribute: two different areas are refused, one area in two units is read', () => {
    const mapping: MappingConfig = {
      fields: { ...base.fields, LotArea: { from: 'land.area', unitFrom: 'land.area.@unit', unit: 'm2' } },
      areaUnit: 'Square Meters',
    };
    const lot = (...areas: [string, string][]) =>
      map(
        { ...good, land: { area: areas.map(([text, unit]) => ({ '#text': text, '@unit': unit })) } },
        mapping,
      );
    const differ = lot(['300', 'squareMeter'], ['310', 'squareMeter']);
    expect(differ.problems.map((p) => [p.field, p.value, p.reason])).toEqual([
      ['LotArea', '300 | 310', 'conflicting'],
    ]);
    expect(lot(['300', 'squareMeter'], ['300', 'squareMeter']).listing.LotArea).toBe(300);
    expect(lot(['0.4', 'hectare'], ['4000', 'squareMeter']).listing.LotArea).toBe(4000);
    expect(lot(['1', 'acre'], ['1', 'hectare']).problems[0]?.reason).toBe('conflicting');
  });
});

// A tester's vendor CSVs (`mapping: { preset: mls-csv }`, a "List Price" column): a price's text
// read whole, its period converted as the mapping's `period:` converts, a price on request unset.
describe('a price column as vendors write it', () => {
  const csv = compileMapping(inferCsvMapping(['MLS #', 'Class', 'List Price']));
  const sale = (price: string) => csv.map({ 'MLS #': 'S1', Class: 'Residential', 'List Price': price });
  const rent = (price: string) => csv.map({ 'MLS #': 'R1', Class: 'Residential Lease', 'List Price': price });
  const messages = (out: ReturnType<typeof sale>) => out.problems.map((p) => `${p.reason}: ${p.message}`);

  it.each([
    ['$1.25m', 1_250_000, '$'],
    ['£1.2m', 1_200_000, '£'],
    ['1,25 Mio. €', 1_250_000, '€'],
    ['€ 350.000,-', 350_000, '€'],
    ['350.000,- €', 350_000, '€'],
    ['EUR 350.000,--', 350_000, '€'],
    ['€1.2M', 1_200_000, '€'],
    ['$650k', 650_000, '$'],
  ])('a sale at %j is %d in %s', (price, SalePrice, CurrencySymbol) => {
    const out = sale(price);
    expect(messages(out)).toEqual([]);
    expect(out.listing).toMatchObject({ SalePrice, CurrencySymbol });
  });

  it.each([
    ['$650 pw', 2816.67, 'week'],
    ['$650/week', 2816.67, 'week'],
    ['$650 per week', 2816.67, 'week'],
    ['$650/wk', 2816.67, 'week'],
    ['650 p/w', 2816.67, 'week'],
    ['$30,000/yr', 2500, 'year'],
    ['$30,000 p.a.', 2500, 'year'],
  ])(
    'a rent of %j is %d a month, its period kept as the mapping’s `period:` keeps it',
    (price, RentPrice, period) => {
      const out = rent(price);
      expect(messages(out)).toEqual([]);
      expect(out.listing.RentPrice).toBe(RentPrice);
      expect(out.listing.CurrencySymbol).toBe('$');
      expect(out.listing.ExtensionColumn).toContainEqual({ Key: 'RentPrice period', value: period });
    },
  );

  it('a monthly rent is kept, with no period noted', () => {
    for (const price of ['£900 pcm', '$900/mo', '$900 per month', '£900 p.c.m.']) {
      const out = rent(price);
      expect(out.listing.RentPrice, price).toBe(900);
      expect(out.listing.ExtensionColumn, price).toBeUndefined();
    }
  });

  it('a nightly rate, a period in a sale price, an unknown word are refused naming the field', () => {
    expect(messages(rent('$95/night'))).toEqual([
      'price_period: RentPrice "$95/night" is a rate per night: it is not a monthly rent, and is not made one (map the monthly rent, or leave the price out)',
    ]);
    expect(messages(sale('$650 pw'))).toEqual([
      'price_period: SalePrice "$650 pw" is per week: only a rent or a fee is',
    ]);
    expect(messages(sale('£450,000 Guide Prize'))).toEqual([
      'not_a_number: SalePrice "£450,000 Guide Prize" is not a number',
    ]);
    // A qualifier of the closed list is read, and kept as the BLM preset keeps PRICE_QUALIFIER.
    const guide = sale('£450,000 Guide Price');
    expect(guide.problems).toEqual([]);
    expect(guide.listing.SalePrice).toBe(450_000);
    expect(guide.listing.ExtensionColumn).toEqual([{ Key: 'Price qualifier', value: 'Guide Price' }]);
    expect(messages(rent('650 p/x'))).toEqual(['not_a_number: RentPrice "650 p/x" is not a number']);
    expect(sale('$650 pw').listing.SalePrice).toBeUndefined();
  });

  it('a period in the text that disagrees with the mapping’s is refused; one that agrees is read once', () => {
    const weekly = (period: string, price: string) =>
      compileMapping({ fields: { RentPrice: { from: 'rent', period } } }).map({ rent: price });
    expect(weekly('month', '$650 pw').problems.map((p) => p.message)).toEqual([
      'RentPrice "$650 pw" is per week, but the mapping gives its period as "month": which one is meant is not known',
    ]);
    expect(weekly('week', '$650 pw').listing.RentPrice).toBe(2816.67);
    expect(weekly('month', '£900 pcm').listing.RentPrice).toBe(900);
  });

  it.each([
    'POA',
    'P.O.A.',
    'Price on application',
    'Price on request',
    'Call for price',
    'Contact agent for price',
  ])('a price %j is on request: unset, with the fact the presets give, never a rejection', (price) => {
    for (const out of [sale(price), rent(price)]) {
      expect(out.problems).toEqual([]);
      expect(out.listing.SalePrice).toBeUndefined();
      expect(out.listing.RentPrice).toBeUndefined();
      expect(out.listing.CurrencySymbol).toBe('$');
      expect(out.listing.ExtensionColumn).toEqual([{ Key: 'Price', value: 'on request' }]);
    }
  });

  it.each(['call', 'TBD soon', 'abc'])('any other word (%j) is still not a number', (price) => {
    expect(sale(price).problems.map((p) => p.reason)).toEqual(['not_a_number']);
  });
});
