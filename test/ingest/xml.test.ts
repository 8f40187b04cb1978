import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestFeed } from '../../src/ingest/index.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';
import { feed, fixture } from './helpers.ts';

describe('XML presets', () => {
  it('reaxml: record kinds by element, status attribute, hidden prices, weekly rent, units, id-only withdrawals', async () => {
    const result = await ingestFeed(fixtureFeed('reaxml'), { state: {} });
    expect(result.rejections).toEqual([]);
    expect(result.removals).toEqual(['XNWXNW-R0999', 'XNWXNW-L1999']);
    const [house, rental, land, sold] = result.listings;
    expect(house).toMatchObject({
      MLSNumber: 'XNWXNW-R1001',
      Status: 'Active',
      SaleType: 'for_sale',
      PropertyType: 'House',
      CurrencySymbol: '$',
      SalePrice: 850_000,
      Bedrooms: 4,
      Bathrooms: 2,
      ParkingSpots: 2,
      BuildingArea: 204.39,
      LotArea: 650,
      AreaUnit: 'Square Meters',
      Address: '2/39 Sample Street',
      City: 'Exampleton',
      State: 'VIC',
      ZIP: '3000',
      Url: 'https://agency.example/listing/R1001',
      Images: ['https://img.agency.example/r1001/m.jpg', 'https://img.agency.example/r1001/a.jpg'],
      Description: 'Four bedrooms & two bathrooms.\nWalk to schools.',
    });
    expect(house?.ExtensionColumn).toEqual(
      expect.arrayContaining([
        { Key: 'Price view', value: 'Offers over $850,000' },
        { Key: 'Agent', value: 'Alex Sample, 00 0000 0000' },
      ]),
    );
    expect(rental).toMatchObject({
      SaleType: 'for_rent',
      RentPrice: 2383.33,
      DepositFee: 2200,
      PropertyType: 'Unit',
    });
    expect(land).toMatchObject({ PropertyType: 'Land', LotArea: 15_000 });
    expect(land?.SalePrice).toBeUndefined();
    expect(sold).toMatchObject({ Status: 'Sold', MLSNumber: 'XNWXNW-R1002' });
  });

  it('kyero: sale and weekly rent from one price, currency codes, ordered images, multilingual text', async () => {
    const result = await ingestFeed(fixtureFeed('kyero'), { state: {} });
    expect(result.listings).toHaveLength(2);
    expect(result.listings[0]).toMatchObject({
      MLSNumber: 'KY-AL-01',
      SaleType: 'for_sale',
      SalePrice: 325_000,
      CurrencySymbol: '€',
      BuildingArea: 145,
      LotArea: 600,
      Latitude: 38.3452,
      Url: 'https://kyero-agent.example/en/KY-AL-01',
      Description: 'Villa with pool & sea views.',
      Images: [
        'https://img.kyero-agent.example/ky-al-01/1.jpg',
        'https://img.kyero-agent.example/ky-al-01/2.jpg',
      ],
    });
    expect(result.listings[0]?.ExtensionColumn).toContainEqual({ Key: 'Features', value: 'Pool, Sea views' });
    expect(result.listings[1]).toMatchObject({
      SaleType: 'for_rent',
      RentPrice: 3033.33,
      Url: 'https://kyero-agent.example/es/KY-AL-02',
    });
    expect(result.rejections).toEqual([
      expect.objectContaining({
        index: 2,
        key: 'KY-AL-03',
        field: 'Bedrooms',
        value: 'two',
        reason: 'not_a_number',
        message: 'Record 3 of kyero.xml (MLSNumber KY-AL-03): Bedrooms "two" is not a number',
      }),
    ]);
  });

  it('kyero: a price or an area repeated with other values is a rejection showing them, never dropped', async () => {
    const xml = await readFile(fixture('xml/kyero.xml'), 'utf8');
    const path = join(tmpdir(), `kyero-repeated-${process.pid}.xml`);
    await writeFile(
      path,
      xml
        .replace('<price>325000</price>', '<price>325000</price><price>330000</price>')
        .replace('<price>700</price>', '<price>700</price><price>700</price>'),
    );
    try {
      const result = await ingestFeed(fixtureFeed('kyero', { source: { path } }), { state: {} });
      expect(result.rejections.map((r) => [r.key, r.field, r.value])).toContainEqual([
        'KY-AL-01',
        'SalePrice',
        '325000 | 330000',
      ]);
      // The same value twice is that value.
      expect(result.listings.find((l) => l.MLSNumber === 'KY-AL-02')?.RentPrice).toBeGreaterThan(0);
    } finally {
      await rm(path);
    }
  });

  it('a malformed element is named with its line and the records read before it', async () => {
    const property = (n: number, beds = `<beds>${n}</beds>`) =>
      `  <property>\n    <id>${n}</id>\n    ${beds}\n  </property>\n`;
    const records = [1, 2, 3, 4, 5].map((n) => property(n)).join('') + property(6, '<beds>5</bed>');
    const path = join(tmpdir(), `malformed-${process.pid}.xml`);
    // The 6th property's beds are on line 2 + 5 × 4 + 3 = 25.
    await writeFile(path, `<?xml version="1.0"?>\n<root>\n${records}</root>\n`);
    try {
      const failed = await ingestFeed(
        feed({ source: { format: 'xml', path, xml: { recordPath: 'root.property' } } }),
        { state: {} },
      ).catch((error: Error) => error);
      expect((failed as Error).message).toBe(
        'feed test-feed: malformed XML: <beds> closed by </bed> at line 25 (after 5 records)',
      );
    } finally {
      await rm(path);
    }
  });

  it('listhub: commons: namespaces, empty Bathrooms beside full/half, weekly rent, cancelled removal', async () => {
    const result = await ingestFeed(fixtureFeed('listhub'), { state: {} });
    expect(result.rejections).toEqual([]);
    expect(result.removals).toEqual(['LH-3']);
    expect(result.listings[0]).toMatchObject({
      MLSNumber: 'LH-1',
      Address: '100 Sample Blvd',
      City: 'Exampleville',
      State: 'CO',
      ZIP: '80000',
      Bathrooms: 2.5,
      SalePrice: 575_000,
      CurrencySymbol: '$',
      PropertyType: 'Single Family Detached',
      // A 2012-03 LotSize without areaUnits: that schema documents no default unit, so no area is
      // guessed (it was read as square feet); the marker, the value kept as a fact.
      LotArea: 0,
      ParkingSpots: 2,
      Images: ['https://img.broker.example/lh-1/1.jpg', 'https://img.broker.example/lh-1/2.jpg'],
    });
    expect(result.listings[0]?.ExtensionColumn).toContainEqual({
      Key: 'Lot size (unit not stated)',
      value: '8712',
    });
    expect(result.listings[1]).toMatchObject({
      SaleType: 'for_rent',
      RentPrice: 1950,
      Address: '5 Rental Row #2',
    });
  });

  it('zillow: year-built element, empty Bathrooms, For Rent status, acres, annual HOA to monthly, tours', async () => {
    const result = await ingestFeed(fixtureFeed('zillow'), { state: {} });
    expect(result.rejections).toEqual([]);
    expect(result.removals).toEqual(['Z-3']);
    expect(result.listings[0]).toMatchObject({
      MLSNumber: 'Z-1',
      YearBuilt: 1924,
      Bathrooms: 3.25,
      LotArea: 8712,
      HOAMonth: 100,
      Tours: '3D',
      Address: '12 Test Lane',
      Images: ['https://img.brokerage.example/z-1/1.jpg', 'https://img.brokerage.example/z-1/2.jpg'],
    });
    expect(result.listings[1]).toMatchObject({
      Status: 'Active',
      SaleType: 'for_rent',
      RentPrice: 2350,
      Address: '400 Rent Ave Apt 5',
    });
  });
});

describe('generic XML', () => {
  it('reads prefixed elements, attributes, CDATA and entities', async () => {
    const result = await ingestFeed(fixtureFeed('generic-xml'), { state: {} });
    expect(result.rejections).toEqual([]);
    expect(result.listings[0]).toMatchObject({
      MLSNumber: 'G-1',
      Description: 'Loft <with> "quotes" & ampersands',
      SalePrice: 450_000,
      CurrencySymbol: '£',
      BuildingArea: 95,
      Latitude: 51.5,
      Longitude: -0.12,
      Url: 'https://generic.example/items/G-1?a=1&b=2',
      Images: ['https://img.generic.example/g-1/1.jpg', 'https://img.generic.example/g-1/2.jpg'],
    });
    expect(result.listings[1]).toMatchObject({ Status: 'Sold', BuildingArea: 102.19 });
  });

  it('refuses a billion-laughs file with a clear error', async () => {
    const run = ingestFeed(
      feed({
        source: {
          format: 'xml',
          path: fixture('xml/billion-laughs.xml'),
          xml: { recordPath: 'Listings.Listing' },
        },
      }),
      { state: {} },
    );
    await expect(run).rejects.toMatchObject({
      code: 'E_FEED_UNSAFE',
      message: expect.stringMatching(/DOCTYPE/),
    });
  });

  it('fails on malformed XML and on a record path that matches nothing', async () => {
    await expect(
      ingestFeed(
        feed({
          source: {
            format: 'xml',
            path: fixture('xml/malformed.xml'),
            xml: { recordPath: 'Listings.Listing' },
          },
        }),
        { state: {} },
      ),
    ).rejects.toMatchObject({
      code: 'E_FEED_PARSE',
      message: expect.stringMatching(/<MlsId> closed by <\/MlsID>/),
    });
    await expect(
      ingestFeed(
        feed({
          source: {
            format: 'xml',
            path: fixture('xml/zillow.xml'),
            xml: { recordPath: 'Listings.Property' },
          },
        }),
        { state: {} },
      ),
    ).rejects.toMatchObject({ code: 'E_FEED_EMPTY' });
  });

  it('fails when the file is not XML at all', async () => {
    await expect(
      ingestFeed(
        feed({
          source: { format: 'xml', path: fixture('csv/tab-inferred.tsv'), xml: { recordPath: 'a.b' } },
        }),
        { state: {} },
      ),
    ).rejects.toMatchObject({ code: 'E_FEED_PARSE', message: expect.stringMatching(/not XML/) });
  });
});
