import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestFeed } from '../../src/ingest/index.ts';
import type { Listing } from '../../src/normalize/listing-schema.ts';
import { isFeedError } from '../../src/sources/index.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';
import { type Harness, startHarness } from '../reconcile/harness.ts';
import { fixture, withServer } from './helpers.ts';

const ingest = (feed = fixtureFeed('blm')) => ingestFeed(feed, { state: {}, forceFull: true });
const byKey = (listings: Listing[]) => new Map(listings.map((l) => [l.MLSNumber, l]));
const extension = (listing: Listing | undefined, key: string) =>
  listing?.ExtensionColumn?.find((entry) => entry.Key === key)?.value;

describe('BLM feed with preset blm (fixtures/feeds/blm)', () => {
  it('validates with only the planted rejection: the row three fields short, named by its line', async () => {
    const result = await ingest();
    expect(result.stats).toEqual({ records: 11, valid: 9, rejected: 1, removed: 1, duplicates: 0 });
    expect(result.rejections).toEqual([
      {
        feedId: 'blm',
        row: 19,
        index: 6,
        key: '77120_HR1007',
        reason: 'field_count',
        message: 'Row 19 of agency.blm: has 38 fields where the #DEFINITION# names 41',
      },
    ]);
    // PUBLISHED_FLAG 0: hidden from the portals, so removed from the chatbot.
    expect(result.removals).toEqual(['77120_HR1005']);
    // The broken row keeps its key: its listing is held, never deleted for a bad row.
    expect([...result.held].map((h) => h.key)).toEqual(['77120_HR1007']);
  });

  it('takes the base URL of relative photos from mapping.baseUrl when source.mediaBaseUrl is unset', async () => {
    const base = fixtureFeed('blm');
    const feed = {
      ...base,
      source: { ...base.source, mediaBaseUrl: undefined },
      mapping: { ...base.mapping, baseUrl: 'https://media.agency.example/77120/' },
    };
    const semi = byKey((await ingest(feed)).listings).get('77120_HR1001');
    expect(semi?.Images).toEqual([
      'https://media.agency.example/77120/77120_HR1001_IMG_00.jpg',
      'https://media.agency.example/77120/77120_HR1001_IMG_01.jpg',
    ]);
  });

  it('maps sale and let: prices, rent periods to monthly, statuses, types, photos, rooms', async () => {
    const listings = byKey((await ingest()).listings);
    const semi = listings.get('77120_HR1001');
    expect(semi).toMatchObject({
      SaleType: 'for_sale',
      Status: 'Active',
      PropertyType: 'Semi-Detached House',
      CurrencySymbol: '£',
      SalePrice: 325000,
      Bedrooms: 3,
      Bathrooms: 1,
      LotArea: 0,
      BuildingArea: 0,
      ParkingSpots: 0,
      Url: 'https://www.agency.example/property/77120_HR1001',
      Address: '14 Wren Close, Ashby Vale',
      City: 'Northbridge',
      ZIP: 'NB4 7QT',
      Description:
        'A bright semi-detached home & garden.\n\nEntrance hall, lounge, kitchen\nthree bedrooms and a family bathroom.',
      // Relative names against mediaBaseUrl; the EPC graph (MEDIA_IMAGE_60) is not a photo.
      Images: [
        'https://media.agency.example/77120/77120_HR1001_IMG_00.jpg',
        'https://media.agency.example/77120/77120_HR1001_IMG_01.jpg',
      ],
    });
    expect(extension(semi, 'Price qualifier')).toBe('Guide Price');
    expect(extension(semi, 'Tenure')).toBe('Freehold');
    // Protocol-relative made https, the duplicate dropped.
    expect(listings.get('77120_HR1002')?.Images).toEqual([
      'https://media.agency.example/77120/HR1002/front.jpg',
      'https://media.agency.example/77120/HR1002/lounge.jpg',
    ]);
    // Price on application: no price rather than 0.
    expect(listings.get('77120_HR1003')).toMatchObject({ Status: 'Active', Tours: '3D' });
    expect(listings.get('77120_HR1003')?.SalePrice).toBeUndefined();
    const rents = ['77120_HL2001', '77120_HL2002', '77120_HL2003', '77120_HL2004'].map((key) => {
      const let_ = listings.get(key);
      return [
        let_?.SaleType,
        let_?.RentPrice,
        extension(let_, 'Rent frequency'),
        extension(let_, 'Source status'),
      ];
    });
    expect(rents).toEqual([
      ['for_rent', 1950, 'Weekly', 'Available'], // 450 a week × 52 / 12
      ['for_rent', 1450, 'Monthly', 'Let Agreed'],
      ['for_rent', 1500, 'Quarterly', 'Available'], // 4500 a quarter / 3
      ['for_rent', 1500, 'Annual', 'Available'], // 18000 a year / 12
    ]);
    expect(listings.get('77120_HL2001')).toMatchObject({ DepositFee: 2250, PropertyType: 'Apartment' });
    expect(listings.get('77120_HR1004')).toMatchObject({ PropertyType: 'Land', Bedrooms: 0, Bathrooms: 0 });
    expect(listings.get('77120_HR1006')).toMatchObject({ Status: 'Sold' });
    expect(extension(listings.get('77120_HR1002'), 'Source status')).toBe('SSTC');
  });

  it('reads a file with custom EOF/EOR delimiters and CRLF; a relative photo without a base is dropped', async () => {
    const result = await ingest(fixtureFeed('blm-custom'));
    expect(result.stats).toMatchObject({ records: 3, valid: 3, rejected: 0 });
    const listings = byKey(result.listings);
    expect(listings.get('30410_S1')).toMatchObject({
      SalePrice: 450000,
      Description: 'Four bedroom detached house.\nDouble garage.',
    });
    expect(listings.get('30410_S1')?.Images).toBeUndefined();
    expect(extension(listings.get('30410_S1'), 'Summary')).toBe(
      'Detached house with a ^ caret and ~ tilde in its text.',
    );
    expect(listings.get('30410_L1')).toMatchObject({
      RentPrice: 1191.67,
      Images: ['https://cdn.eastmere.example/L1/0.jpg'],
    });
  });

  it('asks for the listing URL by name when the feed does not map it, as the config loads', () => {
    // The config schema checks the preset's requirements (src/normalize/presets/requirements.ts);
    // openFeed checks them again (E_FEED_CONFIG) for feeds built without the loader.
    let issues: unknown;
    try {
      fixtureFeed('blm', { mapping: { fields: { Url: undefined } } });
    } catch (error) {
      issues = (error as { issues?: unknown }).issues;
    }
    expect(issues).toEqual([
      expect.objectContaining({
        path: ['mapping', 'fields', 'Url'],
        message: 'preset blm: set mapping.fields.Url, e.g. { template: "https://…/{AGENT_REF}" }',
      }),
    ]);
  });
});

describe('a truncated BLM file (no #END#)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('fails the run as a source failure and deletes nothing on the platform', async () => {
    const feed = fixtureFeed('blm');
    h = await startHarness([feed], { latencyMs: 0 });
    const first = await h.sync(h.feed('blm'));
    expect(first).toMatchObject({ outcome: 'ok', created: 9 });
    const before = h.keys('FIXTURES');

    const truncated = fixtureFeed('blm', { source: { path: fixture('blm/truncated.blm') } });
    const error = await ingest(truncated).catch((e: unknown) => e);
    expect(isFeedError(error) && [error.code, error.retryable]).toEqual(['E_FEED_FETCH', true]);
    const report = await h.sync(truncated);
    expect(report).toMatchObject({ outcome: 'failed', deleted: 0, created: 0, updated: 0 });
    expect(report.reason).toContain('the file is truncated: no #END# after 7 rows');
    expect(h.keys('FIXTURES')).toEqual(before);
  });
});

describe('a BLM file served over HTTP', () => {
  it('gzipped, in Windows-1252 (£ in a summary): read like a local file', async () => {
    const text = (await readFile(fixture('blm/agency.blm'), 'latin1')).replace(
      'Second floor flat by the river.',
      'Second floor flat by the river, £150 service charge.',
    );
    const server = await withServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(Buffer.from(text, 'latin1')));
    });
    try {
      const feed = fixtureFeed('blm', { source: { path: undefined, url: `${server.url}/77120.blm.gz` } });
      const result = await ingest(feed);
      expect(result.stats).toMatchObject({ records: 11, valid: 9, rejected: 1 });
      const flat = result.listings.find((l) => l.MLSNumber === '77120_HR1002');
      expect(extension(flat, 'Summary')).toBe('Second floor flat by the river, £150 service charge.');
    } finally {
      await server.close();
    }
  });
});
