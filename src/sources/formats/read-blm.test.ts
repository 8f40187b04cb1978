import { describe, expect, it } from 'vitest';
import { eachRecord } from '../../testing/each-record.ts';
import { FeedError } from '../feed-error.ts';
import type { RawRecord } from '../source-types.ts';
import { readBlm } from './read-blm.ts';

/** The text in chunks of `size` characters, so every boundary (inside a delimiter, inside `#END#`) is met. */
async function* chunks(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function read(text: string, size = text.length, maxRecordBytes = 1024 * 1024): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  for await (const record of eachRecord(readBlm('f', chunks(text, size), { maxRecordBytes })))
    out.push(record);
  return out;
}

async function failure(text: string, size = text.length): Promise<{ error: FeedError; read: RawRecord[] }> {
  const done: RawRecord[] = [];
  try {
    for await (const record of eachRecord(readBlm('f', chunks(text, size)))) done.push(record);
  } catch (error) {
    return { error: error as FeedError, read: done };
  }
  throw new Error('expected the read to fail');
}

const FILE = [
  '#HEADER#',
  'Version : 3',
  "EOF : '^'",
  "EOR : '~'",
  'Property Count : 3',
  '#DEFINITION#',
  'AGENT_REF^PRICE^DESCRIPTION^~',
  '#DATA#',
  'A1^100000^One line^~',
  'A2^250^Two',
  'lines^~',
  'A3^75000^^~',
  '#END#',
  '',
].join('\n');

/** The fields of FILE's rows, by AGENT_REF. */
const FIELDS = {
  A1: { AGENT_REF: 'A1', PRICE: '100000', DESCRIPTION: 'One line' },
  A2: { AGENT_REF: 'A2', PRICE: '250', DESCRIPTION: 'Two\nlines' },
  A3: { AGENT_REF: 'A3', PRICE: '75000', DESCRIPTION: '' },
};

describe('readBlm', () => {
  it('reads the rows by the definition names, numbered by the file line they start on', async () => {
    const records = await read(FILE);
    expect(records).toEqual([
      { row: 9, index: 0, fields: { AGENT_REF: 'A1', PRICE: '100000', DESCRIPTION: 'One line' } },
      { row: 10, index: 1, fields: { AGENT_REF: 'A2', PRICE: '250', DESCRIPTION: 'Two\nlines' } },
      { row: 12, index: 2, fields: { AGENT_REF: 'A3', PRICE: '75000', DESCRIPTION: '' } },
    ]);
  });

  it('gives the same rows whatever the chunk boundaries (CRLF, a BOM, rows without the trailing EOF)', async () => {
    const crlf = `\uFEFF${FILE.replaceAll('\n', '\r\n').replace('A1^100000^One line^~', 'A1^100000^One line~')}`;
    const whole = await read(crlf);
    expect(whole.map((r) => r.row)).toEqual([9, 10, 12]);
    expect(whole[0]?.fields).toEqual({ AGENT_REF: 'A1', PRICE: '100000', DESCRIPTION: 'One line' });
    for (const size of [1, 2, 3, 5, 7]) expect(await read(crlf, size)).toEqual(whole);
  });

  it('a file that writes no EOF before its EOR: a ^ left in a caption of a row whose last column is empty is one field more, not shifted unsaid (a new user’s agency file)', async () => {
    const bare = (rows: string[]) =>
      [
        '#HEADER#',
        "EOF : '^'",
        "EOR : '~'",
        '#DEFINITION#',
        'AGENT_REF^CAPTION^TOUR~',
        '#DATA#',
        ...rows,
        '#END#',
        '',
      ].join('\n');
    const text = bare(['B1^Front^https://t.example/1~', 'B2^Living room ^ kitchen^~', 'B3^Garden^~']);
    for (const size of [1, 4, text.length]) {
      const records = await read(text, size);
      expect(records.map((r) => [r.fields.AGENT_REF, r.problem?.reason, r.problem?.shape])).toEqual([
        ['B1', undefined, undefined],
        ['B2', 'field_count', 'shifted'],
        ['B3', undefined, undefined],
      ]);
      expect(records[1]?.problem?.message).toBe(
        'has 4 fields where the #DEFINITION# names 3 (this file writes no EOF before its EOR: an EOF character in a text field is one field more)',
      );
      expect(records[2]?.fields).toEqual({ AGENT_REF: 'B3', CAPTION: 'Garden', TOUR: '' });
    }
    // The stray `^` in the first row: the rows after it say the file's way (a new user's second file).
    const first = await read(
      bare(['B2^Living room ^ kitchen^~', 'B1^Front^https://t.example/1~', 'B3^Garden^~']),
    );
    expect(first.map((r) => [r.fields.AGENT_REF, r.problem?.shape])).toEqual([
      ['B2', 'shifted'],
      ['B1', undefined],
      ['B3', undefined],
    ]);
    // A file whose rows do end with an EOF: one short row is that row's problem, not every later one's.
    const short = await read(
      bare(['B1^Front^https://t.example/1^~', 'B2^Lost^~', 'B3^Garden^^~', 'B4^Yard^x^~']),
    );
    expect(short.map((r) => [r.fields.AGENT_REF, r.problem?.shape])).toEqual([
      ['B1', undefined],
      ['B2', 'cut'],
      ['B3', undefined],
      ['B4', undefined],
    ]);
    // An exporter that ends its rows with an EOF but not its definition line: its rows are read.
    const rows = await read(bare(['B1^Front^https://t.example/1^~', 'B3^Garden^^~']));
    expect(rows.map((r) => [r.fields.TOUR, r.problem])).toEqual([
      ['https://t.example/1', undefined],
      ['', undefined],
    ]);
  });

  it('takes a last row whose EOR is missing as ended by the #END# line', async () => {
    const text = FILE.replace('A3^75000^^~\n#END#', 'A3^75000^^\n#END#');
    for (const size of [1, 3, text.length]) {
      const records = await read(text, size);
      expect(records.map((r) => [r.row, r.fields.AGENT_REF, r.fields.DESCRIPTION])).toEqual([
        [9, 'A1', 'One line'],
        [10, 'A2', 'Two\nlines'],
        [12, 'A3', ''],
      ]);
    }
  });

  it('honours the delimiters the header declares; the default ones are then plain text', async () => {
    const custom = [
      '#HEADER#',
      "EOF : '|'",
      "EOR : '}'",
      '#DEFINITION#',
      'AGENT_REF|SUMMARY|}',
      '#DATA#',
      'C1|Caret ^ and tilde ~ inside|}',
      'C2|Second|}#END#',
    ].join('\n');
    for (const size of [1, 4, custom.length]) {
      expect((await read(custom, size)).map((r) => r.fields)).toEqual([
        { AGENT_REF: 'C1', SUMMARY: 'Caret ^ and tilde ~ inside' },
        { AGENT_REF: 'C2', SUMMARY: 'Second' },
      ]);
    }
  });

  it('yields a row with the wrong field count as a problem, and goes on', async () => {
    const text = FILE.replace('A2^250^Two\nlines^~', 'A2^250~');
    const records = await read(text);
    expect(records.map((r) => [r.row, r.problem?.reason ?? 'ok'])).toEqual([
      [9, 'ok'],
      [10, 'field_count'],
      [11, 'ok'],
    ]);
    expect(records[1]?.problem?.message).toBe('has 2 fields where the #DEFINITION# names 3');
    // The first column only: a lost field cannot have shifted it.
    expect(records[1]?.fields).toEqual({ AGENT_REF: 'A2' });
  });

  it.each([
    // Cut inside A2: A1 is the only complete row; cut after A3 or inside #END#: all three are.
    ['A2^250^Two', ['A1'], 10],
    ['A3^75000^^~\n', ['A1', 'A2', 'A3'], 13],
    ['A3^75000^^~\n#EN', ['A1', 'A2', 'A3'], 13],
  ])(
    'refuses a file truncated after %j (no #END#), having read its complete rows, in chunks of any size',
    async (cut, complete, line) => {
      const text = FILE.slice(0, FILE.indexOf(cut) + cut.length);
      for (const size of [1, 6, text.length]) {
        const { error, read: rows } = await failure(text, size);
        expect(error).toBeInstanceOf(FeedError);
        expect([error.code, error.retryable]).toEqual(['E_FEED_FETCH', true]);
        expect(error.message).toBe(
          `feed f: the file is truncated: no #END# after ${complete.length} rows (line ${line}); nothing is applied`,
        );
        // Whole rows only: a row cut short is never yielded.
        expect(rows.map((r) => r.fields)).toEqual(complete.map((ref) => FIELDS[ref as keyof typeof FIELDS]));
      }
    },
  );

  it('refuses what is not BLM, a broken header and a row longer than the bound', async () => {
    expect((await failure('AGENT_REF,PRICE\nA1,1\n')).error.message).toContain('not a BLM file');
    expect((await failure('#HEADER#\nVersion : 3\n')).error.message).toContain('no #DEFINITION# and #DATA#');
    const same = FILE.replace("EOR : '~'", "EOR : '^'");
    expect((await failure(same)).error.message).toContain('the same EOF and EOR delimiter');
    const twice = FILE.replace('AGENT_REF^PRICE^DESCRIPTION', 'AGENT_REF^PRICE^PRICE');
    expect((await failure(twice)).error.message).toContain('names PRICE twice');
    await expect(read(FILE.replace('One line', 'x'.repeat(200)), 16, 100)).rejects.toThrow(
      /the row at line 9 is longer than 100 characters/,
    );
  });
});
