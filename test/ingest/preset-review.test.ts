import { describe, expect, it } from 'vitest';
import { ingestFeed } from '../../src/ingest/index.ts';
import type { Listing } from '../../src/normalize/listing-schema.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';

/**
 * What a tester found feeding the presets files written to mirror public samples (issue 21, review):
 * hidden addresses published, invented numbers, a Redfin download refused, and the facts each format
 * carries. Each on a fixture written from the format's published shape (fixtures/feeds/feed-sync.yaml).
 */
const now = new Date('2026-11-01T12:00:00Z');

async function ingest(id: string, overrides?: Parameters<typeof fixtureFeed>[1]) {
  const result = await ingestFeed(fixtureFeed(id, overrides), { state: {}, now: () => now });
  const byKey = new Map(result.listings.map((l) => [l.MLSNumber, l]));
  const listing = (key: string): Listing => {
    const found = byKey.get(key);
    if (!found) throw new Error(`${id}: no listing ${key} (have ${[...byKey.keys()].join(', ')})`);
    return found;
  };
  return { result, listing };
}

const facts = (listing: Listing) =>
  Object.fromEntries((listing.ExtensionColumn ?? []).map((e) => [e.Key, e.value]));
/** The street and the point that locates it. */
const located = (l: Listing) => [l.Address, l.Latitude, l.Longitude];

describe('1. an address the feed marks hidden: no street and no coordinates, the area stays', () => {
  it('REAXML <address display="no"> with <geocode>', async () => {
    const { listing } = await ingest('reaxml-hidden-address');
    const hidden = listing('AGT020-RES-401');
    expect(located(hidden)).toEqual([undefined, undefined, undefined]);
    expect(hidden).toMatchObject({ City: 'Sampleton', State: 'vic', ZIP: '3011' });
    expect(JSON.stringify(hidden)).not.toContain('Hidden Crescent');
    expect(located(listing('AGT020-RES-402'))).toEqual(['3 Open Street', -37.812, 144.962]);
  });

  it('Zillow <DisplayAddress>No</DisplayAddress>', async () => {
    const { listing } = await ingest('zillow-variants');
    expect(located(listing('ZV-1'))).toEqual([undefined, undefined, undefined]);
    expect(listing('ZV-1')).toMatchObject({ City: 'Sampletown', State: 'WA', ZIP: '98003' });
    expect(located(listing('ZV-2'))).toEqual(['0 Ridge Road', 47.62, -122.32]);
  });

  it('ListHub <DiscloseAddress>false</DiscloseAddress>', async () => {
    const { listing } = await ingest('listhub-variants');
    expect(located(listing('LV-1'))).toEqual([undefined, undefined, undefined]);
    expect(listing('LV-1')).toMatchObject({ City: 'Exampleville', State: 'CO', ZIP: '80001' });
    expect(located(listing('LV-2'))).toEqual(['15 Open Court', 39.72, -104.92]);
  });

  it('RESO InternetAddressDisplayYN false; InternetEntireListingDisplayYN false removes the listing', async () => {
    const { result, listing } = await ingest('reso-address-display');
    expect(located(listing('RP-1'))).toEqual([undefined, undefined, undefined]);
    expect(listing('RP-1')).toMatchObject({ City: 'Testburg', State: 'MN', ZIP: '55003' });
    expect(JSON.stringify(listing('RP-1'))).not.toContain('Hidden');
    // Not allowed on the internet at all: not on the chatbot either.
    expect(result.removals).toEqual(['RP-4']);
  });

  it('OpenImmo objektadresse_freigeben 0 (as before)', async () => {
    const { listing } = await ingest('openimmo-portal');
    expect(located(listing('W-502'))).toEqual([undefined, undefined, undefined]);
  });
});

describe('2. numbers read as the format writes them, never invented', () => {
  it('OpenImmo <wohnflaeche>84,5</wohnflaeche> is 84.5 m², not 845; hausgeld "310,00" is 310', async () => {
    const { listing } = await ingest('openimmo-crm');
    expect(listing('K-601')).toMatchObject({ BuildingArea: 84.5, HOAMonth: 310 });
    expect(listing('M-602').BuildingArea).toBe(62.25);
  });

  it('Kyero integers: plot 12.500 is 12,500 m² and price 1.250.000 is 1,250,000 (never 12.5)', async () => {
    const { listing } = await ingest('kyero-thousands');
    expect(listing('KY-T-01')).toMatchObject({ LotArea: 12_500, SalePrice: 1_250_000, BuildingArea: 410 });
    expect(listing('KY-T-02')).toMatchObject({ BuildingArea: 1050, LotArea: 2000 });
    expect(facts(listing('KY-T-02'))['Built area (as given)']).toBe('1.050 m2 aprox.');
  });

  it('ListHub: the namespace names the schema; a 2008-03 lot without photos is in acres', async () => {
    const { listing } = await ingest('listhub-2008-lots');
    expect(listing('LH08-3').LotArea).toBe(108_900); // 2.5 acres
  });

  it('ListHub 2012-03: a LotSize without areaUnits is not guessed (the marker, the value kept)', async () => {
    const { result, listing } = await ingest('listhub-variants');
    expect(listing('LV-1').LotArea).toBe(0);
    expect(facts(listing('LV-1'))['Lot size (unit not stated)']).toBe('0.62');
    expect(result.unknownMarkers).toMatchObject({ LotArea: 1 });
    expect(listing('LV-2').LotArea).toBe(2178); // 0.05 acre, its unit stated
  });
});

describe('3. a Redfin "download all" CSV with no mapping', () => {
  it('reads the URL, ZIP, state, HOA, price per square foot, sale types, open house; no rejection', async () => {
    const { result, listing } = await ingest('redfin-download');
    expect(result.rejections).toEqual([]);
    expect(result.stats).toMatchObject({ records: 5, valid: 5, rejected: 0 });
    expect(listing('RF1001')).toMatchObject({
      Url: 'https://www.redfin.example/NC/Sampleville/118-Example-Rd/home/1001',
      SaleType: 'for_sale',
      Status: 'Active',
      State: 'NC',
      ZIP: '28600',
      SalePrice: 431_500,
      UnitAreaPrice: 256,
      LotArea: 8712,
      BuildingArea: 1684,
      DaysOnMarket: 9,
      Location: 'Sampleville',
    });
    expect(facts(listing('RF1001'))).toEqual({ 'Open house': 'Sat 7 Nov 13:00–15:00' });
    expect(listing('RF1002')).toMatchObject({ HOAMonth: 325, Status: 'Active' });
    // A past sale is a sale; its STATUS says Sold.
    expect(listing('RF1003')).toMatchObject({ SaleType: 'for_sale', Status: 'Sold', SalePrice: 352_000 });
    expect(facts(listing('RF1003'))).toEqual({ 'Sold on': '3 Oct 2026' });
    expect(listing('RF1004').SaleType).toBe('for_sale'); // New Construction Home
    expect(listing('RF1005')).toMatchObject({
      SaleType: 'for_sale',
      PropertyType: 'Vacant Land',
      Bedrooms: 0,
    });
  });

  it('keeps the user’s own columns (FAVORITE, INTERESTED) and SOURCE out of the facts', async () => {
    const { result } = await ingest('redfin-download');
    const keys = new Set(result.listings.flatMap((l) => (l.ExtensionColumn ?? []).map((e) => e.Key)));
    expect([...keys].sort()).toEqual(['Open house', 'Sold on', 'Source status']);
  });

  it('the disclaimer row under the header is a note: skipped and said once, never a rejection', async () => {
    const { result } = await ingest('redfin-download');
    expect(result.hints).toEqual([
      {
        code: 'note_rows',
        message: expect.stringContaining(
          'row 2 of redfin-download.csv holds only a note, not a listing ("In accordance with local MLS rules',
        ),
        fix: expect.stringContaining('nothing to fix'),
      },
    ]);
    expect(result.rejections).toEqual([]);
  });
});

describe('4. OpenImmo attachments, status, energy certificate, money, and the URL hint', () => {
  it('a GRUNDRISS PDF is not a photo (by format or extension); images are', async () => {
    const { listing } = await ingest('openimmo-crm');
    expect(listing('K-601').Images).toEqual([
      'https://bilder.muster.example/k-601/1.jpg',
      'https://bilder.muster.example/k-601/grundriss.png',
    ]);
  });

  it('says the source status only when the file states one', async () => {
    const { listing } = await ingest('openimmo-crm');
    expect(facts(listing('K-601'))['Source status']).toBeUndefined();
    expect(facts(listing('M-602'))['Source status']).toBe('reserved');
  });

  it('the energy certificate in words (GAS → gas) with the date as other facts write it', async () => {
    const { listing } = await ingest('openimmo-crm');
    expect(facts(listing('K-601'))['Energy certificate']).toBe(
      'consumption-based, 96.5 kWh/m² a year, gas, valid until 1 Apr 2031',
    );
  });

  it('rent and charges with their currency, per month', async () => {
    const { listing } = await ingest('openimmo-crm');
    expect(facts(listing('M-602'))).toMatchObject({
      'Rent incl. heating': '€1,210 a month',
      'Service charges': '€180.50 a month',
    });
  });

  it('a record without ANBOBJURL: rejected "Url is missing", with one hint how to build the URL', async () => {
    const { result } = await ingest('openimmo-crm', { mapping: { fields: { Url: undefined } } });
    expect(result.rejections.map((r) => [r.key, r.field, r.reason])).toEqual([['M-602', 'Url', 'missing']]);
    expect(result.hints).toEqual([
      {
        field: 'Url',
        code: 'no_listing_url',
        message:
          'a record without an ANBOBJURL attachment has no listing URL, so it is rejected with "Url is missing"',
        fix: 'build the URL from the key in feed openimmo-crm\'s mapping: `mapping: { preset: openimmo, fields: { Url: { template: "https://example.com/listing/{verwaltung_techn.objektnr_extern}" } } }`',
      },
    ]);
  });
});

describe('5. Zillow fees, days on market, property types', () => {
  it('an empty <Fee> with only its period gives no fact; DateListed gives days on market', async () => {
    const { listing } = await ingest('zillow-variants');
    expect(facts(listing('ZV-1')).Fees).toBeUndefined();
    expect(listing('ZV-1').DaysOnMarket).toBe(31); // 2026-10-01
    expect(listing('ZV-2')).toMatchObject({ DaysOnMarket: 17, HOAMonth: 25 }); // 10/15/2026; 300 a year
    expect(facts(listing('ZV-2')).Fees).toBe('HOA: 300 Annually');
  });

  it('property type codes in words; vacant land has no rooms (the marker)', async () => {
    const { listing } = await ingest('zillow-variants');
    expect(listing('ZV-1').PropertyType).toBe('Single Family');
    expect(listing('ZV-2')).toMatchObject({ PropertyType: 'Vacant Land', Bedrooms: 0, Bathrooms: 0 });
  });
});

describe('6. ListHub HOA, REAXML features, BLM addresses and currency, RESO addresses', () => {
  it('ListHub: the homeowner association fee among the expenses is HOAMonth, monthly', async () => {
    const { listing } = await ingest('listhub-variants');
    expect(listing('LV-1').HOAMonth).toBe(100); // 1200 a year
    expect(listing('LV-2').HOAMonth).toBe(95);
  });

  it('REAXML <heating type="gas"/>, <hotWaterService type="gas"/>, <pool type="inground">yes</pool>', async () => {
    const { listing } = await ingest('reaxml-hidden-address');
    expect(facts(listing('AGT020-RES-401'))).toMatchObject({
      Heating: 'gas',
      'Hot water': 'gas',
      Pool: 'in-ground',
    });
    const other = facts(listing('AGT020-RES-402'));
    expect(other).toMatchObject({ Heating: 'gas ducted', 'Hot water': 'solar' });
    expect(other.Pool).toBeUndefined(); // <pool type="aboveground">no</pool>
  });

  it('BLM: a house number alone joins its street with a space', async () => {
    const { listing } = await ingest('blm-house-numbers');
    expect(listing('61200_AV09').Address).toBe('9 Alwyne Villas');
    expect(listing('61200_RC02').Address).toBe('Flat 2, Rose Court, 14A High Street');
    expect(listing('61200_OC01').Address).toBe('Orchard Cottage, Church Lane');
  });

  it('BLM 3i without a currency: each record rejected by name, and one hint to set the default', async () => {
    const { result } = await ingest('blm-overseas', { mapping: { defaults: undefined } });
    expect(result.listings).toEqual([]);
    expect(result.hints).toEqual([
      expect.objectContaining({
        field: 'CurrencySymbol',
        code: 'no_currency',
        fix: expect.stringContaining('`mapping: { preset: blm, defaults: { CurrencySymbol: EUR } }`'),
      }),
    ]);
  });

  it('RESO: street parts over an UnparsedAddress that repeats the city; SingleFamilyResidence in words', async () => {
    const { listing } = await ingest('reso-address-display');
    expect(listing('RP-2')).toMatchObject({
      Address: '240 N Maple Ave 2',
      PropertyType: 'Single Family Residence',
    });
    // Only UnparsedAddress: kept as the feed wrote it.
    expect(listing('RP-3').Address).toBe('9 Elm Row, Testburg, MN 55004');
  });
});
