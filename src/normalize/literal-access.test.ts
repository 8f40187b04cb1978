import { describe, expect, it } from 'vitest';
import { objectBuilder, propertyReader, propertyWriter } from './literal-access.ts';

/** Keys a CSV header may hold: quotes, backslashes, line breaks, code-like text, unicode. */
const KEYS = [
  'MLS #',
  'Sq. Ft.',
  'a "quoted" name',
  'back\\slash',
  'line\nbreak',
  "'); process.exit(1); ('",
  '`${process.exit(1)}`',
  '\u2028 separator',
  'Preis (€)',
  '',
  'constructor',
];

describe('propertyReader and propertyWriter', () => {
  it('read and write exactly the key given, whatever it holds', () => {
    for (const key of KEYS) {
      const object: Record<string, unknown> = {};
      propertyWriter(key)(object, `value of ${key}`);
      expect(Object.keys(object)).toEqual([key]);
      expect(propertyReader(key)(object)).toBe(`value of ${key}`);
      expect(propertyReader(key)({ other: 1, [key]: 2 })).toBe(2);
    }
  });

  it('reads undefined for a key the object lacks, also one every object inherits', () => {
    expect(propertyReader('MLS #')({ MLS: 'x' })).toBeUndefined();
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(propertyReader(key)({ MLS: 'x' })).toBeUndefined();
      expect(propertyReader(key)(JSON.parse(`{"${key}": "own"}`))).toBe('own');
    }
  });
});

describe('objectBuilder', () => {
  it('builds the object of the keys and values, in key order', () => {
    const build = objectBuilder(KEYS);
    const values = KEYS.map((_, i) => `v${i}`);
    const built = build(values);
    expect(Object.keys(built)).toEqual(KEYS);
    expect(Object.values(built)).toEqual(values);
  });

  it('leaves the missing values of a short row undefined, as own keys', () => {
    const built = objectBuilder(['a', 'b', 'c'])(['1']);
    expect(built).toStrictEqual({ a: '1', b: undefined, c: undefined });
    expect(Object.keys(built)).toEqual(['a', 'b', 'c']);
  });

  it('keeps a __proto__ column as an own field, never as the prototype', () => {
    const built = objectBuilder(['id', '__proto__'])(['1', { polluted: true }]);
    expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
    expect(Object.hasOwn(built, '__proto__')).toBe(true);
    expect((built as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('lets a later duplicate key win, as assignment would', () => {
    expect(objectBuilder(['a', 'a'])(['1', '2'])).toStrictEqual({ a: '2' });
  });
});

describe('a mapping reading a column the feed lacks', () => {
  it('reads nothing for a name every object inherits, at any depth', async () => {
    const { compilePath, compileFirst } = await import('./field-path.ts');
    const record = { Address: { Street: '1 Main St' }, City: 'Austin' };
    for (const path of ['constructor', 'toString', 'Address.constructor', 'Address.valueOf']) {
      expect(compilePath(path)(record)).toEqual([]);
      expect(compileFirst(path)(record)).toBeUndefined();
    }
  });
});
