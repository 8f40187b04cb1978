import { describe, expect, it } from 'vitest';
import { RowsAs1252 } from './rows-as-1252.ts';

function rowsOf(lines: number[], recordRows: (number | undefined)[]): number[] {
  const rows = new RowsAs1252(lines);
  for (const row of recordRows) rows.record(row);
  return rows.finish();
}

describe('RowsAs1252', () => {
  it.each([
    // lines read as 1252, rows where records start → rows reported
    [[], [2, 3, 4], []],
    [[3], [2, 3, 4], [3]],
    // A record spanning lines 3–5: a bad byte on line 4 is the record of row 3, named once.
    [[4, 5], [2, 3, 6, 7], [3]],
    // The header (line 1) is named by its line; the last record owns the lines after it.
    [
      [1, 9],
      [2, 3, 6],
      [1, 6],
    ],
    // XML and JSON records have no row: lines are reported as they are.
    [
      [7, 12],
      [undefined, undefined],
      [7, 12],
    ],
  ])('lines %j, records at %j → %j', (lines, recordRows, expected) => {
    expect(rowsOf(lines, recordRows)).toEqual(expected);
  });
});
