import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvFeedConfig, csvRow, HEADER, useCliFeed } from '../helpers/cli-feed.ts';

// A real CSV file through the real CLI: day 1 creates five listings, on day 2 one row turns bad.
const t = useCliFeed((url) =>
  csvFeedConfig(url, { id: 'held-feed', chatbot: 'HELD-BOT', feed: 'maxDeleteShare: 0.5' }),
);
const row = (n: number | string, price: number | string = 300_000, beds: number | string = 2) =>
  csvRow(n, { price, beds, host: 'held.example' });
const cli = (...args: string[]) => t.cli(...args);
const feed = (rows: string) => t.feed(rows);
const stored = (key: string) => t.sandbox.listings('HELD-BOT').find((l) => l.MLSNumber === key);

describe('a rejected record never costs its listing', () => {
  it('day 2: a known listing whose row turns bad survives unchanged and the report names it', async () => {
    await feed([1, 2, 3, 4, 5].map((n) => row(n)).join(''));
    expect(await cli('sync', '--feed', 'held-feed')).toBe(0);
    const before = stored('M-3');
    expect(before).toBeDefined();

    // Day 2: M-3's price is garbage and its bedrooms too; M-2 changes price legitimately; a row with
    // no MLS number at all holds nothing.
    await feed(
      [
        row(1),
        row(2, 250_000),
        row(3, 'call us', 'three'),
        row(4),
        row(5),
        ',Active,Condo,1,1,1,1,1,1,1,1,x\n',
      ].join(''),
    );
    t.reset();
    await cli('sync', '--feed', 'held-feed');
    expect(t.out()).toContain('held 1 listing(s), kept exactly as they are:');
    expect(t.out()).toMatch(
      / {4}M-3 \(ID \d+\): held: its record was rejected: Row 4 of feed.csv: SalePrice "call us" is not a number/,
    );
    // The rejected row's line names its key (issue 22); the hold gives the reason in words.
    // Every problem of the record, as validate says them.
    expect(t.out()).toContain(
      '    Row 4 of feed.csv (M-3): SalePrice "call us" is not a number; also Bedrooms "three" is not a number\n',
    );
    // A record without its key is first of all that.
    expect(t.out()).toContain(
      '    Row 7 of feed.csv: MLSNumber is missing (required); also Url "x" is not a valid URL',
    );
    expect(t.out()).not.toContain('not_a_number');
    expect(t.out()).toContain(
      '1 rejected record(s) had no readable key: such a row, like a broken one, holds only the listings whose keys appear in its cells',
    );
    expect(stored('M-3')).toEqual(before);
    expect(stored('M-2')?.SalePrice).toBe(250_000);
    expect(t.sandbox.listings('HELD-BOT')).toHaveLength(5);

    t.reset();
    await cli('sync', '--feed', 'held-feed', '--json', '--force-full');
    const report = JSON.parse(t.out());
    expect(report).toMatchObject({
      deleted: 0,
      read: 6,
      rejected: 2,
      held: 1,
      rejectedWithoutKey: 1,
      heldKeys: [{ key: 'M-3', row: 4, reason: 'not_a_number', ids: [before?.ID] }],
    });
    expect(stored('M-3')).toEqual(before);
  });

  it('a key rejected twice is held with its last record, beside other held keys: nothing of theirs deleted', async () => {
    await feed([1, 2, 3].map((n) => row(n)).join(''));
    expect(await cli('sync', '--feed', 'held-feed')).toBe(0);
    const ids = [1, 2].map((n) => stored(`M-${n}`)?.ID);
    await feed([row(1, 'cheap'), row(1, 'cheaper'), row(2, 'free'), row(3)].join(''));
    t.reset();
    await cli('sync', '--feed', 'held-feed', '--json');
    const report = JSON.parse(t.out());
    expect(report).toMatchObject({ deleted: 0, held: 2, heldOnPlatform: 2, unchanged: 1 });
    expect(
      report.heldKeys.map((h: { key: string; row: number; message: string; ids: number[] }) => [
        h.key,
        h.row,
        h.message,
        h.ids,
      ]),
    ).toEqual([
      ['M-1', 3, 'Row 3 of feed.csv: SalePrice "cheaper" is not a number', [ids[0]]],
      ['M-2', 4, 'Row 4 of feed.csv: SalePrice "free" is not a number', [ids[1]]],
    ]);
    expect(t.sandbox.listings('HELD-BOT')).toHaveLength(3);
  });

  it('a run whose every record is rejected deletes nothing', async () => {
    await feed([1, 2].map((n) => row(n)).join(''));
    expect(await cli('sync', '--feed', 'held-feed')).toBe(0);
    await feed([1, 2].map((n) => row(n, 'cheap')).join(''));
    t.reset();
    await cli('sync', '--feed', 'held-feed', '--json');
    const report = JSON.parse(t.out());
    expect(report).toMatchObject({ deleted: 0, held: 2, heldDeletes: 0 });
    // Every listing is held by its record: the guard has no delete to hold back, and says so.
    expect(report.reason).toMatch(
      /^the feed yielded no valid listing: nothing deleted or changed; fix the feed/,
    );
    expect(t.sandbox.listings('HELD-BOT')).toHaveLength(2);
  });
});

describe('encoding is decided per row, never a whole-file flip', () => {
  it('one stray Windows-1252 byte is read as such, reported, and rewrites no other listing', async () => {
    const accented = (n: number, type = 'Maison à vendre') =>
      `M-${n},Active,${type},300000,2,1,900,0,1990,3,1,https://held.example/l/M-${n}\n`;
    await feed([1, 2, 3, 4, 5].map((n) => accented(n)).join(''));
    expect(await cli('sync', '--feed', 'held-feed')).toBe(0);
    expect(stored('M-2')?.PropertyType).toBe('Maison à vendre');

    // Day 2: the same text, but row 4 (M-3) was typed in a Windows-1252 editor: 'à' is the byte 0xE0.
    const utf8 = Buffer.from(HEADER + [1, 2].map((n) => accented(n)).join(''));
    const stray = Buffer.concat([
      Buffer.from('M-3,Active,Maison '),
      Buffer.from([0xe0]),
      Buffer.from(' vendre,300000,2,1,900,0,1990,3,1,https://held.example/l/M-3\n'),
    ]);
    const rest = Buffer.from([4, 5].map((n) => accented(n)).join(''));
    await writeFile(join(t.dir, 'feed.csv'), Buffer.concat([utf8, stray, rest]));
    t.reset();
    await cli('sync', '--feed', 'held-feed', '--json');
    const report = JSON.parse(t.out());
    expect(report).toMatchObject({
      outcome: 'ok',
      updated: 0,
      unchanged: 5,
      decodedAs1252: [4],
      decodedAs1252Count: 1,
    });
    expect(stored('M-3')?.PropertyType).toBe('Maison à vendre');
  });
});

describe('a feed cut short deletes nothing', () => {
  it('a file that ends in the middle of a row fails the run: no delete, no half-written listing', async () => {
    await feed([1, 2, 3, 4, 5].map((n) => row(n)).join(''));
    expect(await cli('sync', '--feed', 'held-feed')).toBe(0);
    const before = t.sandbox.listings('HELD-BOT');
    // The download stopped inside row 4 (M-3's Url cut): rows 5 and 6 never arrived.
    const full = HEADER + [1, 2, 3].map((n) => row(n)).join('');
    await writeFile(join(t.dir, 'feed.csv'), full.slice(0, full.length - 12));
    t.reset();
    expect(await cli('sync', '--feed', 'held-feed')).toBe(1);
    expect(t.out()).toContain('the file ends in the middle of row 4');
    expect(t.sandbox.listings('HELD-BOT')).toEqual(before);
  });
});

describe('unknown markers in the run report', () => {
  it('counts, per field, the listings whose value the feed did not give (YearBuilt 0), in text and --json', async () => {
    await feed([row(1), row(2).replace(',1990,', ',,'), row(3).replace(',1990,', ',,')].join(''));
    await cli('sync', '--feed', 'held-feed');
    expect(t.out()).toContain('unknown (0, the feed has no value): YearBuilt 2');
    t.reset();
    await cli('sync', '--feed', 'held-feed', '--json');
    expect(JSON.parse(t.out())).toMatchObject({
      unknownMarkers: { YearBuilt: 2 },
      rejected: 0,
      unchanged: 3,
    });
    expect(stored('M-2')?.YearBuilt).toBe(0);
  });
});

describe('a row whose columns shifted never costs its listing', () => {
  it('an unquoted comma shifts a row: its listing is held, the listings really gone are deleted', async () => {
    await feed([1, 2, 3, 4, 5].map((n) => row(n)).join(''));
    expect(await cli('sync', '--feed', 'held-feed')).toBe(0);
    const before = stored('M-3');
    // Day 2: M-3's type is `Condo, loft` with no quotes: 13 fields under a 12-column header; M-5 sold.
    await feed([row(1), row(2), row(3).replace(',Condo,', ',Condo, loft,'), row(4)].join(''));
    t.reset();
    expect(await cli('sync', '--feed', 'held-feed')).toBe(4);
    expect(t.out()).toContain('Row 4 of feed.csv: has 13 fields, the header has 12');
    expect(t.out()).toMatch(/ {4}M-3 \(ID \d+\): held: key appears in the shifted row 4 of feed.csv/);
    expect(t.out()).toContain('guard unkeyed-rejections: ok');
    expect(stored('M-3')).toEqual(before);
    expect(stored('M-5')).toBeUndefined();
    expect(
      t.sandbox
        .listings('HELD-BOT')
        .map((l) => l.MLSNumber)
        .sort(),
    ).toEqual(['M-1', 'M-2', 'M-3', 'M-4']);
  });
});
