import { describe, expect, it } from 'vitest';
import { BrokenRowIndex, containsWord } from './broken-rows.ts';

const row = (n: number, cells: string[]) => ({
  index: n,
  row: n + 1,
  where: `the shifted row ${n + 1} of f.csv`,
  cells,
});

describe('containsWord', () => {
  it.each([
    ['ML1234', 'ML1234', true],
    ['ML1234 Main St', 'ML1234', true],
    ['x,ML1234;y', 'ML1234', true],
    ['ML12345', 'ML1234', false],
    ['AML1234', 'ML1234', false],
    ['1234 Main St', '123', false],
    ['Unit 123', '123', true],
    ['see https://x.example/l/M-3?a=1', 'https://x.example/l/M-3', true],
    ['see https://x.example/l/M-31', 'https://x.example/l/M-3', false],
    ['M-3', 'M-3', true],
    ['M-33', 'M-3', false],
    ['Piñata-7', 'ñata-7', false],
  ])('%j carries %j: %s', (text, key, found) => {
    expect(containsWord(text, key)).toBe(found);
  });
});

describe('BrokenRowIndex', () => {
  const index = new BrokenRowIndex([
    row(3, ['Condo', 'loft', 'ML1234', '300000']),
    row(8, ['12 Oak St, Apt 4', 'https://h.example/l/M-77', '2']),
  ]);

  it('finds the row a key appears in, by a whole cell or a word of one', () => {
    expect(index.find('ML1234')?.row).toBe(4);
    expect(index.find('https://h.example/l/M-77')?.where).toBe('the shifted row 9 of f.csv');
    expect(index.find('Oak')?.row).toBe(9);
  });

  it('finds nothing for a key no row carries, a longer key, or a piece of a word', () => {
    expect(index.find('ML12345')).toBeUndefined();
    expect(index.find('ML123')).toBeUndefined();
    expect(index.find('M-7')).toBeUndefined();
    expect(index.find('')).toBeUndefined();
    expect(new BrokenRowIndex([]).find('ML1234')).toBeUndefined();
  });

  it('a keyless record’s keys match exactly, never as words (a reviewer: beds 3 and `12 Main St` held listings 3 and 12)', () => {
    const keyless = {
      index: 5,
      row: 6,
      where: 'row 6 of f.csv, which has no MLSNumber',
      cells: ['M-77', 'A-1'],
      exact: true as const,
    };
    const both = new BrokenRowIndex([keyless, row(8, ['12 Main St'])]);
    expect(both.find('M-77')?.where).toBe('row 6 of f.csv, which has no MLSNumber');
    expect(both.find('M-7')).toBeUndefined();
    expect(both.find('77')).toBeUndefined();
    expect(both.find('12')?.row).toBe(9);
    expect(new BrokenRowIndex([keyless]).find('12')).toBeUndefined();
  });

  it('never matches across two cells', () => {
    const joined = new BrokenRowIndex([row(1, ['A', 'B'])]);
    expect(joined.find('A B')).toBeUndefined();
    expect(joined.find('A')?.row).toBe(2);
  });
});
