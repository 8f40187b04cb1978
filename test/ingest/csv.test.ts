import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type FeedItem, ingestFeed, readFeed } from '../../src/ingest/index.ts';
import { readCsv } from '../../src/sources/formats/read-csv.ts';
import { FeedError } from '../../src/sources/index.ts';
import { eachRecord } from '../../src/testing/each-record.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';
import { feed, fixture } from './helpers.ts';

/** The acme export as fixtures/feeds/feed-sync.yaml reads it, from `path` (a copy, or a missing file). */
const acme = (path?: string) => fixtureFeed('acme', path ? { source: { path } } : {});

describe('CSV feeds', () => {
  it('reads the acme export: BOM, noise rows, quoted newlines, blank lines, duplicates, removals', async () => {
    const result = await ingestFeed(acme(), { state: {} });
    expect(result.notModified).toBe(false);
    expect(result.mode).toBe('full');
    expect(result.stats).toEqual({ records: 8, valid: 4, rejected: 2, removed: 1, duplicates: 1 });
    const { records, valid, rejected, removed, duplicates } = result.stats;
    expect(valid + rejected + removed + duplicates).toBe(records);
    expect(result.listings.map((l) => l.MLSNumber).sort()).toEqual(['A-1001', 'A-1002', 'A-1005', 'A-1007']);
    // The land lot has no year built and no days on market: the unknown marker 0, counted, never 1900.
    expect(result.listings.find((l) => l.MLSNumber === 'A-1007')).toMatchObject({
      YearBuilt: 0,
      DaysOnMarket: 0,
    });
    expect(result.unknownMarkers).toEqual({ LotArea: 1, YearBuilt: 1, DaysOnMarket: 1 });
    // Last wins: the second A-1001 row carries the reduced price.
    expect(result.listings.find((l) => l.MLSNumber === 'A-1001')).toMatchObject({
      SalePrice: 1_199_000,
      Bathrooms: 2.5,
      BuildingArea: 3120,
      LotArea: 10_890,
      Images: ['https://img.acme.example/a1001/1.jpg'],
      ExtensionColumn: [{ Key: 'Agent', value: 'Pat Example' }],
    });
    expect(result.listings.find((l) => l.MLSNumber === 'A-1002')).toMatchObject({
      Status: 'Active',
      Description: 'Quoted remarks\nspanning two lines, with a comma',
      LotArea: 0,
    });
    expect(result.removals).toEqual(['A-1004']);
    expect(result.duplicates).toEqual([
      {
        key: 'A-1001',
        refs: [
          { feedId: 'acme', index: 0, row: 4, key: 'A-1001' },
          { feedId: 'acme', index: 5, row: 11, key: 'A-1001' },
        ],
      },
    ]);
    expect(result.rejections).toEqual([
      expect.objectContaining({
        row: 8,
        key: 'A-1003',
        field: 'Bedrooms',
        value: 'three',
        reason: 'not_a_number',
        message: 'Row 8 of acme-listings.csv: Bedrooms "three" is not a number',
      }),
      expect.objectContaining({
        row: 12,
        key: 'A-1006',
        field: 'DaysOnMarket',
        value: 'ninety',
        reason: 'not_a_number',
        // Every problem of the record at once, the first one also as field/reason/message.
        problems: [
          {
            field: 'DaysOnMarket',
            value: 'ninety',
            reason: 'not_a_number',
            message: 'DaysOnMarket "ninety" is not a number',
          },
          expect.objectContaining({ field: 'YearBuilt', value: '20015', reason: 'out_of_range' }),
        ],
      }),
    ]);
  });

  it('streams items from readFeed in feed order', async () => {
    const kinds: FeedItem['kind'][] = [];
    for await (const item of readFeed(acme(), { state: {} })) kinds.push(item.kind);
    expect(kinds).toEqual([
      'listing',
      'listing',
      'rejected',
      'remove',
      'listing',
      'listing',
      'rejected',
      'listing',
    ]);
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('numbers rows by the line they start on, as a person counts (%s)', async (_, eol) => {
    const lines = [
      'Export of 2026-01-01',
      'MLS #,Remarks,Beds',
      'A,plain,1',
      '',
      'B,"two',
      'lines",2',
      ',,',
      '   ',
      'C,"three',
      '',
      'lines",3',
      'D,last,4',
    ];
    // Chunks cut anywhere, even between the \r and \n of a line break.
    const text = lines.join(eol) + eol;
    const chunks = (async function* () {
      for (let i = 0; i < text.length; i += 7) yield text.slice(i, i + 7);
    })();
    const rows: [unknown, number | undefined][] = [];
    for await (const record of eachRecord(readCsv('rows', chunks, { skipRows: 1, quote: '"' })))
      rows.push([record.fields['MLS #'], record.row]);
    expect(rows).toEqual([
      ['A', 3],
      ['B', 5],
      ['C', 9],
      ['D', 12],
    ]);
  });

  it('refuses a file that ends in the middle of a row (a cut download), unless told the exporter writes no final break', async () => {
    const text = 'MLS #,Remarks,Photos\nA,ok,https://i.example/a.jpg\nB,cut,https://i.example/b.jpg|ht';
    const read = async (allowUnterminatedLastRow?: boolean) => {
      const keys: unknown[] = [];
      const chunks = (async function* () {
        yield text;
      })();
      const options = {
        skipRows: 0,
        quote: '"',
        ...(allowUnterminatedLastRow ? { allowUnterminatedLastRow } : {}),
      };
      for await (const record of eachRecord(readCsv('cut', chunks, options)))
        keys.push(record.fields['MLS #']);
      return keys;
    };
    await expect(read()).rejects.toMatchObject({
      code: 'E_FEED_PARSE',
      retryable: true,
      message: expect.stringContaining('the file ends in the middle of row 3 (no line break after it)'),
    });
    expect(await read(true)).toEqual(['A', 'B']);
  });

  it('a download cut inside a quoted field says so, naming the row (it said `Quote Not Closed`)', async () => {
    const chunks = (async function* () {
      yield 'MLS #,Remarks\nA,ok\nB,"a long remark, cut';
    })();
    const read = async () => {
      for await (const _ of eachRecord(readCsv('cut', chunks, { skipRows: 0, quote: '"' }))) void _;
    };
    await expect(read()).rejects.toMatchObject({
      code: 'E_FEED_PARSE',
      retryable: true,
      message: expect.stringContaining(
        'the file ends inside a quoted field of row 3 (its quote never closes)',
      ),
    });
  });

  it('names the cut row even when it holds one or two characters', async () => {
    for (const last of ['C', 'C,']) {
      const chunks = (async function* () {
        yield `MLS #,Remarks\nA,ok\nB,ok\n${last}`;
      })();
      const read = async () => {
        for await (const _ of eachRecord(readCsv('cut', chunks, { skipRows: 0, quote: '"' }))) void _;
      };
      await expect(read()).rejects.toMatchObject({
        message: expect.stringContaining('the file ends in the middle of row 4 '),
      });
    }
  });

  it('rejects a row whose fields do not fit the header, by row, keeping its key; padded rows are fine', async () => {
    const text = [
      'MLS #,Address,City,State,Zip,,',
      'A,1 Elm St,Springfield,IL,62701,,',
      'B,12 Oak St, Unit 3,Springfield,IL,62701',
      'C,5 Pine Ct,Springfield',
      'D,7 Birch Ln,Springfield,IL,62705',
      '',
    ].join('\n');
    const chunks = (async function* () {
      yield text;
    })();
    const seen: [unknown, number | undefined, string | undefined][] = [];
    for await (const record of eachRecord(readCsv('cols', chunks, { skipRows: 0, quote: '"' })))
      seen.push([record.fields['MLS #'], record.row, record.problem?.reason]);
    expect(seen).toEqual([
      ['A', 2, undefined],
      ['B', 3, 'column_count'],
      ['C', 4, 'column_count'],
      ['D', 5, undefined],
    ]);
  });

  it('keeps every row when line endings are mixed in one file (a bare LF inside a CRLF export)', async () => {
    const text = 'MLS #,Remarks,Beds\r\nA,"two\nlines",1\nB,plain,2\rC,plain,3\r\nD,last,4\n';
    const rows: [unknown, unknown, number | undefined][] = [];
    const chunks = (async function* () {
      yield text;
    })();
    for await (const record of eachRecord(readCsv('mixed', chunks, { skipRows: 0, quote: '"' })))
      rows.push([record.fields['MLS #'], record.fields.Beds, record.row]);
    expect(rows).toEqual([
      ['A', '1', 2],
      ['B', '2', 4],
      ['C', '3', 5],
      ['D', '4', 6],
    ]);
  });

  it('skips a local file unchanged since the last successful run, like a 304', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-'));
    const path = join(dir, 'acme.csv');
    await writeFile(path, await readFile(fixture('csv/acme-listings.csv')));
    const first = await ingestFeed(acme(path), { state: {} });
    expect(first.notModified).toBe(false);
    expect(first.sourceState.etag).toMatch(/^file:\d+-\d+$/);
    const state = first.sourceState;
    expect(await ingestFeed(acme(path), { state })).toMatchObject({ notModified: true, listings: [] });
    expect((await ingestFeed(acme(path), { state, forceFull: true })).notModified).toBe(false);
    const unconditional = fixtureFeed('acme', { source: { path, conditional: false } });
    expect((await ingestFeed(unconditional, { state })).notModified).toBe(false);
    await writeFile(path, `${await readFile(path, 'utf8')}A-1009,Active,House,"$1",1,1,0,1,,2001,1,1\n`);
    const changed = await ingestFeed(acme(path), { state });
    expect(changed.notModified).toBe(false);
    expect(changed.sourceState.etag).not.toBe(state.etag);
  });

  it("counts DaysOnMarket from a listing date with the run's clock (deps.now)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-'));
    const path = join(dir, 'dated.csv');
    await writeFile(path, 'MLS #,Listed\nD-1,2024-04-30\nD-2,2024-05-10\n');
    const result = await ingestFeed(
      feed({
        id: 'dated',
        source: { format: 'csv', path },
        mapping: {
          fields: {
            MLSNumber: 'MLS #',
            DaysOnMarket: { daysSince: 'Listed' },
            Url: { template: 'https://acme.example/listing/{MLS #}' },
          },
          defaults: {
            Status: 'Active',
            SaleType: 'for_sale',
            PropertyType: 'House',
            CurrencySymbol: '$',
            Bedrooms: 1,
            Bathrooms: 1,
            YearBuilt: 2000,
            LotArea: 0,
            BuildingArea: 500,
            ParkingSpots: 0,
          },
        },
      }),
      { state: {}, now: () => new Date('2024-05-10T12:00:00Z') },
    );
    expect(result.rejections).toEqual([]);
    expect(result.listings.map((l) => [l.MLSNumber, l.DaysOnMarket])).toEqual([
      ['D-1', 10],
      ['D-2', 0],
    ]);
  });

  it('reads a gzipped file the same', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-'));
    const path = join(dir, 'acme.csv.gz');
    await writeFile(path, gzipSync(await readFile(fixture('csv/acme-listings.csv'))));
    expect((await ingestFeed(acme(path), { state: {} })).stats.valid).toBe(4);
  });

  it('reads Windows-1252 with semicolons and decimal commas', async () => {
    const result = await ingestFeed(fixtureFeed('euro-1252'), { state: {} });
    expect(result.rejections).toEqual([]);
    expect(result.removals).toEqual(['ES-204']);
    expect(result.listings[0]).toMatchObject({
      MLSNumber: 'ES-201',
      SalePrice: 249_500,
      CurrencySymbol: '€',
      BuildingArea: 84.5,
      City: 'Málaga',
      Description: 'Piso luminoso; céntrico',
      AreaUnit: 'Square Meters',
    });
    expect(result.listings[1]).toMatchObject({ PropertyType: 'Ático', Bathrooms: 1.5 });
    expect(result.listings[2]).toMatchObject({ SalePrice: 1_150_000, LotArea: 2500, Status: 'Sold' });
  });

  it('infers a mapping from a tab-separated header and keeps the other columns as extensions', async () => {
    const result = await ingestFeed(fixtureFeed('tab-inferred'), { state: {} });
    expect(result.rejections).toEqual([]);
    expect(result.mapping).toMatchObject({
      fields: { MLSNumber: 'MLS#', Bedrooms: 'Beds', SalePrice: [{ from: 'List Price' }] },
    });
    expect(result.listings[0]).toMatchObject({
      MLSNumber: 'T-1',
      SalePrice: 450_000,
      Bathrooms: 2,
      Url: 'https://tabs.example/T-1',
      Images: ['https://img.tabs.example/1a.jpg', 'https://img.tabs.example/1b.jpg'],
      ExtensionColumn: [
        { Key: 'Features', value: 'Pool; Fireplace' },
        { Key: 'Price Text', value: 'Offers over 450k' },
      ],
    });
    expect(result.listings[2]).toMatchObject({ SaleType: 'for_rent' });
  });

  it("preset mls-csv infers from the header and merges the feed's own fields over it", async () => {
    const mlsCsv = fixtureFeed('tab-inferred', {
      mapping: { preset: 'mls-csv', fields: { Url: { template: 'https://acme.example/listing/{MLS#}' } } },
    });
    const result = await ingestFeed(mlsCsv, { state: {} });
    expect(result.rejections).toEqual([]);
    expect(result.mapping).toMatchObject({ fields: { MLSNumber: 'MLS#', Bedrooms: 'Beds' } });
    expect(result.listings[0]).toMatchObject({ MLSNumber: 'T-1', Url: 'https://acme.example/listing/T-1' });
  });

  it('fails with E_FEED_EMPTY on a header-only file, never an empty result', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-'));
    const path = join(dir, 'empty.csv');
    await writeFile(path, 'MLS #,Status\r\n\r\n');
    await expect(ingestFeed(feed({ source: { format: 'csv', path } }), { state: {} })).rejects.toMatchObject({
      code: 'E_FEED_EMPTY',
      feedId: 'test-feed',
    });
  });

  it('fails with E_FEED_PARSE when the file is not CSV', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-'));
    const path = join(dir, 'login.csv');
    await writeFile(path, '<!doctype html><html><body>Please log in</body></html>\n');
    const error = await ingestFeed(feed({ source: { format: 'csv', path } }), { state: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FeedError);
    expect(error).toMatchObject({ code: 'E_FEED_PARSE' });
    expect((error as Error).message).toMatch(/not CSV/);
  });

  it('fails with E_FEED_PARSE on an unterminated quote', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-'));
    const path = join(dir, 'broken.csv');
    await writeFile(path, 'MLS #,Remarks\nA,"never closed\nB,ok\n');
    await expect(ingestFeed(feed({ source: { format: 'csv', path } }), { state: {} })).rejects.toMatchObject({
      code: 'E_FEED_PARSE',
    });
  });

  it('fails with E_FEED_FETCH on a missing file', async () => {
    await expect(ingestFeed(acme('/nonexistent/feed.csv'), { state: {} })).rejects.toMatchObject({
      code: 'E_FEED_FETCH',
    });
  });
});

/** A small export's header, a row of it by key, and its mapping: the notes' tests below. */
const header = 'MLS,Status,Type,Price,Beds,Baths,Url';
const row = (key: string) => `${key},Active,Condo,300000,2,1,https://x.example/${key}`;
const mapping = {
  fields: {
    MLSNumber: 'MLS',
    Status: 'Status',
    PropertyType: 'Type',
    SaleType: { const: 'for_sale' },
    SalePrice: 'Price',
    CurrencySymbol: { const: '$' },
    Bedrooms: 'Beds',
    Bathrooms: 'Baths',
    Url: 'Url',
  },
};

describe('a footer line under a wide header (a new user’s export)', () => {
  it('is a note, skipped and said once, not a rejection, in the key’s column too; a cut row of values still is one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-footer-'));
    const path = join(dir, 'export.csv');
    await writeFile(
      path,
      `${['Acme Realty export, 1 Nov 2026', header, row('F-1'), row('F-2'), 'F-3,Active', 'Total: 3 listings'].join('\n')}\n`,
    );
    const result = await ingestFeed(
      feed({ source: { format: 'csv', path, csv: { skipRows: 1 } }, mapping }),
      {
        state: {},
      },
    );
    expect(result.listings.map((l) => l.MLSNumber)).toEqual(['F-1', 'F-2']);
    // A cut row of values is a rejection, as before (its key unread: its two readings disagree).
    expect(result.rejections.map((r) => [r.row, r.reason])).toEqual([[5, 'column_count']]);
    expect(result.hints).toEqual([
      expect.objectContaining({
        code: 'note_rows',
        message:
          'row 6 of export.csv holds only a note, not a listing ("Total: 3 listings"): skipped, not rejected',
      }),
    ]);
  });
});

describe('a header repeated mid-file (two exports joined)', () => {
  it('is a note, not a rejection holding a listing keyed by the column name', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-header-again-'));
    const path = join(dir, 'joined.csv');
    await writeFile(path, `${[header, row('J-1'), header, row('J-2')].join('\n')}\n`);
    const result = await ingestFeed(feed({ source: { format: 'csv', path }, mapping }), { state: {} });
    expect(result.listings.map((l) => l.MLSNumber)).toEqual(['J-1', 'J-2']);
    expect(result.rejections).toEqual([]);
    expect(result.held.length).toBe(0);
    expect(result.hints?.map((h) => h.message)).toEqual([
      'row 3 of joined.csv holds only a note, not a listing ("the header line again"): skipped, not rejected',
    ]);
  });
});

describe("Excel's sep= line (a new user's export)", () => {
  const read = async (text: string, options: { skipRows?: number; delimiter?: string } = {}) => {
    const chunks = (async function* () {
      for (let i = 0; i < text.length; i += 5) yield text.slice(i, i + 5);
    })();
    const rows: [unknown, unknown, number | undefined][] = [];
    for await (const record of eachRecord(
      readCsv('sep', chunks, { skipRows: options.skipRows ?? 0, quote: '"', ...options }),
    ))
      rows.push([record.fields.MLS, record.fields.Price, record.row]);
    return rows;
  };

  it('names the delimiter and is no header: rows numbered by their file line', async () => {
    expect(await read('sep=;\nMLS;Price\nA;"1,5"\nB;2\n')).toEqual([
      ['A', '1,5', 3],
      ['B', '2', 4],
    ]);
    expect(await read('\uFEFFsep=,\r\nMLS,Price\r\nA,1\r\n')).toEqual([['A', '1', 3]]);
    expect(await read('sep=\t\nMLS\tPrice\nA\t1\n')).toEqual([['A', '1', 3]]);
    // Under noise rows too; a delimiter the config names wins over it.
    expect(await read('Export 2026\nsep=;\nMLS;Price\nA;1\n', { skipRows: 1 })).toEqual([['A', '1', 4]]);
    expect(await read('sep=;\nMLS,Price\nA,1\n', { delimiter: ',' })).toEqual([['A', '1', 3]]);
  });

  it('a header that only starts like one is a header', async () => {
    expect(await read('sep=;x,MLS,Price\n1,A,2\n')).toEqual([['A', '2', 2]]);
  });
});
