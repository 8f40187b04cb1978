import { describe, expect, it } from 'vitest';
import { eachRecord } from '../../testing/each-record.ts';
import { readCsv } from './read-csv.ts';

/** Each row as [key, URL column, row, problem reason]. */
async function read(lines: string[]) {
  const chunks = (async function* () {
    yield `${lines.join('\n')}\n`;
  })();
  const seen: [unknown, unknown, number | undefined, string | undefined][] = [];
  for await (const record of eachRecord(readCsv('pad', chunks, { skipRows: 0, quote: '"' })))
    seen.push([record.fields['MLS #'], record.fields.URL, record.row, record.problem?.reason]);
  return seen;
}

/**
 * A row longer than the header whose extra cells are empty is padding only when the file pads:
 * its header is as long, or its rows agree on the longer length. A row shifted by an unquoted
 * comma whose last value is empty looks padded, and is rejected by row unless the file pads.
 */
describe('CSV rows longer than the header (issue 21 review)', () => {
  it('rejects a row shifted by an unquoted comma even when its last cell is empty', async () => {
    expect(
      await read([
        'MLS #,Address,City,Price,URL,Notes',
        'ML101,12 Oak St,Springfield,250000,https://x.example/ML101,',
        'ML102,4 Elm Ave,Springfield,310000,https://x.example/ML102,Corner lot',
        'ML103,77 Pine Ct, Unit B,Springfield,199000,https://x.example/ML103,',
        'ML104,9 Ash Rd,Springfield,420000,https://x.example/ML104,',
      ]),
    ).toEqual([
      ['ML101', 'https://x.example/ML101', 2, undefined],
      ['ML102', 'https://x.example/ML102', 3, undefined],
      ['ML103', '199000', 4, 'column_count'],
      ['ML104', 'https://x.example/ML104', 5, undefined],
    ]);
  });

  it('accepts the everyday padded export: every row ends with a delimiter the header has not', async () => {
    expect(
      await read([
        'MLS #,Address,URL',
        'P1,12 Oak St,https://x.example/P1,',
        'P2,4 Elm Ave,https://x.example/P2,',
        'P3,9 Ash Rd,https://x.example/P3,',
      ]),
    ).toEqual([
      ['P1', 'https://x.example/P1', 2, undefined],
      ['P2', 'https://x.example/P2', 3, undefined],
      ['P3', 'https://x.example/P3', 4, undefined],
    ]);
  });

  it('in a padded export, a row shifted one column further is rejected', async () => {
    expect(
      await read([
        'MLS #,Address,URL',
        'P1,12 Oak St,https://x.example/P1,',
        'P2,4 Elm Ave, Unit 2,https://x.example/P2,',
        'P3,9 Ash Rd,https://x.example/P3,',
      ]),
    ).toEqual([
      ['P1', 'https://x.example/P1', 2, undefined],
      ['P2', ' Unit 2', 3, 'column_count'],
      ['P3', 'https://x.example/P3', 4, undefined],
    ]);
  });

  it('a header padded like its rows (trailing empty names) pads every row', async () => {
    expect(
      await read([
        'MLS #,Address,URL,,',
        'H1,12 Oak St,https://x.example/H1,,',
        'H2,4 Elm Ave,https://x.example/H2',
      ]),
    ).toEqual([
      ['H1', 'https://x.example/H1', 2, undefined],
      ['H2', 'https://x.example/H2', 3, undefined],
    ]);
  });

  it('decides the first longer row by the next: shifted when the next fits the header', async () => {
    expect(
      await read([
        'MLS #,Address,URL',
        'F1,77 Pine Ct, Unit B,https://x.example/F1',
        'F2,4 Elm Ave,https://x.example/F2',
      ]),
    ).toEqual([
      ['F1', ' Unit B', 2, 'column_count'],
      ['F2', 'https://x.example/F2', 3, undefined],
    ]);
    // One longer row and nothing after it: nothing says it is shifted.
    expect(await read(['MLS #,Address,URL', 'S1,12 Oak St,https://x.example/S1,'])).toEqual([
      ['S1', 'https://x.example/S1', 2, undefined],
    ]);
  });
});
