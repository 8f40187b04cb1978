import { describe, expect, it } from 'vitest';
import { HeldKeyColumns, HeldKeys } from './held-keys.ts';
import type { HeldKey } from './types.ts';

const hold = (
  key: string,
  row: number | undefined,
  index: number,
  message: string,
  reason = 'not_a_number',
): HeldKey => (row === undefined ? { key, index, reason, message } : { key, row, index, reason, message });

describe('HeldKeyColumns', () => {
  it('gives back every hold as it was added: rows, records, messages of any form, any key', () => {
    const columns = new HeldKeyColumns();
    const holds = [
      hold('M-1', 2, 0, 'Row 2 of acme.csv: SalePrice "call" is not a number'),
      hold('M-2', undefined, 7, 'Record 8 of listings.xml: Bedrooms "two" is not a number', 'missing'),
      // A message that does not start with its own place is kept whole.
      hold('M-3', 9, 8, 'Row 10 of acme.csv: a row that says another place'),
      hold('M-4', undefined, 3, 'Record 2 of x.xml: not this record'),
      hold('Ünïcode 🏠', 0, 0, 'Row 0 of a.csv: é'),
      hold('', 5, 4, ''),
    ];
    const numbers = holds.map((h) => columns.add(h));
    expect(numbers).toEqual([0, 1, 2, 3, 4, 5]);
    expect(numbers.map((i) => columns.at(i))).toEqual(holds);
    expect(columns.keyAt(4)).toBe('Ünïcode 🏠');
  });

  it('keeps a message once per text after its place: a renamed column rejects every row alike', () => {
    const columns = new HeldKeyColumns();
    for (let i = 0; i < 1000; i++)
      columns.add(hold(`M-${i}`, i + 2, i, `Row ${i + 2} of acme.csv: SalePrice "call" is not a number`));
    columns.add(hold('X', undefined, 1000, 'Record 1001 of acme.csv: SalePrice "call" is not a number'));
    // A record without a row is named by its key too: the key is cut out of the text, and put back.
    for (let i = 0; i < 100; i++)
      columns.add(
        hold(
          `X-${i}`,
          undefined,
          i,
          `Record ${i + 1} of l.xml (MLSNumber X-${i}): SalePrice "call" is not a number`,
        ),
      );
    columns.add(
      hold(
        'https://a.example/1',
        undefined,
        0,
        'Record 1 of l.xml (Url https://a.example/1): Bedrooms is missing',
      ),
    );
    expect(columns.at(1001 + 99).message).toBe(
      'Record 100 of l.xml (MLSNumber X-99): SalePrice "call" is not a number',
    );
    expect(columns.at(1101).message).toBe('Record 1 of l.xml (Url https://a.example/1): Bedrooms is missing');
    expect(columns.texts).toBe(3);
    expect(columns.at(999).message).toBe('Row 1001 of acme.csv: SalePrice "call" is not a number');
    expect(columns.at(1000).message).toBe('Record 1001 of acme.csv: SalePrice "call" is not a number');
  });
});

describe('HeldKeys', () => {
  const columns = new HeldKeyColumns();
  for (const key of ['a', 'b', 'c', 'd']) columns.add(hold(key, 2, 0, `Row 2 of f.csv: ${key}`));
  const held = new HeldKeys(columns, Int32Array.from([3, 1, 0]));

  it('is a list of the holds picked, in the order given, each made when read', () => {
    expect(held.length).toBe(3);
    expect([...held].map((h) => h.key)).toEqual(['d', 'b', 'a']);
    expect(held.at(0)?.message).toBe('Row 2 of f.csv: d');
    expect(held.at(-1)?.key).toBe('a');
    expect(held.at(3)).toBeUndefined();
    expect(held.keyAt(1)).toBe('b');
    expect(() => held.keyAt(3)).toThrow(RangeError);
    expect(held.slice(1).map((h) => h.key)).toEqual(['b', 'a']);
    expect(held.at(0)).not.toBe(held.at(0));
  });

  it('reads each place through its order, not the columns by place', () => {
    const picked = new HeldKeys(columns, Int32Array.from([2, 0]));
    expect([picked.keyAt(0), picked.keyAt(1)]).toEqual(['c', 'a']);
    expect([picked.at(0)?.message, picked.at(1)?.message]).toEqual([
      'Row 2 of f.csv: c',
      'Row 2 of f.csv: a',
    ]);
    expect(picked.slice(1).map((h) => h.key)).toEqual(['a']);
  });

  it('prints as the array of its holds', () => {
    expect(JSON.parse(JSON.stringify({ held }))).toEqual({ held: [...held] });
  });
});
