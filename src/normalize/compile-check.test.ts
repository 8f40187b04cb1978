import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileCheck, compileObjectCheck, INVALID } from './compile-check.ts';
import { listingSchema } from './listing-schema.ts';

/** Values every field is tried with: the compiled check must give zod's verdict and zod's output. */
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  -0,
  -1,
  0.5,
  1,
  3,
  89.9,
  90,
  90.0001,
  -180,
  180.5,
  1599,
  1600,
  1999.5,
  2100,
  2101,
  2 ** 60,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  ' ',
  'x',
  '3',
  'Active',
  'active',
  'Sold',
  'for_sale',
  'Square Feet',
  'Room',
  '3D',
  'https://acme.example/l/1',
  ' https://acme.example/l/1 ',
  'http://acme.example/a\tb',
  'ftp://acme.example/l/1',
  'https:/acme.example',
  'not a url',
  true,
  [],
  [''],
  ['https://img.example/1.jpg'],
  [{ Key: 'Agent', value: 'A. Person' }],
  [{ Key: '', value: 'x' }],
  [{ Key: 'Agent', value: 3 }],
  [{ Key: 'Agent', value: 'x', extra: 1 }],
  {},
];

describe('compileCheck agrees with the listing schema', () => {
  for (const [field, schema] of Object.entries(listingSchema.shape)) {
    it(field, () => {
      const check = compileCheck(schema);
      for (const value of VALUES) {
        if (value === undefined) continue;
        const zod = schema.safeParse(value);
        const fast = check(value);
        expect({ value, ok: fast !== INVALID }).toEqual({ value, ok: zod.success });
        if (zod.success) expect(fast).toStrictEqual(zod.data);
      }
    });
  }
});

describe('compileCheck of a URL agrees with zod for every protocol pattern', () => {
  const urls = [
    'https://acme.example/l/1',
    'http://acme.example/l/1',
    'https://ACME.example/l/1',
    'https://acme.example/l/../1',
    'https://acme.example:8443/l/1',
    'https://192.168.0.1/l/1',
    'https://acme.example/l/1?x=1',
    'https://acme.example/a b',
    'ftp://acme.example/l/1',
    'mailto:a@acme.example',
    'https:/acme.example/l/1',
    'https://acme.example/l/1\n',
    'https://user@acme.example/l/1',
    42,
  ];
  it.each([
    ['http or https', z.url({ protocol: /^https?$/ })],
    ['https only', z.url({ protocol: /^https$/ })],
    ['any protocol', z.url()],
    ['a hostname pattern', z.url({ hostname: /^acme\.example$/ })],
    ['normalize', z.url({ normalize: true })],
  ])('%s', (_, schema) => {
    const check = compileCheck(schema);
    for (const value of urls) {
      const zod = schema.safeParse(value);
      const fast = check(value);
      expect({ value, ok: fast !== INVALID }).toEqual({ value, ok: zod.success });
      if (zod.success) expect(fast).toBe(zod.data);
    }
  });
});

describe('compileObjectCheck', () => {
  const check = compileObjectCheck(listingSchema);
  const valid = {
    Url: 'https://acme.example/l/A-1',
    AreaUnit: 'Square Feet',
    MLSNumber: 'A-1',
    Status: 'Active',
    SaleType: 'for_sale',
    CurrencySymbol: '$',
    PropertyType: 'House',
    Bedrooms: 3,
    Bathrooms: 2.5,
    YearBuilt: 1998,
    DaysOnMarket: 0,
    LotArea: 4356,
    BuildingArea: 1800,
    ParkingSpots: 2,
    Images: ['https://img.example/1.jpg'],
    ExtensionColumn: [{ Key: 'Agent', value: 'A. Person' }],
    Latitude: 30.1,
    Longitude: -97.7,
  };

  it('accepts a valid record and outputs what zod outputs, keys in schema order', () => {
    const fast = check(valid);
    expect(fast).toStrictEqual(listingSchema.parse(valid));
    expect(Object.keys(fast ?? {})).toEqual(Object.keys(listingSchema.parse(valid)));
  });

  it('keeps entries already as zod outputs them, and copies the others as zod would', () => {
    const entry = { Key: 'Agent', value: 'A. Person' };
    const kept = check({ ...valid, ExtensionColumn: [entry] });
    expect(kept?.ExtensionColumn).toEqual([entry]);
    expect((kept?.ExtensionColumn as unknown[] | undefined)?.[0]).toBe(entry);
    const extra = { Key: 'Agent', value: 'A. Person', note: 'x' };
    const copied = check({ ...valid, ExtensionColumn: [extra] });
    expect(copied?.ExtensionColumn).toStrictEqual([entry]);
  });

  it('drops keys the schema does not know, like zod', () => {
    expect(check({ ...valid, Extra: 'x' })).toStrictEqual(listingSchema.parse({ ...valid, Extra: 'x' }));
  });

  it.each([
    ['a missing required field', { ...valid, Bedrooms: undefined }],
    ['an out-of-range year', { ...valid, YearBuilt: 20015 }],
    ['a non-integer year', { ...valid, YearBuilt: 1998.5 }],
    ['an unknown enum value', { ...valid, Status: 'Pending' }],
    ['an empty string where one is required', { ...valid, MLSNumber: '' }],
    ['a bad URL', { ...valid, Url: 'acme.example/l/A-1' }],
    ['a latitude past 90', { ...valid, Latitude: 91 }],
    ['an empty image URL', { ...valid, Images: [''] }],
  ])('leaves %s to zod (undefined)', (_, record) => {
    expect(listingSchema.safeParse(record).success).toBe(false);
    expect(check(record)).toBeUndefined();
  });

  it('outputs only the set optional fields, whichever mix a record has, like zod', () => {
    const optional = ['Images', 'ExtensionColumn', 'Latitude', 'Longitude', 'City', 'SalePrice'] as const;
    for (let mask = 0; mask < 1 << optional.length; mask++) {
      const record: Record<string, unknown> = { ...valid };
      optional.forEach((field, i) => {
        if (!(mask & (1 << i))) delete record[field];
        else if (field === 'City') record.City = 'Austin';
        else if (field === 'SalePrice') record.SalePrice = 250000;
      });
      const fast = check(record);
      expect(fast).toStrictEqual(listingSchema.parse(record));
      expect(Object.keys(fast ?? {})).toEqual(Object.keys(listingSchema.parse(record)));
    }
  });

  it('checks a schema of more than 32 fields (no mask template) like zod', () => {
    const shape = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, z.number().optional()]));
    const schema = z.object({ ...shape, name: z.string().min(1) });
    const fast = compileObjectCheck(schema);
    const record = { f0: 1, f39: 2, f17: 3, name: 'x', other: true };
    expect(fast(record)).toStrictEqual(schema.parse(record));
    expect(Object.keys(fast(record) ?? {})).toEqual(Object.keys(schema.parse(record)));
    expect(fast({ f0: 1 })).toBeUndefined();
  });

  it('reads keys that are not identifiers (quotes, spaces) as written', () => {
    const schema = z.object({ 'a "b"': z.string(), 'c d': z.number().optional() });
    const fast = compileObjectCheck(schema);
    expect(fast({ 'a "b"': 'x', 'c d': 1 })).toStrictEqual({ 'a "b"': 'x', 'c d': 1 });
    expect(fast({ 'c d': 1 })).toBeUndefined();
  });

  it('checks constructs it does not compile with zod itself, never more leniently', () => {
    const schema = z.object({ code: z.string().regex(/^[A-Z]{3}$/), n: z.number().multipleOf(5) });
    const fast = compileObjectCheck(schema);
    expect(fast({ code: 'EUR', n: 10 })).toEqual({ code: 'EUR', n: 10 });
    expect(fast({ code: 'eur', n: 10 })).toBeUndefined();
    expect(fast({ code: 'EUR', n: 7 })).toBeUndefined();
  });
});
