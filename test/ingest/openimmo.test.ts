import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestFeed } from '../../src/ingest/index.ts';
import type { Listing } from '../../src/normalize/listing-schema.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';
import { fixture } from './helpers.ts';

const ingest = (feed = fixtureFeed('openimmo')) => ingestFeed(feed, { state: {}, forceFull: true });
const extension = (listing: Listing | undefined, key: string) =>
  listing?.ExtensionColumn?.find((entry) => entry.Key === key)?.value;

describe('OpenImmo XML with preset openimmo (fixtures/feeds/xml/openimmo.xml)', () => {
  it('validates with no rejection; aktion DELETE removes the listing', async () => {
    const result = await ingest();
    expect(result.rejections).toEqual([]);
    expect(result.stats).toEqual({ records: 7, valid: 6, rejected: 0, removed: 1, duplicates: 0 });
    expect(result.removals).toEqual(['W-105']);
  });

  it('maps sale and rent, objektart, prices, areas in m², rooms, parking, photos and the ANBOBJURL link', async () => {
    const listings = new Map((await ingest()).listings.map((l) => [l.MLSNumber, l]));
    const flat = listings.get('W-101');
    expect(flat).toMatchObject({
      SaleType: 'for_sale',
      Status: 'Active',
      PropertyType: 'Apartment',
      CurrencySymbol: '€',
      SalePrice: 389000,
      HOAMonth: 310.5,
      AreaUnit: 'Square Meters',
      BuildingArea: 78.4,
      LotArea: 0,
      Bedrooms: 2,
      Bathrooms: 1,
      ParkingSpots: 1,
      YearBuilt: 1908,
      Address: 'Musterstraße 12a',
      City: 'Berlin',
      ZIP: '10999',
      Latitude: 52.49876,
      Longitude: 13.42011,
      Url: 'https://www.makler.example/expose/W-101',
      Description: 'Helle Altbauwohnung & Balkon.\n• Dielenboden\n• Stuck',
      // Title picture first, relative paths against mediaBaseUrl; the PDF and the link are not photos.
      Images: [
        'https://bilder.makler.example/bilder/w101-wohnen.jpg',
        'https://bilder.makler.example/bilder/w101-kueche.jpg',
        'https://bilder.makler.example/bilder/w101-grundriss.png',
      ],
    });
    expect(extension(flat, 'Property kind')).toBe('apartment, upper-floor flat');
    expect(listings.get('H-202')).toMatchObject({
      SaleType: 'for_rent',
      PropertyType: 'House',
      RentPrice: 2150,
      DepositFee: 6450,
      LotArea: 210,
      Tours: '3D',
      Images: ['https://bilder.makler.example/H-202/aussen.jpg'],
    });
    // With its currency, per month (it was the bare "2480.00").
    expect(extension(listings.get('H-202'), 'Rent incl. heating')).toBe('€2,480 a month');
    expect(listings.get('G-303')).toMatchObject({
      PropertyType: 'Land',
      LotArea: 812.5,
      Bedrooms: 0,
      Bathrooms: 0,
    });
    expect(listings.get('B-404')).toMatchObject({
      PropertyType: 'Office',
      RentPrice: 4875,
      BuildingArea: 325,
      ParkingSpots: 3,
      Status: 'Active',
    });
    expect(extension(listings.get('B-404'), 'Source status')).toBe('reserved');
    expect(listings.get('H-206')).toMatchObject({ Status: 'Sold', SalePrice: 515000 });
  });

  it('the currency from waehrung (EUR when absent); a price on request (auf_anfrage) is left unset', async () => {
    const listings = new Map((await ingest()).listings.map((l) => [l.MLSNumber, l]));
    expect(listings.get('H-206')?.CurrencySymbol).toBe('€');
    expect(listings.get('H-207')).toMatchObject({
      CurrencySymbol: 'CHF',
      PropertyType: 'House',
      ParkingSpots: 2,
    });
    expect(listings.get('H-207')?.SalePrice).toBeUndefined();
    // Said as a fact, as the Kyero and BLM presets say theirs (a tester found it missing).
    expect(extension(listings.get('H-207'), 'Price')).toBe('on request');
    expect(listings.get('G-303')?.SalePrice).toBe(249000);
    expect(extension(listings.get('G-303'), 'Price')).toBeUndefined();
  });
});

describe('OpenImmo uebertragung umfang', () => {
  it('VOLL is a full run; TEIL (only the changed objects) is incremental, so absent listings stay', async () => {
    expect((await ingest()).mode).toBe('full');
    const xml = await readFile(fixture('xml/openimmo.xml'), 'utf8');
    const partial = join(tmpdir(), `openimmo-teil-${process.pid}.xml`);
    await writeFile(partial, xml.replace('umfang="VOLL"', 'umfang="TEIL"'));
    const result = await ingest(fixtureFeed('openimmo', { source: { path: partial } })).finally(() =>
      rm(partial),
    );
    expect(result).toMatchObject({ mode: 'incremental', removals: ['W-105'] });
    expect(result.stats.valid).toBe(6);
  });

  it('a German export’s 1.250 (1250 m²) is refused naming decimalComma, never read as 1.25; said, it is read', async () => {
    const xml = await readFile(fixture('xml/openimmo.xml'), 'utf8');
    const path = join(tmpdir(), `openimmo-thousands-${process.pid}.xml`);
    await writeFile(
      path,
      xml.replace(
        '<grundstuecksflaeche>210</grundstuecksflaeche>',
        '<grundstuecksflaeche>1.250</grundstuecksflaeche>',
      ),
    );
    try {
      const unsaid = await ingest(fixtureFeed('openimmo', { source: { path } }));
      expect(unsaid.rejections.map((r) => [r.field, r.value, r.reason])).toEqual([
        ['LotArea', '1.250', 'not_a_number'],
      ]);
      expect(unsaid.rejections[0]?.message).toContain('mapping.decimalComma');
      const said = await ingest(
        fixtureFeed('openimmo', { source: { path }, mapping: { preset: 'openimmo', decimalComma: true } }),
      );
      expect(said.rejections).toEqual([]);
      expect(said.listings.map((l) => l.LotArea)).toContain(1250);
    } finally {
      await rm(path);
    }
  });

  it('money facts read as the price fields: 2.210 is left out (the listing kept, a hint naming the element) until decimalComma says; said, it is 2210', async () => {
    const xml = await readFile(fixture('xml/openimmo.xml'), 'utf8');
    const path = join(tmpdir(), `openimmo-fact-thousands-${process.pid}.xml`);
    await writeFile(
      path,
      xml
        .replace('<kaltmiete>2150.00</kaltmiete>', '<kaltmiete>1.850,00</kaltmiete>')
        .replace('<warmmiete>2480.00</warmmiete>', '<warmmiete>2.210</warmmiete>')
        .replace('<nebenkosten>330.00</nebenkosten>', '<nebenkosten>1.360</nebenkosten>'),
    );
    try {
      const unsaid = await ingest(fixtureFeed('openimmo', { source: { path } }));
      expect(unsaid.rejections).toEqual([]);
      const house = unsaid.listings.find((l) => l.MLSNumber === 'H-202');
      expect(house?.RentPrice).toBe(1850);
      // Never €2.21 a month: the facts are left out, the listing is synced.
      expect(extension(house, 'Rent incl. heating')).toBeUndefined();
      expect(extension(house, 'Service charges')).toBeUndefined();
      const hints = (unsaid.hints ?? []).filter((h) => h.code === 'fact_left_out');
      expect(hints.map((h) => h.message)).toEqual([
        expect.stringContaining('the fact "Rent incl. heating" is left out'),
        expect.stringContaining('the fact "Service charges" is left out'),
      ]);
      expect(hints[0]?.message).toContain('preise.warmmiete "2.210" is 2210 or 2.210');
      expect(hints[0]?.message).toContain('(MLSNumber H-202)');
      expect(hints[0]?.fix).toContain('decimalComma: true');
      const said = await ingest(
        fixtureFeed('openimmo', { source: { path }, mapping: { preset: 'openimmo', decimalComma: true } }),
      );
      const saidHouse = said.listings.find((l) => l.MLSNumber === 'H-202');
      expect(saidHouse?.RentPrice).toBe(1850);
      expect(extension(saidHouse, 'Rent incl. heating')).toBe('€2,210 a month');
      expect(extension(saidHouse, 'Service charges')).toBe('€1,360 a month');
      expect(said.hints ?? []).toEqual([]);
      const point = await ingest(
        fixtureFeed('openimmo', { source: { path }, mapping: { preset: 'openimmo', decimalComma: false } }),
      );
      // The feed says a dot is a decimal point: its word is taken, as for the price fields.
      expect(
        extension(
          point.listings.find((l) => l.MLSNumber === 'H-202'),
          'Rent incl. heating',
        ),
      ).toBe('€2.21 a month');
    } finally {
      await rm(path);
    }
  });

  it('a TEIL file with no object (nothing changed) is an empty incremental run, not a failure', async () => {
    const xml = await readFile(fixture('xml/openimmo.xml'), 'utf8');
    const empty = xml
      .replace('umfang="VOLL"', 'umfang="TEIL"')
      .replace(/<immobilie>[\s\S]*<\/immobilie>/, '');
    const path = join(tmpdir(), `openimmo-teil-empty-${process.pid}.xml`);
    await writeFile(path, empty);
    const result = await ingest(fixtureFeed('openimmo', { source: { path } })).finally(() => rm(path));
    expect(result).toMatchObject({ mode: 'incremental', listings: [], removals: [] });
    expect(result.stats.records).toBe(0);
  });
});
