import type { RawFields } from './field-path.ts';
import type { MappingHint } from './infer-csv-mapping.ts';

/** Words, not a value: at least three of them, with letters. */
const PROSE = /\p{L}.*\s\S+\s+\S/su;
const URL = /^(?:https?:)?\/\//i;

/**
 * The text of a row that is a note rather than a record, else undefined: one cell of words (three
 * or more) and every other cell empty, such as the disclaimer Redfin writes right after the header
 * of its downloads (`"In accordance with local MLS rules, some MLS listings are not included in the
 * download",,,,…`). The caller also checks that the row gives no key: a row with a key is a record,
 * however broken, and stays a rejection that holds its listing.
 */
export function noteOf(fields: RawFields): string | undefined {
  let note: string | undefined;
  // Runs on every CSV row: no array of values, and out at the second value (a record has many).
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') return undefined;
    const text = value.trim();
    if (text === '') continue;
    if (note !== undefined) return undefined;
    note = text;
  }
  return note !== undefined && PROSE.test(note) && !URL.test(note) ? note : undefined;
}

/** The one hint for a feed's note rows (`where`: `row 2 of redfin.csv`), said once whatever their number. */
export function noteRowsHint(notes: readonly { where: string; text: string }[]): MappingHint | undefined {
  const [first] = notes;
  if (first === undefined) return undefined;
  const quoted = first.text.length > 80 ? `${first.text.slice(0, 79)}…` : first.text;
  const rows =
    notes.length === 1
      ? first.where
      : `${notes.length} rows (${notes.map((n) => n.where.split(' of ')[0]).join(', ')})`;
  return {
    code: 'note_rows',
    message: `${rows} ${notes.length === 1 ? 'holds' : 'hold'} only a note, not a listing ("${quoted}"): skipped, not rejected`,
    fix: 'nothing to fix: a row whose only value is one text cell is read as a note; remove it from the file to silence this',
  };
}
