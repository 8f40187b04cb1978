import { describe, expect, it } from 'vitest';
import { noteOf, noteRowsHint } from './note-row.ts';

describe('noteOf: a row that is a note, not a record', () => {
  const DISCLAIMER = 'In accordance with local MLS rules, some MLS listings are not included in the download';
  it('one cell of words and every other cell empty', () => {
    expect(noteOf({ 'SALE TYPE': DISCLAIMER, PRICE: '', 'MLS#': '', CITY: undefined })).toBe(DISCLAIMER);
  });
  it.each([
    [{ a: DISCLAIMER, b: 'x' }, 'two cells'],
    [{ a: 'ML1001', b: '' }, 'a value, not words'],
    [{ a: '12 Oak St', b: '' }, 'two words'],
    [{ a: 'https://x.example/a b c', b: '' }, 'a link'],
    [{ a: '', b: '' }, 'nothing'],
  ])('%j is not a note (%s)', (fields) => {
    expect(noteOf(fields)).toBeUndefined();
  });
  it('one hint for the notes of a feed, however many', () => {
    expect(noteRowsHint([])).toBeUndefined();
    expect(
      noteRowsHint([
        { where: 'row 2 of a.csv', text: 'Note one about it' },
        { where: 'row 40 of a.csv', text: 'Note two about it' },
      ])?.message,
    ).toBe(
      '2 rows (row 2, row 40) hold only a note, not a listing ("Note one about it"): skipped, not rejected',
    );
  });
});
