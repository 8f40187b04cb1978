import { describe, expect, it } from 'vitest';
import { NUMERIC_FIELDS, SALE_TYPES, TEXT_FIELDS } from '../normalize/index.ts';
// The seeded generator the sandbox draws its faults from: the same texts every run.
import { mulberry32 } from '../sandbox/index.ts';
import { AWKWARD_CHARS } from '../testing/awkward-text.ts';
import {
  canonicalizeRemote,
  platformImages,
  toEnum,
  toExtensionColumn,
  toImages,
  toNumber,
} from './canonicalize.ts';

describe('canonicalizeRemote', () => {
  it('undoes every quirk of the list operation (spec 2.4)', () => {
    const remote = canonicalizeRemote({
      ID: 17,
      PropertyType: 'Condo',
      SaleType: 'For Sale',
      Status: 'active',
      Images: 'https://img.example/1.jpg,https://img.example/2.jpg',
      CurrencySymbol: '$',
      City: 'Austin',
      State: '',
      Url: 'https://acme.example/l/1',
      MLSNumber: '  A100 ',
      Bedrooms: '3',
      Bathrooms: '2.5',
      YearBuilt: '1999',
      SalePrice: '1,250,000.00',
      RentPrice: '',
      HOAMonth: null,
      LATITUDE: 30.2672,
      LONGITUDE: -97.7431,
      ExtensionColumn: '[{"Key":"feed-sync:feed","value":"acme"},{"key":"Agent","Value":"Jo"}]',
      Price: '1250000',
      Area: '1200',
    });
    expect(remote).toEqual({
      id: 17,
      listing: {
        PropertyType: 'Condo',
        SaleType: 'for_sale',
        Status: 'Active',
        Images: ['https://img.example/1.jpg', 'https://img.example/2.jpg'],
        CurrencySymbol: '$',
        City: 'Austin',
        Url: 'https://acme.example/l/1',
        MLSNumber: 'A100',
        Bedrooms: 3,
        Bathrooms: 2.5,
        YearBuilt: 1999,
        SalePrice: 1_250_000,
        Latitude: 30.2672,
        Longitude: -97.7431,
        ExtensionColumn: [
          { Key: 'feed-sync:feed', value: 'acme' },
          { Key: 'Agent', value: 'Jo' },
        ],
      },
    });
  });

  it.each([
    ['For Sale', 'for_sale'],
    ['for sale', 'for_sale'],
    ['FOR_RENT', 'for_rent'],
    ['For-Rent', 'for_rent'],
    ['for_rent', 'for_rent'],
    ['Auction', 'Auction'],
  ])('SaleType %j → %j', (input, output) => {
    expect(toEnum(SALE_TYPES, input)).toBe(output);
    // Asked again (the spellings a list repeats are remembered): the same answer.
    expect(toEnum(SALE_TYPES, input)).toBe(output);
  });

  it('reads spellings past the ones it remembers as well as before', () => {
    for (let i = 0; i < 300; i++) expect(toEnum(SALE_TYPES, ` Odd ${i} `)).toBe(`Odd ${i}`);
    expect(toEnum(SALE_TYPES, ' FOR sale ')).toBe('for_sale');
    expect(toEnum(SALE_TYPES, ' FOR sale ')).toBe('for_sale');
  });

  it.each([
    ['42', 42],
    ['2.50', 2.5],
    ['1,250,000', 1_250_000],
    [7, 7],
    ['', undefined],
    ['  ', undefined],
    ['n/a', undefined],
    [null, undefined],
  ])('number %j → %j', (input, output) => {
    expect(toNumber(input)).toBe(output);
  });

  it.each([
    ['', undefined],
    ['["a.jpg","b.jpg"]', ['a.jpg', 'b.jpg']],
    ['a.jpg|b.jpg', ['a.jpg', 'b.jpg']],
    ['a.jpg; b.jpg\nc.jpg', ['a.jpg', 'b.jpg', 'c.jpg']],
    [['x.jpg', ''], ['x.jpg']],
  ])('Images %j → %j', (input, output) => {
    expect(toImages(input)).toEqual(output);
  });

  it.each([
    ['', undefined],
    ['not json', undefined],
    ['[]', undefined],
    ['[{"Key":"a","value":1}]', [{ Key: 'a', value: '1' }]],
    [[{ KEY: 'b', VALUE: null }], [{ Key: 'b', value: '' }]],
  ])('ExtensionColumn %j → %j', (input, output) => {
    expect(toExtensionColumn(input)).toEqual(output);
  });

  it('reads each field by its class beside the listing schema: text trimmed, numbers from strings', () => {
    const record: Record<string, unknown> = { ID: 1 };
    for (const field of TEXT_FIELDS) record[field] = `  ${field} `;
    for (const field of NUMERIC_FIELDS) record[field] = '1,234.5';
    const { listing } = canonicalizeRemote(record as never);
    for (const field of TEXT_FIELDS) expect(listing[field]).toBe(field);
    for (const field of NUMERIC_FIELDS) expect(listing[field]).toBe(1234.5);
  });

  it('leaves out unset values instead of inventing zeros', () => {
    expect(canonicalizeRemote({ ID: 1, Bedrooms: '', Status: '', Images: '' }).listing).toEqual({});
  });
});

describe('the fast readings of Images and ExtensionColumn read what the general ones read', () => {
  const CHARS = AWKWARD_CHARS;

  it('ExtensionColumn: the same entries as JSON.parse then the general reading, or none alike', () => {
    const next = mulberry32(23);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] as T;
    // Most words without what JSON escapes, as real entries are; the rest with anything.
    const PLAIN = CHARS.filter((c) => !/["\\\u0000-\u001f]/.test(c));
    const word = () => {
      const from = next() < 0.8 ? PLAIN : CHARS;
      return Array.from({ length: Math.floor(next() * 6) }, () => pick(from)).join('');
    };
    /** What the general reading makes of a text: JSON.parse, then the entries read as from an array. */
    const general = (text: string) => {
      try {
        const parsed: unknown = JSON.parse(text);
        return Array.isArray(parsed) ? toExtensionColumn(parsed) : undefined;
      } catch {
        return undefined;
      }
    };
    let fast = 0;
    for (let n = 0; n < 20_000; n++) {
      const entries = Array.from({ length: Math.floor(next() * 4) }, () => ({ Key: word(), value: word() }));
      let text = JSON.stringify(entries);
      // Texts JSON.stringify would not write: a character dropped, doubled or put in.
      const edit = next();
      const at = Math.floor(next() * text.length);
      if (edit < 0.2) text = text.slice(0, at) + text.slice(at + 1);
      else if (edit < 0.3) text = text.slice(0, at) + text[at] + text.slice(at);
      else if (edit < 0.45) text = text.slice(0, at) + pick(CHARS) + text.slice(at);
      else if (!/[\\\u0000-\u001f]/.test(text) && entries.length > 0) fast++;
      expect(toExtensionColumn(text), text).toEqual(general(text));
    }
    // The case the fast reading is for was met often.
    expect(fast).toBeGreaterThan(1000);
  });

  it('Images: the same URLs as the separators read by the regular expression', () => {
    const next = mulberry32(2026);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] as T;
    const general = (value: string) => {
      const text = value.trim();
      if (text === '' || text.startsWith('[')) return toImages(value);
      const urls = text
        .split(/\s*[,|;\n]\s*(?=\S)/)
        .map((s) => s.trim())
        .filter(Boolean);
      return urls.length > 0 ? urls : undefined;
    };
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: Math.floor(next() * 12) }, () =>
        pick(['a', 'b.jpg', '/', ',', ',', ' ', '|', ';', '\n', '\u00a0', '\ufeff']),
      ).join('');
      expect(toImages(text), JSON.stringify(text)).toEqual(general(text));
    }
    expect(toImages('https://a.example/1.jpg,https://a.example/2.jpg')).toEqual([
      'https://a.example/1.jpg',
      'https://a.example/2.jpg',
    ]);
    expect(toImages('a.jpg,,b.jpg,')).toEqual(['a.jpg', '', 'b.jpg,'].filter(Boolean));
  });
});

describe('platformImages', () => {
  it('reads URLs as the platform reads them back once joined: a comma or `;` in one makes two', () => {
    const urls = ['https://x/a,w_640.jpg', 'https://x/b.jpg'];
    expect(platformImages(urls)).toEqual(['https://x/a', 'w_640.jpg', 'https://x/b.jpg']);
    expect(platformImages(urls)).toEqual(toImages(urls.join(',')));
    expect(platformImages(['https://x/a;v=2.jpg'])).toEqual(['https://x/a', 'v=2.jpg']);
    // Read back once, the same again: the two sides of a comparison meet.
    expect(platformImages(platformImages(urls))).toEqual(platformImages(urls));
  });

  it('returns URLs without a separator or white space as they are, not a copy', () => {
    const urls = ['https://x/1.jpg', 'https://x/2.jpg'];
    expect(platformImages(urls)).toBe(urls);
  });
});
