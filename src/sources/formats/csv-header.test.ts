import { describe, expect, it } from 'vitest';
import { eachRecord } from '../../testing/each-record.ts';
import { headerNames, sniffDelimiter } from './csv-sniff.ts';
import { readCsv } from './read-csv.ts';

describe('CSV header and delimiter', () => {
  it.each([
    ['MLS #,Beds,Baths', ','],
    ['MLS #;Beds;Baths', ';'],
    ['MLS #\tBeds\tBaths', '\t'],
    ['MLS #|Beds|Baths', '|'],
    ['"Price, USD";Beds;Baths', ';'],
    ['Single', ','],
  ])('%j → %j', (header, delimiter) => expect(sniffDelimiter(header)).toBe(delimiter));

  it('names duplicate and empty columns, drops trailing empty ones', () => {
    expect(headerNames([' MLS # ', 'Agent', '', 'Agent', '', ''])).toEqual([
      'MLS #',
      'Agent',
      'Column 3',
      'Agent (2)',
    ]);
  });

  it.each([
    [
      ['a', 'a (2)', 'a'],
      ['a', 'a (2)', 'a (3)'],
    ],
    [
      ['a', 'a', 'a'],
      ['a', 'a (2)', 'a (3)'],
    ],
    [
      ['a', 'a', 'a (2)'],
      ['a', 'a (3)', 'a (2)'],
    ],
    [
      ['x', 'x (2)', 'x', 'x (3)'],
      ['x', 'x (2)', 'x (4)', 'x (3)'],
    ],
  ])('never gives two columns one name: %j → %j', (header, names) => {
    expect(headerNames(header)).toEqual(names);
    expect(new Set(headerNames(header)).size).toBe(header.length);
  });

  it('uses the configured delimiter over the sniffed one', async () => {
    const source = (async function* () {
      yield 'a;b,c\n1;2,3\n';
    })();
    const records: unknown[] = [];
    for await (const record of eachRecord(
      readCsv('cfg', source, { delimiter: ',', skipRows: 0, quote: '"' }),
    ))
      records.push(record.fields);
    expect(records).toEqual([{ 'a;b': '1;2', c: '3' }]);
  });
});
