import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliFeed } from '../helpers/cli-feed.ts';

// A zero-config CSV (only a path) whose header has nothing the inference reads as the listing URL.
const CSV = [
  'MLS #,Status,List Price,Beds,Baths,SqFt,Address,City,State,Zip,Property Type,Year Built',
  'S1001,Active,450000,3,2,1800,12 Oak St,Austin,TX,78701,Single Family,1998',
  'S1002,Active,325000,2,1,1100,4 Elm Ave,Austin,TX,78702,Condominium,2005',
  'S1003,Active,615000,4,3,2600,88 Pine Rd,Austin,TX,78703,Single Family,2012',
  '',
].join('\n');

const config = (url: string, mapping = '') => `
api: { baseUrl: ${url} }
stateFile: state.json
feeds:
  - id: export
    chatbot: SN-URL
    source: { format: csv, path: feed.csv }
${mapping}`;

const t = useCliFeed((url) => config(url));
const HINT = 'hint: no column was recognized as the listing URL (Url';
const FIX =
  'fix: map Url in feed export\'s mapping, to a column: `mapping: { preset: mls-csv, fields: { Url: "<column>" } }`, or built from the key: `mapping: { preset: mls-csv, fields: { Url: { template: "https://example.com/listing/{MLS #}" } } }`';
const count = (text: string, part: string) => text.split(part).length - 1;

describe('a zero-config CSV with no listing-URL column', () => {
  it('validate says so once, with the fix, and keeps every row rejected by row (text and --json)', async () => {
    await writeFile(join(t.dir, 'feed.csv'), CSV);
    expect(await t.cli('validate', '--feed', 'export')).toBe(1);
    const text = t.out();
    expect(count(text, HINT)).toBe(1);
    expect(text).toContain(`    ${FIX}`);
    expect(text).toContain('  Url missing (3):\n    Row 2 of feed.csv (S1001): Url is missing (required)');
    t.reset();
    await t.cli('validate', '--feed', 'export', '--json');
    const [report] = (
      JSON.parse(t.out()) as {
        feeds: { result: { hints: unknown[]; rejections: { key: string; field: string }[] } }[];
      }
    ).feeds;
    expect(report?.result.hints).toEqual([
      {
        field: 'Url',
        code: 'no_url_column',
        message: expect.stringContaining('so every row is rejected with "Url is missing"'),
        fix: FIX.replace(/^fix: /, ''),
      },
    ]);
    expect(report?.result.rejections.map((r) => `${r.key} ${r.field}`)).toEqual([
      'S1001 Url',
      'S1002 Url',
      'S1003 Url',
    ]);
  });

  it('the run report says so once (text and --json); the rows stay rejected and hold their keys', async () => {
    await writeFile(join(t.dir, 'feed.csv'), CSV);
    await t.cli('sync', '--feed', 'export');
    expect(count(t.out(), HINT)).toBe(1);
    expect(t.out()).toContain(`    ${FIX}`);
    expect(t.out()).toContain(
      'rejected 3 feed record(s):\n    Row 2 of feed.csv (S1001): Url is missing (required)',
    );
    t.reset();
    await t.cli('sync', '--feed', 'export', '--json');
    expect(JSON.parse(t.out())).toMatchObject({
      rejected: 3,
      held: 3,
      created: 0,
      hints: [{ code: 'no_url_column', field: 'Url' }],
    });
    expect(t.sandbox.listings('SN-URL')).toEqual([]);
  });

  it('the fix it gives works: the rest is still inferred, no hint, every row a listing', async () => {
    await writeFile(join(t.dir, 'feed.csv'), CSV);
    await t.writeConfig(
      config(
        t.sandbox.url,
        '    mapping: { preset: mls-csv, fields: { Url: { template: "https://example.com/listing/{MLS #}" } } }\n',
      ),
    );
    expect(await t.cli('sync', '--feed', 'export')).toBe(0);
    expect(t.out()).not.toContain('hint:');
    const stored = t.sandbox.listings('SN-URL').map((l) => [l.MLSNumber, l.Url, l.Bedrooms]);
    expect(stored.sort()).toEqual([
      ['S1001', 'https://example.com/listing/S1001', 3],
      ['S1002', 'https://example.com/listing/S1002', 2],
      ['S1003', 'https://example.com/listing/S1003', 4],
    ]);
  });
});

describe('a hand mapping that names a column the CSV header does not have (a new user’s typo)', () => {
  const mapping = `    mapping:
      fields:
        MLSNumber: "MLS #"
        Url: { template: "https://example.com/listing/{MLS #}" }
        Status: Status
        SaleType: { const: for_sale }
        PropertyType: Property Type
        CurrencySymbol: { const: USD }
        SalePrice: List Price
        Bedrooms: Beds
        Bathrooms: Baths
        YearBuilt: Year Built
        BuildingArea: Sq Ft
        Images: { from: Photos, split: "|" }
        City: [Town, City]
      extensions:
        fields:
          Agent: Listing Agnt
          Zip code: Zip
`;

  it('names each field whose columns are none of the header, with the column meant; a field with one of its columns is fine', async () => {
    await writeFile(
      join(t.dir, 'feed.csv'),
      CSV.replace('Year Built', 'Year Built,Photo URLs').replaceAll(/1998$|2005$|2012$/gm, '$&,'),
    );
    await t.writeConfig(config(t.sandbox.url, mapping));
    await t.cli('validate', '--feed', 'export', '--json');
    const [report] = (JSON.parse(t.out()) as { feeds: { result: { hints: unknown[] } }[] }).feeds;
    expect(report?.result.hints).toEqual([
      {
        field: 'BuildingArea',
        code: 'unknown_column',
        message:
          'mapping.fields.BuildingArea reads "Sq Ft", which the CSV header does not have: every row leaves BuildingArea unset',
        fix: 'did you mean "SqFt"? Map BuildingArea in feed export to a column of the header',
      },
      {
        field: 'Images',
        code: 'unknown_column',
        message: expect.stringContaining(
          'mapping.fields.Images reads "Photos", which the CSV header does not have',
        ),
        fix: expect.stringMatching(/^did you mean "Photo URLs"\?/),
      },
      {
        code: 'unknown_column',
        message:
          'mapping.extensions.fields.Agent reads "Listing Agnt", which the CSV header does not have: no listing gets the fact Agent',
        fix: 'map the fact Agent in feed export to a column of the header',
      },
    ]);
    // The run says it too, and still syncs what the rows give.
    t.reset();
    expect(await t.cli('sync', '--feed', 'export')).toBe(0);
    expect(t.out()).toContain('hint: mapping.fields.BuildingArea reads "Sq Ft"');
    expect(t.sandbox.listings('SN-URL')).toHaveLength(3);
  });
});
