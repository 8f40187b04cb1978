import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ingestFeed } from '../../src/ingest/index.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';

/**
 * A typical MLS export with no mapping at all (fixtures/feeds/csv/mls-export.csv, feed `mls-export`):
 * every row a person would accept is accepted with the right fields; the only rejections are the two
 * rows a person would reject too. The sync of it (twice, zero writes the second time) is in
 * test/reconcile/fixtures-idempotence.test.ts with every other fixture feed.
 */
describe('zero-config CSV: a typical MLS export with only a path', () => {
  it('accepts every valid row, splits the price by class and status, reads HOA, currency, photos, tours', async () => {
    const feed = fixtureFeed('mls-export');
    const result = await ingestFeed(feed, { state: {} });
    const { records, valid, rejected, removed } = result.stats;
    expect({ records, valid, rejected, removed }).toEqual({
      records: 44,
      valid: 37,
      rejected: 2,
      removed: 5,
    });
    // The goal: the rows that are not broken become listings (≥ 95%; here all of them). Read from
    // the file itself: every row but the off-market ones and the two broken ones, each once.
    const rows = parse(await readFile(feed.source.path!), { columns: true }) as Record<string, string>[];
    const broken = new Set([44, 45]); // file lines: one row a line, the header on line 1
    const kept = rows.filter((_, i) => !broken.has(i + 2)).map((row) => row['MLS #']!);
    expect(result.listings.map((l) => l.MLSNumber).sort()).toEqual(
      kept.filter((key) => !result.removals.includes(key)).sort(),
    );
    // Its "Listing URL" column is the listing URL: no mapping hint (one row lacks a value: by row).
    expect(result.hints).toBeUndefined();
    expect(result.rejections.map((r) => [r.row, r.field, r.reason])).toEqual([
      [44, 'Bedrooms', 'not_a_number'],
      [45, 'Url', 'missing'],
    ]);
    const byKey = new Map(result.listings.map((l) => [l.MLSNumber, l]));
    const sales = result.listings.filter((l) => l.SaleType === 'for_sale');
    const rentals = result.listings.filter((l) => l.SaleType === 'for_rent');
    expect([sales.length, rentals.length]).toEqual([28, 9]);
    expect(sales.every((l) => l.SalePrice !== undefined && l.RentPrice === undefined)).toBe(true);
    expect(rentals.every((l) => l.RentPrice !== undefined && l.SalePrice === undefined)).toBe(true);
    expect(result.listings.every((l) => l.CurrencySymbol === '$')).toBe(true);
    // Sub-type over class; a condo has no lot (the marker); HOA per year to monthly.
    expect(byKey.get('S24105')).toMatchObject({
      PropertyType: 'Condominium',
      LotArea: 0,
      HOAMonth: 200,
      ExtensionColumn: expect.arrayContaining([{ Key: 'HOAMonth period', value: 'Annually' }]),
    });
    // Land: no rooms, the marker; lot in acres to square feet.
    expect(byKey.get('S24259')).toMatchObject({
      PropertyType: 'Residential Lot',
      Bedrooms: 0,
      LotArea: 217_800,
    });
    // "324,000.00" prices and photo lists separated by ", ".
    expect(byKey.get('S24028')).toMatchObject({
      SalePrice: 324_000,
      Status: 'Active',
      Images: [1, 2, 3, 4].map((n) => `https://photos.mls.example/S24028/${n}.jpg`),
    });
    expect(byKey.get('S24084')).toMatchObject({ SalePrice: 607_000, CurrencySymbol: '$' }); // "USD 607,000"
    expect(byKey.get('S24154')).toMatchObject({ Tours: '3D' });
    // Under contract stays Active, its status kept; off-market statuses remove.
    expect(byKey.get('S24028')?.ExtensionColumn).toContainEqual({
      Key: 'Source status',
      value: 'Contingent',
    });
    expect(result.removals).toHaveLength(5);
  });
});
