import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { feedConfigSchema } from '../../src/config/schema.ts';
import { ingestFeed } from '../../src/ingest/index.ts';
import type { Listing } from '../../src/normalize/listing-schema.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';
import { fixture } from './helpers.ts';

/** The run's clock: days on market from list dates are counted to this day. */
const now = new Date('2026-11-01T12:00:00Z');

/** Ingest a preset fixture feed of fixtures/feeds/feed-sync.yaml (only source, preset, chatbot, key). */
async function ingest(id: string) {
  const result = await ingestFeed(fixtureFeed(id), { state: {}, now: () => now });
  const byKey = new Map(result.listings.map((l) => [l.MLSNumber, l]));
  const listing = (key: string): Listing => {
    const found = byKey.get(key);
    if (!found) throw new Error(`${id}: no listing ${key} (have ${[...byKey.keys()].join(', ')})`);
    return found;
  };
  return { result, listing };
}

const ext = (listing: Listing, key: string) => listing.ExtensionColumn?.find((e) => e.Key === key)?.value;

describe('reaxml preset, every kind of record, no hand-written mapping', () => {
  it('residential: 2/39 addresses, parking summed, geocode, HTML text, photos only, under offer, hidden price, sold', async () => {
    const { result, listing } = await ingest('reaxml-residential');
    expect(result.rejections).toEqual([]);
    expect(listing('AGT001-RES-101')).toMatchObject({
      SaleType: 'for_sale',
      Status: 'Active',
      PropertyType: 'Townhouse',
      CurrencySymbol: '$', // AUD, the format's implicit currency
      SalePrice: 1_250_000,
      Address: '2/39 Sample Parade',
      ParkingSpots: 4, // garages 2 + carports 1 + openSpaces 1
      Latitude: -37.8101,
      Longitude: 144.9602,
      AreaUnit: 'Square Meters',
      BuildingArea: 167.23, // 18 squares
      LotArea: 320,
      YearBuilt: 0, // REAXML has no year built: the unknown marker
      Description: 'Three bedrooms & two bathrooms.\nWalk to schools and the café’s terrace.',
      Images: ['https://img.agency.example/res-101/m.jpg', 'https://img.agency.example/res-101/a.jpg'],
      Url: 'https://agency.example/listing/RES-101',
    });
    expect(ext(listing('AGT001-RES-101'), 'Links')).toBe('https://video.agency.example/res-101');
    expect(ext(listing('AGT001-RES-101'), 'Parking')).toBe('2 garages, 1 carport, 1 open space');
    const underOffer = listing('AGT001-RES-102');
    expect(underOffer).toMatchObject({ Status: 'Active', Description: 'Española-style house, under offer.' });
    expect(underOffer.SalePrice).toBeUndefined(); // price display="no"
    expect(underOffer.Address).toBeUndefined(); // address display="no": the suburb only
    expect(underOffer.City).toBe('Exampleton');
    expect(ext(underOffer, 'Source status')).toBe('Under Offer');
    expect(listing('AGT001-RES-103')).toMatchObject({
      Status: 'Sold',
      SalePrice: 655_000,
      Address: '1/15 Old Road',
    });
  });

  it('rental and holidayRental: rents to monthly, the published period kept', async () => {
    const rental = await ingest('reaxml-rental');
    expect(rental.result.rejections).toEqual([]);
    const weekly = rental.listing('AGT001-REN-201');
    expect(weekly).toMatchObject({
      SaleType: 'for_rent',
      RentPrice: 2816.67,
      DepositFee: 2600,
      Address: '5/88 Harbour Road',
    });
    expect(ext(weekly, 'RentPrice period')).toBe('week');
    expect(rental.listing('AGT001-REN-202')).toMatchObject({ RentPrice: 3100, ParkingSpots: 2 });
    const holiday = await ingest('reaxml-holiday-rental');
    expect(holiday.listing('AGT004-HOL-901')).toMatchObject({
      SaleType: 'for_rent',
      PropertyType: 'Apartment',
      RentPrice: 6066.67, // 1400 a week
    });
  });

  it('a rent without its period is refused (unknown_period, held), never read as monthly; a feed that knows its period maps it', async () => {
    const xml = await readFile(fixture('presets/reaxml/rental.xml'), 'utf8');
    const path = join(tmpdir(), `reaxml-rent-no-period-${process.pid}.xml`);
    await writeFile(path, xml.replace('<rent period="month">3100</rent>', '<rent display="yes">600</rent>'));
    try {
      const unsaid = await ingestFeed(fixtureFeed('reaxml-rental', { source: { path } }), {
        state: {},
        now: () => now,
      });
      expect(unsaid.rejections.map((r) => [r.key, r.field, r.value, r.reason])).toEqual([
        ['AGT001-REN-202', 'RentPrice', '600', 'unknown_period'],
      ]);
      expect(unsaid.rejections[0]?.message).toContain('RentPrice "600" has an unknown period "not stated"');
      expect([unsaid.held.length, unsaid.held.at(0)?.key]).toEqual([1, 'AGT001-REN-202']);
      // The weekly one beside it is read as before.
      expect(unsaid.listings.map((l) => [l.MLSNumber, l.RentPrice])).toEqual([['AGT001-REN-201', 2816.67]]);
      const said = await ingestFeed(
        fixtureFeed('reaxml-rental', {
          source: { path },
          mapping: {
            preset: 'reaxml',
            fields: {
              Url: { template: 'https://agency.example/listing/{uniqueID}' },
              RentPrice: { from: 'rent', periodFrom: 'rent.@period', period: 'week' },
            },
          },
        }),
        { state: {}, now: () => now },
      );
      expect(said.rejections).toEqual([]);
      expect(said.listings.find((l) => l.MLSNumber === 'AGT001-REN-202')?.RentPrice).toBe(2600);
    } finally {
      await rm(path);
    }
  });

  it('a landDetails area repeated with different values is refused (never its first value); equal repeats agree', async () => {
    const xml = await readFile(fixture('presets/reaxml/land.xml'), 'utf8');
    const path = join(tmpdir(), `reaxml-two-areas-${process.pid}.xml`);
    const areas = (a: string, b: string) =>
      xml.replace(
        '<area unit="hectare">0.65</area>',
        `<area unit="squareMeter">${a}</area><area unit="squareMeter">${b}</area>`,
      );
    try {
      await writeFile(path, areas('300', '310'));
      const differ = await ingestFeed(fixtureFeed('reaxml-land', { source: { path } }), {
        state: {},
        now: () => now,
      });
      expect(differ.rejections.map((r) => [r.key, r.field, r.value, r.reason])).toEqual([
        ['AGT001-LND-301', 'LotArea', '300 | 310', 'conflicting'],
      ]);
      await writeFile(path, areas('300', '300.0'));
      const same = await ingestFeed(fixtureFeed('reaxml-land', { source: { path } }), {
        state: {},
        now: () => now,
      });
      expect(same.rejections).toEqual([]);
      expect(same.listings.find((l) => l.MLSNumber === 'AGT001-LND-301')?.LotArea).toBe(300);
    } finally {
      await rm(path);
    }
  });

  it('land, rural, commercialLand and business: no rooms is the unknown marker, not a rejection', async () => {
    const land = await ingest('reaxml-land');
    expect(land.result.rejections).toEqual([]);
    expect(land.listing('AGT001-LND-301')).toMatchObject({
      PropertyType: 'Land',
      Bedrooms: 0,
      Bathrooms: 0,
      LotArea: 6500, // 0.65 ha
      Address: 'Lot 12 Quarry Lane',
      SalePrice: 420_000,
    });
    expect(land.result.unknownMarkers).toMatchObject({ Bedrooms: 1, Bathrooms: 1, YearBuilt: 1 });
    const rural = await ingest('reaxml-rural');
    expect(rural.result.rejections).toEqual([]);
    expect(rural.listing('AGT001-RUR-401')).toMatchObject({
      PropertyType: 'Cropping',
      Bedrooms: 4,
      ParkingSpots: 3,
    });
    expect(rural.listing('AGT001-RUR-402')).toMatchObject({
      PropertyType: 'Grazing',
      Bedrooms: 0,
      LotArea: 1_500_000,
    });
    const commercialLand = await ingest('reaxml-commercial-land');
    expect(commercialLand.listing('AGT002-CLD-701')).toMatchObject({
      PropertyType: 'Commercial Land',
      SaleType: 'for_sale',
      SalePrice: 3_400_000,
    });
    const business = await ingest('reaxml-business');
    expect(business.listing('AGT003-BUS-801')).toMatchObject({
      PropertyType: 'Food/Hospitality',
      SaleType: 'for_sale',
      SalePrice: 275_000,
      Bedrooms: 0,
    });
  });

  it('commercial: sale, lease (annual rent to monthly) and both; carSpaces', async () => {
    const sale = await ingest('reaxml-commercial-sale');
    expect(sale.result.rejections).toEqual([]);
    expect(sale.listing('AGT002-COM-501')).toMatchObject({
      SaleType: 'for_sale',
      PropertyType: 'Offices',
      SalePrice: 1_850_000,
      ParkingSpots: 12,
      BuildingArea: 420,
    });
    expect(sale.listing('AGT002-COM-502')).toMatchObject({
      SaleType: 'for_sale',
      SalePrice: 950_000,
      RentPrice: 5000,
    });
    const lease = await ingest('reaxml-commercial-lease');
    const shop = lease.listing('AGT002-COM-601');
    expect(shop).toMatchObject({
      SaleType: 'for_rent',
      PropertyType: 'Retail',
      RentPrice: 10_000,
      ParkingSpots: 2,
    });
    expect(shop.SalePrice).toBeUndefined();
    expect(ext(shop, 'RentPrice period')).toBe('annual');
  });

  it('status-only updates: sold, withdrawn, offmarket and leased with only their ids remove the listing', async () => {
    const { result } = await ingest('reaxml-status-only');
    expect(result.rejections).toEqual([]);
    expect(result.listings.map((l) => l.MLSNumber)).toEqual(['AGT001-RES-110']);
    expect(result.removals.sort()).toEqual([
      'AGT001-REN-113',
      'AGT001-REN-114',
      'AGT001-RES-111',
      'AGT001-RES-112',
    ]);
  });

  it('asks for the listing URL REAXML cannot carry, by name, when the config loads', () => {
    const parsed = feedConfigSchema.safeParse({
      id: 'rea',
      chatbot: 'SN',
      source: { format: 'xml', path: 'x.xml' },
      mapping: { preset: 'reaxml' },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({
        path: ['mapping', 'fields', 'Url'],
        message: expect.stringMatching(
          /^preset reaxml: set mapping\.fields\.Url, e\.g\. \{ template: "https:\/\/.+\{uniqueID\}" \}$/,
        ),
      }),
    ]);
  });
});

describe('kyero preset', () => {
  it('sales: EUR by default, url and description per language, a plot without rooms', async () => {
    const { result, listing } = await ingest('kyero-sale');
    expect(result.rejections).toEqual([]);
    expect(listing('KY-S-01')).toMatchObject({
      SaleType: 'for_sale',
      CurrencySymbol: '€',
      SalePrice: 349_000,
      Url: 'https://kyero-agent.example/en/ky-s-01',
      Description: 'Villa with pool\nand sea views.',
      Images: [
        'https://img.kyero-agent.example/ky-s-01/1.jpg',
        'https://img.kyero-agent.example/ky-s-01/2.jpg',
      ],
      LotArea: 600,
    });
    // Features as text or per language (English first): one readable list.
    expect(ext(listing('KY-S-01'), 'Features')).toBe('Pool, Sea views, Garaje');
    expect(listing('KY-S-02')).toMatchObject({
      Url: 'https://kyero-agent.example/es/ky-s-02',
      City: 'Málaga',
      State: 'Málaga',
      LotArea: 0,
      Description: 'Apartamento céntrico.',
    });
    expect(listing('KY-S-03')).toMatchObject({
      PropertyType: 'plot',
      Bedrooms: 0,
      Bathrooms: 0,
      LotArea: 1200,
    });
  });

  it('rentals: price_freq month and week to a monthly RentPrice, the currency given', async () => {
    const { result, listing } = await ingest('kyero-rental');
    expect(result.rejections).toEqual([]);
    expect(listing('KY-R-01')).toMatchObject({ SaleType: 'for_rent', RentPrice: 1100, CurrencySymbol: '€' });
    const weekly = listing('KY-R-02');
    expect(weekly).toMatchObject({ SaleType: 'for_rent', RentPrice: 2600, CurrencySymbol: '£' });
    expect(weekly.Url).toBe('https://kyero-agent.example/en/ky-r-02'); // English before German
    expect(ext(weekly, 'RentPrice period')).toBe('week');
    // `rentlong` without a period: a long let, quoted per month; community fees are monthly.
    expect(listing('KY-R-03')).toMatchObject({
      SaleType: 'for_rent',
      RentPrice: 950,
      HOAMonth: 45,
      ZIP: '03001',
      Url: 'https://kyero-agent.example/ky-r-03',
    });
    expect(listing('KY-R-03').SalePrice).toBeUndefined();
  });
});

describe('zillow and listhub presets', () => {
  it('zillow: parking, protocol-less pictures kept, relative ones dropped and counted, Pending stays Active', async () => {
    const { result, listing } = await ingest('zillow-sale');
    expect(result.rejections).toEqual([]);
    expect(listing('ZS-1')).toMatchObject({
      ParkingSpots: 2,
      Bathrooms: 2.5,
      LotArea: 8712, // 0.2 acres
      Images: ['https://cdn.brokerage.example/zs-1/1.jpg', 'https://cdn.brokerage.example/zs-1/2.jpg'],
    });
    expect(result.droppedImages).toEqual({
      count: 1,
      examples: [{ ref: expect.objectContaining({ index: 0 }), url: '/photos/zs-1/3.jpg' }],
    });
    const condo = listing('ZS-2');
    expect(condo).toMatchObject({
      Status: 'Active',
      SalePrice: 415_000,
      LotArea: 0,
      HOAMonth: 450,
      ParkingSpots: 1,
    });
    expect(ext(condo, 'Source status')).toBe('Pending');
    const rental = await ingest('zillow-rental');
    expect(rental.listing('ZR-1')).toMatchObject({ SaleType: 'for_rent', RentPrice: 2350, DepositFee: 2350 });
  });

  it('zillow: a Leased rental is a rental that was let, as Rented: Sold, for_rent, its rent a RentPrice', async () => {
    const xml = await readFile(fixture('presets/zillow/rental.xml'), 'utf8');
    const path = join(tmpdir(), `zillow-leased-${process.pid}.xml`);
    const options = { state: {}, now: () => now };
    try {
      for (const status of ['Leased', 'Rented']) {
        await writeFile(path, xml.replace('<Status>For Rent</Status>', `<Status>${status}</Status>`));
        const result = await ingestFeed(fixtureFeed('zillow-rental', { source: { path } }), options);
        expect(result.rejections).toEqual([]);
        const let_ = result.listings.find((l) => l.MLSNumber === 'ZR-1');
        expect([status, let_?.Status, let_?.SaleType, let_?.RentPrice, let_?.SalePrice]).toEqual([
          status,
          'Sold',
          'for_rent',
          2350,
          undefined,
        ]);
      }
    } finally {
      await rm(path);
    }
  });

  it('listhub: a FullStreetAddress keeps its UnitNumber (as zillow), unless it already ends with it', async () => {
    const sale = await readFile(fixture('presets/listhub/sale.xml'), 'utf8');
    const lease = await readFile(fixture('presets/listhub/lease.xml'), 'utf8');
    const salePath = join(tmpdir(), `listhub-unit-sale-${process.pid}.xml`);
    const leasePath = join(tmpdir(), `listhub-unit-lease-${process.pid}.xml`);
    await writeFile(
      salePath,
      sale.replace(
        '<commons:FullStreetAddress>100 Sample Blvd</commons:FullStreetAddress>',
        '<commons:FullStreetAddress>2110 Elm Street</commons:FullStreetAddress><commons:UnitNumber>4B</commons:UnitNumber>',
      ),
    );
    await writeFile(
      leasePath,
      lease.replace(
        '<commons:FullStreetAddress>5 Rental Row #2</commons:FullStreetAddress>',
        '<commons:FullStreetAddress>5 Rental Row #2</commons:FullStreetAddress><commons:UnitNumber>2</commons:UnitNumber>',
      ),
    );
    try {
      const options = { state: {}, now: () => now };
      const sold = await ingestFeed(fixtureFeed('listhub-sale', { source: { path: salePath } }), options);
      expect(sold.listings.find((l) => l.MLSNumber === 'LS-1')?.Address).toBe('2110 Elm Street 4B');
      const let_ = await ingestFeed(fixtureFeed('listhub-lease', { source: { path: leasePath } }), options);
      expect(let_.listings.find((l) => l.MLSNumber === 'LL-1')?.Address).toBe('5 Rental Row #2');
    } finally {
      await Promise.all([rm(salePath), rm(leasePath)]);
    }
  });

  it('listhub: ParkingSpaces, days on market from ListingDate, Contingent, leases per period', async () => {
    const { result, listing } = await ingest('listhub-sale');
    expect(result.rejections).toEqual([]);
    expect(listing('LS-1')).toMatchObject({
      ParkingSpots: 2,
      DaysOnMarket: 31, // 2026-10-01 to 2026-11-01
      Images: ['https://img.broker.example/ls-1/1.jpg', 'https://img.broker.example/ls-1/2.jpg'],
      Description: 'Ranch home with mountain views & a big deck.',
    });
    expect(listing('LS-2')).toMatchObject({
      Status: 'Active',
      ParkingSpots: 1,
      LotArea: 0,
      Address: '22 Pine St 4B',
    });
    const lease = await ingest('listhub-lease');
    expect(lease.result.rejections).toEqual([]);
    expect(lease.listing('LL-1')).toMatchObject({ SaleType: 'for_rent', RentPrice: 1950 });
    expect(lease.listing('LL-2')).toMatchObject({ SaleType: 'for_rent', RentPrice: 3033.33 });
  });
});

describe('reso preset', () => {
  it('a condo without lot is the unknown marker; days on market from counts, then dates; photos only, by Order', async () => {
    const { result, listing } = await ingest('reso-residential');
    expect(result.rejections).toEqual([]);
    expect(listing('RS-1')).toMatchObject({
      LotArea: 0,
      DaysOnMarket: 17, // CumulativeDaysOnMarket
      HOAMonth: 420,
      Images: ['https://media.mls.example/rs-1/1.jpg', 'https://media.mls.example/rs-1/3.jpg'],
    });
    expect(listing('RS-2')).toMatchObject({
      Status: 'Active',
      DaysOnMarket: 47, // OnMarketDate 2026-09-15
      Bathrooms: 2.5,
      Description: 'Updated kitchen.\nBig yard.',
      Images: ['https://media.mls.example/rs-2/1.jpg', 'https://media.mls.example/rs-2/2.jpg'],
    });
    expect(ext(listing('RS-2'), 'Source status')).toBe('Active Under Contract');
    expect(listing('RS-3')).toMatchObject({ DaysOnMarket: 92, Bedrooms: 0, LotArea: 217_800 }); // ListingContractDate
    expect(result.unknownMarkers).toMatchObject({ LotArea: 1 });
  });

  it('leases: monthly and annual amounts to a monthly RentPrice', async () => {
    const { result, listing } = await ingest('reso-lease');
    expect(result.rejections).toEqual([]);
    expect(listing('RL-1')).toMatchObject({ SaleType: 'for_rent', RentPrice: 2400, BuildingArea: 1022.57 });
    expect(listing('RL-2')).toMatchObject({
      SaleType: 'for_rent',
      PropertyType: 'Office',
      RentPrice: 4500,
      Bedrooms: 0,
    });
  });
});

describe('under contract', () => {
  it('stays Active by default and is removed with underContract: remove, the flip being one line', async () => {
    const active = await ingestFeed(fixtureFeed('reso-residential'), { state: {}, now: () => now });
    expect(active.removals).toEqual([]);
    const removed = await ingestFeed(
      fixtureFeed('reso-residential', { mapping: { underContract: 'remove' } }),
      {
        state: {},
        now: () => now,
      },
    );
    expect(removed.removals.sort()).toEqual(['RS-2', 'RS-3']);
    expect(removed.listings.map((l) => l.MLSNumber)).toEqual(['RS-1']);
  });

  it('means the same in every preset: BLM sold subject to contract and let agreed too', async () => {
    const kept = await ingestFeed(fixtureFeed('blm'), { state: {}, now: () => now });
    const underContract = kept.listings.filter((l) =>
      ['SSTC', 'SSTCM', 'Under Offer', 'Reserved', 'Let Agreed'].includes(ext(l, 'Source status') ?? ''),
    );
    expect(underContract.length).toBeGreaterThan(0);
    expect(underContract.every((l) => l.Status === 'Active')).toBe(true);
    const removed = await ingestFeed(fixtureFeed('blm', { mapping: { underContract: 'remove' } }), {
      state: {},
      now: () => now,
    });
    expect(removed.removals.length).toBe(kept.removals.length + underContract.length);
  });
});
