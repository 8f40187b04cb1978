import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { main } from '../../src/cli/main.ts';
import { csvFeedConfig, csvRow, HEADER } from '../helpers/cli-feed.ts';
import { FIXTURE_CONFIG } from '../helpers/fixture-feeds.ts';
import { fixture } from './helpers.ts';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const chunks: string[] = [];
  const errors: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    chunks.push(String(chunk));
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    errors.push(String(chunk));
    return true;
  });
  try {
    const code = await main(['node', 'feed-sync', ...args]);
    return { code, out: chunks.join(''), err: errors.join('') };
  } finally {
    write.mockRestore();
    err.mockRestore();
  }
}

describe('feed-sync validate', () => {
  it('groups rejections by field and reason, lists duplicate keys; --json carries listings and all', async () => {
    // The acme export as fixtures/feeds/feed-sync.yaml configures it, run as fixtures/feeds/README.md says.
    const text = await run(['validate', '-c', FIXTURE_CONFIG, '--feed', 'acme']);
    expect(text.code).toBe(0);
    expect(text.out).toContain('✓ acme: 8 records: 4 valid, 2 rejected, 1 to remove, 1 duplicate (full)');
    expect(text.out).toContain('  Bedrooms not_a_number (1):');
    expect(text.out).toContain('    Row 8 of acme-listings.csv (A-1003): Bedrooms "three" is not a number');
    expect(text.out).toContain('  DaysOnMarket not_a_number (1):');
    // Every problem of a record at once, and a table of all problems by field and reason at the end.
    expect(text.out).toContain(
      '    Row 12 of acme-listings.csv (A-1006): DaysOnMarket "ninety" is not a number; also YearBuilt "20015" is out of range',
    );
    expect(text.out).toContain(
      [
        '  problems by field and reason:',
        '    field         reason        records',
        '    Bedrooms      not_a_number  1',
        '    DaysOnMarket  not_a_number  1',
        '    YearBuilt     out_of_range  1',
      ].join('\n'),
    );
    expect(text.out).toContain(
      '  unknown marker 0 (the feed does not say), listings per field: LotArea 1, YearBuilt 1, DaysOnMarket 1',
    );
    expect(text.out).toContain('  duplicate key A-1001: row 4, row 11 (the last is kept)');
    expect(text.out).toContain('  mapping in use:\n    mapping:\n      fields:\n        MLSNumber: "MLS #"');
    const json = await run(['validate', '-c', FIXTURE_CONFIG, '--feed', 'acme', '--json']);
    const [report] = (
      JSON.parse(json.out) as {
        feeds: { ok: boolean; result: { listings: { MLSNumber: string }[]; rejections: unknown[] } }[];
      }
    ).feeds;
    expect(report?.ok).toBe(true);
    expect(report?.result.listings.map((l) => l.MLSNumber).sort()).toEqual([
      'A-1001',
      'A-1002',
      'A-1005',
      'A-1007',
    ]);
    expect(report?.result.rejections).toHaveLength(2);
  });

  it('prints counts, rejections by reason and the inferred mapping; --json has the whole report', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-validate-'));
    const config = join(dir, 'feed-sync.yaml');
    await writeFile(
      config,
      [
        'api: { secretKey: k }',
        'feeds:',
        '  - id: tabs',
        '    chatbot: SN1',
        `    source: { format: csv, path: ${fixture('csv/tab-inferred.tsv')} }`,
        '  - id: lol',
        '    chatbot: SN1',
        `    source: { format: xml, path: ${fixture('xml/billion-laughs.xml')}, xml: { recordPath: Listings.Listing } }`,
      ].join('\n'),
    );
    const text = await run(['validate', '-c', config, '--feed', 'tabs', '--explain']);
    expect(text.code).toBe(0);
    // No mapping and no currency column: an MLS export's dollars, as --explain says.
    expect(text.out).toContain('✓ tabs: 3 records: 3 valid, 0 rejected');
    expect(text.out).toContain('  listing fields and where they come from:\n    MLSNumber      ← "MLS#"\n');
    expect(text.out).toContain('    CurrencySymbol ← "List Price", else the default "$"\n');
    expect(text.out).toContain(
      '    SaleType       ← "Sale Type", mapped, else "Property Type", mapped, else "Status", mapped, else constant "for_sale"\n',
    );
    expect(text.out).toContain('MLSNumber: MLS#');
    const json = await run(['validate', '-c', config, '--feeds', '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.out) as { feeds: { feedId: string; ok: boolean; code?: string }[] };
    expect(report.feeds.map((f) => [f.feedId, f.ok, f.code])).toEqual([
      ['tabs', true, undefined],
      ['lol', false, 'E_FEED_UNSAFE'],
    ]);
  });
});

describe('feed-sync validate: repeated keys', () => {
  it('shows the first five keys and how many more; a key on many rows is one line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'validate-dup-'));
    const rows = [HEADER];
    for (let round = 0; round < 2; round++) for (let i = 0; i < 8; i++) rows.push(csvRow(i));
    for (let i = 0; i < 40; i++) rows.push(csvRow('Z'));
    await writeFile(join(dir, 'feed.csv'), rows.join(''));
    await writeFile(
      join(dir, 'feed-sync.yaml'),
      csvFeedConfig('http://127.0.0.1:9', { id: 'dup', chatbot: 'D' }),
    );
    const text = await run(['validate', '-c', join(dir, 'feed-sync.yaml'), '--feed', 'dup']);
    expect(text.out).toContain('✓ dup: 56 records: 9 valid, 0 rejected, 0 to remove, 47 duplicates (full)');
    expect(text.out).toContain('  duplicate key M-0: row 2, row 10 (the last is kept)\n');
    expect(text.out).toContain('  … and 4 more duplicate keys (--json lists them all)\n');
    const json = JSON.parse(
      (await run(['validate', '-c', join(dir, 'feed-sync.yaml'), '--feed', 'dup', '--json'])).out,
    ) as {
      feeds: { result: { duplicates: { key: string; refs: { row: number }[]; omitted?: number }[] } }[];
    };
    const z = json.feeds[0]?.result.duplicates.find((d) => d.key === 'M-Z');
    // The first ten rows of the key and its last; the 29 between counted.
    expect(z?.refs.map((r) => r.row)).toEqual([18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 57]);
    expect(z?.omitted).toBe(29);
  });
});

describe('feed-sync validate --explain on a preset', () => {
  it('says which unit a lot size without one is read in, and lists each fact and where it comes from', async () => {
    const text = await run(['validate', '-c', FIXTURE_CONFIG, '--feed', 'listhub-2008', '--explain']);
    expect(text.code).toBe(0);
    // The schema comes from the document's namespace (`$schema`): acres for 2008-03; a 2012-03 lot
    // without a unit is not read (the unknown marker and a fact), never guessed in square feet.
    expect(text.out).toContain(
      '    LotArea        ← "LotSize", unitFrom "LotSize.@areaUnits", when "LotSize.@areaUnits" is set and "LotSize.@areaUnits" is not "unknown", else "LotSize", unit "acres", when "LotSize.@areaUnits" is empty and "$schema" is one of "2008-03"\n',
    );
    expect(text.out).not.toContain('else "LotSize", unit "sqft"');
    expect(text.out).toContain('  ExtensionColumn facts and where they come from:\n');
    expect(text.out).toMatch(
      /\n {4}Agent +← each "ListingParticipants\.Participant": "\{FirstName\} \{LastName\}",/,
    );
    expect(text.out).toMatch(
      /\n {4}Open house +← each "OpenHouses\.OpenHouse": "Date", "StartTime", "EndTime", as openHouse\n/,
    );
    expect(text.out).toMatch(
      /\n {4}Pool +← yes "DetailedCharacteristics\.HasPool" → yes, else "no" when the feed says no\n/,
    );
  });
});

describe('feed-sync validate: the mapping in use, to copy into a config', () => {
  it('a preset is named, its hundreds of lines written out only with --explain (they buried the summary)', async () => {
    const text = await run(['validate', '-c', FIXTURE_CONFIG, '--feed', 'reaxml']);
    expect(text.out).toContain(
      "  mapping in use: the reaxml preset with this feed's own rules over it (--explain writes it out; --json has it)",
    );
    expect(text.out).not.toContain('  mapping in use:\n');
    const explained = await run(['validate', '-c', FIXTURE_CONFIG, '--feed', 'reaxml', '--explain']);
    expect(explained.out).toMatch(/ {2}mapping in use:\n {4}mapping:\n(.*\n)* {6}preset: reaxml\n/);
  });

  it('is written out in full (no YAML anchors or aliases) and reads back as the mapping in effect', async () => {
    const text = await run(['validate', '-c', FIXTURE_CONFIG, '--feed', 'mls-export']);
    const block = text.out.split('  mapping in use:\n')[1]!.split('\n  problems by field')[0]!;
    // A new user found `&a1` and `*a1` here (the inferred mapping shares a rule between fields).
    expect(block).not.toMatch(/[&*]a\d/);
    const json = await run(['validate', '-c', FIXTURE_CONFIG, '--feed', 'mls-export', '--json']);
    const { mapping } = JSON.parse(json.out).feeds[0].result;
    expect(parseYaml(block.replace(/^ {4}/gm, ''))).toEqual({ mapping });
  });
});

describe('feed-sync validate on a feed that yields nothing', () => {
  it('marks a feed whose every record is rejected with ✗ and exits 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-validate-empty-'));
    await writeFile(join(dir, 'bad.csv'), 'MLS,Price\nA,1\nB,2\n');
    await writeFile(
      join(dir, 'feed-sync.yaml'),
      'api: { baseUrl: "http://127.0.0.1:4010" }\nfeeds:\n  - id: bad\n    chatbot: BOT\n    source: { format: csv, path: bad.csv }\n    mapping: { fields: { MLSNumber: MLS, SalePrice: Price } }\n',
    );
    const result = await run(['validate', '-c', join(dir, 'feed-sync.yaml'), '--feed', 'bad']);
    expect(result.out).toMatch(/^✗ bad: 2 records: 0 valid, 2 rejected/);
    expect(result.code).toBe(1);
    // --json says the same: not ok, with a code and the report that says why; a good feed beside it is ok.
    await writeFile(join(dir, 'feed.csv'), HEADER + csvRow(1));
    const good = csvFeedConfig('http://127.0.0.1:4010', { id: 'good', chatbot: 'BOT' }).split('feeds:\n')[1];
    await writeFile(
      join(dir, 'feed-sync.yaml'),
      `api: { baseUrl: "http://127.0.0.1:4010" }\nfeeds:\n  - id: bad\n    chatbot: BOT\n    source: { format: csv, path: bad.csv }\n    mapping: { fields: { MLSNumber: MLS, SalePrice: Price } }\n${good}`,
    );
    const json = await run(['validate', '-c', join(dir, 'feed-sync.yaml'), '--feeds', '--json']);
    expect(json.code).toBe(1);
    const { feeds } = JSON.parse(json.out) as {
      feeds: {
        feedId: string;
        ok: boolean;
        code?: string;
        error?: string;
        result: { stats: { rejected: number } };
      }[];
    };
    expect(feeds.map((f) => [f.feedId, f.ok, f.code, f.result.stats.rejected])).toEqual([
      ['bad', false, 'E_NO_VALID_LISTING', 2],
      ['good', true, undefined, 0],
    ]);
    expect(feeds[0]?.error).toBe(
      'no valid listing: all 2 record(s) rejected; fix the mapping (see the rejections)',
    );
    // A feed that cannot be read beside it: the one line says both.
    await writeFile(
      join(dir, 'feed-sync.yaml'),
      'api: { baseUrl: "http://127.0.0.1:4010" }\nfeeds:\n  - id: bad\n    chatbot: BOT\n    source: { format: csv, path: bad.csv }\n    mapping: { fields: { MLSNumber: MLS, SalePrice: Price } }\n  - id: gone\n    chatbot: BOT\n    source: { format: csv, path: gone.csv }\n',
    );
    // A removal beside the rejections changes nothing: a sync of this full feed trips its
    // empty-feed guard (a new user's feed said ✓ and exit 0 here, and its sync exit 3).
    await writeFile(
      join(dir, 'feed.csv'),
      HEADER + csvRow(2).replace('Active', 'Withdrawn') + csvRow(3, { price: 'call agent' }),
    );
    await writeFile(
      join(dir, 'feed-sync.yaml'),
      csvFeedConfig('http://127.0.0.1:4010', { id: 'mixed', chatbot: 'BOT' }),
    );
    const mixed = await run(['validate', '-c', join(dir, 'feed-sync.yaml'), '--feed', 'mixed']);
    expect(mixed.out).toMatch(/^✗ mixed: 2 records: 0 valid, 1 rejected, 1 to remove/);
    expect(mixed.code).toBe(1);
    const mixedJson = await run(['validate', '-c', join(dir, 'feed-sync.yaml'), '--feed', 'mixed', '--json']);
    expect(JSON.parse(mixedJson.out).feeds[0]).toMatchObject({
      ok: false,
      code: 'E_NO_VALID_LISTING',
      error:
        'no valid listing: 1 of 2 record(s) rejected, 1 to remove; a sync deletes nothing while the feed has no valid listing: fix the mapping (see the rejections)',
    });
    await writeFile(
      join(dir, 'feed-sync.yaml'),
      'api: { baseUrl: "http://127.0.0.1:4010" }\nfeeds:\n  - id: bad\n    chatbot: BOT\n    source: { format: csv, path: bad.csv }\n    mapping: { fields: { MLSNumber: MLS, SalePrice: Price } }\n  - id: gone\n    chatbot: BOT\n    source: { format: csv, path: gone.csv }\n',
    );
    const both = await run(['validate', '-c', join(dir, 'feed-sync.yaml'), '--feeds']);
    expect(both.code).toBe(1);
    expect(both.err).toBe(
      'feed-sync: 1 of 2 feed(s) could not be read; no valid listing in bad: fix the mapping (see the problems above)\n',
    );
  });
});
