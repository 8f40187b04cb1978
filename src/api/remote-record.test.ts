import { describe, expect, it } from 'vitest';
import { listDataSchema, quickRemoteRecord, remoteRecordSchema } from './schemas.ts';

/** Values each checked field is tried with. */
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  7,
  -3,
  1.5,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '12',
  '-4',
  '1.5',
  '',
  'x',
  true,
  [],
  ['https://img.example/1.jpg'],
  {},
  { a: 1 },
];

describe('quickRemoteRecord agrees with remoteRecordSchema', () => {
  it('on every value of every field it checks, and keeps every other field', () => {
    for (const field of ['ID', 'MLSNumber', 'Url', 'ExtensionColumn', 'Images']) {
      for (const value of VALUES) {
        const record: Record<string, unknown> = { ID: 1, MLSNumber: 'A-1', City: 'Austin', [field]: value };
        if (value === undefined) delete record[field];
        const zod = remoteRecordSchema.safeParse(record);
        const quick = quickRemoteRecord(record);
        // The quick check may leave a valid record to zod, never accept an invalid one.
        if (quick !== undefined) {
          expect({ field, value, ok: zod.success }).toEqual({ field, value, ok: true });
          expect(quick).toEqual(zod.data);
        }
        // Only an ID sent as text (which zod turns into a number) is left to zod among valid records.
        if (zod.success && quick === undefined) expect(typeof record.ID).toBe('string');
      }
    }
  });

  it('refuses what is not a record', () => {
    for (const value of [null, 3, 'x', [], [{ ID: 1 }]]) expect(quickRemoteRecord(value)).toBeUndefined();
  });
});

describe('listDataSchema', () => {
  it('reads each record by the quick check or by zod, as zod alone would', () => {
    const page = {
      List: [{ ID: 1, MLSNumber: 'A-1' }, { ID: '2', MLSNumber: 'A-2' }, { ID: 3 }],
      VirtualCount: 3,
    };
    expect(listDataSchema.parse(page).List).toEqual([
      { ID: 1, MLSNumber: 'A-1' },
      { ID: 2, MLSNumber: 'A-2' },
      { ID: 3 },
    ]);
  });

  it('names every record and field zod refuses, as zod alone would', () => {
    const result = listDataSchema.safeParse({ List: [{ ID: 'a' }, { ID: 1 }, { ID: 'b', Url: {} }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([
      ['List', 0, 'ID'],
      ['List', 2, 'ID'],
      ['List', 2, 'Url'],
    ]);
  });

  it('reads a missing or null List as no records', () => {
    expect(listDataSchema.parse({ List: null }).List).toEqual([]);
    expect(listDataSchema.parse({}).List).toEqual([]);
  });
});
