import { describe, expect, it } from 'vitest';
import { RETURNED_FIELDS } from '../api/index.ts';
import { PHOTO_STAMP_KEY } from '../normalize/index.ts';
import { mulberry32 } from '../sandbox/index.ts';
import { AWKWARD_CHARS } from '../testing/awkward-text.ts';
import { listRecordOf } from '../testing/list-record.ts';
import { listing } from '../testing/listing.ts';
import { withTags } from './ownership.ts';
import { decodePageBytes, scanPage } from './page-scan.ts';
import { decodePage, type RemotePage } from './remote-page.ts';

const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
const utf8 = new TextDecoder();
const bytesOf = (text: string) => new TextEncoder().encode(text);

/** A page's columns as plain data, to compare two readings of it. */
function plain(page: RemotePage) {
  return {
    length: page.length,
    virtualCount: page.virtualCount,
    ids: [...page.ids],
    masks: [...page.masks],
    digests: [...page.digests],
    refs: [...page.refs],
    sold: [...page.sold],
    keys: page.keys,
    owners: page.owners,
  };
}

/** What the text path makes of the bytes: its columns, or its error's kind and message. */
function byText(bytes: Uint8Array, keyField: 'MLSNumber' | 'Url', page: number) {
  try {
    return plain(decodePage(utf8.decode(bytes), keyField, tags, page));
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

function byBytes(bytes: Uint8Array, keyField: 'MLSNumber' | 'Url', page: number) {
  try {
    return plain(decodePageBytes(bytes, keyField, tags, page));
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

const envelope = (list: string, extra = '') =>
  `{"Data":{"List":[${list}],"VirtualCount":9}${extra},"Code":200}`;

describe('scanPage', () => {
  it('reads a page as the sandbox writes it without the text path, to the same columns', () => {
    const records = [1, 2, 3].map((i) =>
      listRecordOf(10 + i, withTags(listing(i, i === 2 ? { Status: 'Sold' } : {}), 'acme', tags)),
    );
    const bytes = bytesOf(
      JSON.stringify({ Data: { List: records, VirtualCount: 3 }, Success: true, Code: 200 }),
    );
    const scanned = scanPage(bytes, 'MLSNumber', tags, 4);
    expect(scanned).toBeDefined();
    expect(plain(scanned as RemotePage)).toEqual(byText(bytes, 'MLSNumber', 4));
    expect(scanned?.owners).toEqual(['acme', 'acme', 'acme']);
    expect([...(scanned as RemotePage).sold]).toEqual([0, 1, 0]);
  });

  it('keeps nothing of a page by view: pages read one after another from one buffer used again', () => {
    // The decode thread joins every page into one Buffer it reuses (`decode-worker.ts`); a Buffer's
    // `slice` is a view, so a value kept to speed up the next listing would change under it.
    const pageOf = (owner: string, lastSale: 'for_sale' | 'for_rent') =>
      bytesOf(
        JSON.stringify({
          Data: {
            List: [1, 2, 3].map((i) =>
              listRecordOf(10 + i, withTags(listing(i, i === 3 ? { SaleType: lastSale } : {}), owner, tags)),
            ),
            VirtualCount: 3,
          },
          Success: true,
          Code: 200,
        }),
      );
    const first = pageOf('acme', 'for_rent');
    const second = pageOf('bcme', 'for_sale');
    expect(second.length).toBe(first.length);
    const scratch = Buffer.alloc(first.length);
    scratch.set(first);
    expect(byBytes(scratch, 'MLSNumber', 0)).toEqual(byText(first, 'MLSNumber', 0));
    scratch.set(second);
    const again = byBytes(scratch, 'MLSNumber', 1);
    expect(again).toEqual(byText(second, 'MLSNumber', 1));
    expect((again as { owners: unknown }).owners).toContain('bcme');

    // Two keys of one length, in one order on a page and in the other on the next, at the same
    // places: the keys predicted from the first page must not read the second's bytes as theirs.
    const pricedOf = (order: readonly ['RentPrice' | 'SalePrice', 'RentPrice' | 'SalePrice']) =>
      bytesOf(
        JSON.stringify({
          Data: {
            List: [1, 2, 3].map((i) => {
              const {
                RentPrice: _rent,
                SalePrice: _sale,
                ...rest
              } = listRecordOf(10 + i, withTags(listing(i), 'acme', tags)) as Record<string, unknown>;
              const prices = { RentPrice: '1000', SalePrice: '2000' };
              return { ...rest, [order[0]]: prices[order[0]], [order[1]]: prices[order[1]] };
            }),
            VirtualCount: 3,
          },
          Success: true,
          Code: 200,
        }),
      );
    const rentFirst = pricedOf(['RentPrice', 'SalePrice']);
    const saleFirst = pricedOf(['SalePrice', 'RentPrice']);
    expect(saleFirst.length).toBe(rentFirst.length);
    const again2 = Buffer.alloc(rentFirst.length);
    again2.set(rentFirst);
    expect(byBytes(again2, 'MLSNumber', 2)).toEqual(byText(rentFirst, 'MLSNumber', 2));
    again2.set(saleFirst);
    expect(byBytes(again2, 'MLSNumber', 3)).toEqual(byText(saleFirst, 'MLSNumber', 3));
  });

  it('reads a listing of another shape alone as the text path reads it, and leaves it the page it must judge', () => {
    const one = JSON.stringify(listRecordOf(1, withTags(listing(1), 'acme', tags)));
    const two = JSON.stringify(listRecordOf(2, withTags(listing(2), 'acme', tags)));
    // A listing the bytes' reading does not take: parsed alone, the rest of the page read in place.
    const odd = [
      one.replace('{', '{"City":"Elsewhere",'), // City twice: JSON.parse keeps the last
      one.replace(/"Images":"[^"]*"/, '"Images":["https://x/1.jpg"," ","https://x/2.jpg"]'),
      one.replace('"City"', '"Cit\\u0079"'),
      // Slashes escaped, as some serializers write them (PHP's json_encode), Images and ExtensionColumn too.
      one.replaceAll('/', '\\/'),
      one.replace('"Key\\":\\"Agent', '"Key\\":\\"Ag\\\\\\"ent'), // an escaped quote inside ExtensionColumn
    ];
    for (const listingText of odd) {
      const bytes = bytesOf(envelope(`${two},${listingText},${two.replace('"ID":2', '"ID":3')}`));
      const scanned = scanPage(bytes, 'MLSNumber', tags, 1);
      expect(scanned, listingText.slice(0, 80)).toBeDefined();
      expect(plain(scanned as RemotePage)).toEqual(byText(bytes, 'MLSNumber', 1));
    }
    // A page the text path must judge: the same error, or the same columns.
    const pages = [
      envelope(one).slice(0, -5), // cut short
      `\u{feff}${envelope(one)}`, // a byte-order mark
      envelope(one.replace('"ID":1', '"ID":"1"')), // an ID as text: zod's to read
      envelope(one.replace('"ID":1', '"ID":1.5')),
      envelope(`${two},${one.replace('"ID":1', '"ID":[1]')}`),
      '{"Data":{"List":null}}',
      '{"Data":{"List":[]},"Data":{"List":[1]}}', // Data twice
      envelope(one, ',"Success":false,"Message":"no"'),
    ];
    for (const text of pages) {
      const bytes = bytesOf(text);
      expect(scanPage(bytes, 'MLSNumber', tags, 0), text.slice(0, 60)).toBeUndefined();
      expect(byBytes(bytes, 'MLSNumber', 0)).toEqual(byText(bytes, 'MLSNumber', 0));
    }
    // A `\u` escape of bytes that are no hex digits (control bytes OR'd with 32 look like digits):
    // JSON.parse refuses it wherever it stands, in a field read again or in one skipped.
    for (const where of ['"Foo":"', '"Status":"', '"Bedrooms":"', '"Area":{"']) {
      const text = envelope(
        one.replace('{', `{${where}\\u\u0010\u0011\u0012\u0013"${where.endsWith('{"') ? ':1},' : ','}`),
      );
      const bytes = bytesOf(text);
      expect(scanPage(bytes, 'MLSNumber', tags, 0), where).toBeUndefined();
      expect(byBytes(bytes, 'MLSNumber', 0)).toEqual(byText(bytes, 'MLSNumber', 0));
      expect(byText(bytes, 'MLSNumber', 0)).toHaveProperty('error');
    }
    // An owner key that trimming changes is no Key trimmed: the text path reads such pages.
    const spaced = { ownerKey: 'feed-sync:feed ', hashKey: 'feed-sync:hash' };
    const tagged = bytesOf(envelope(one.replace('feed-sync:feed', 'feed-sync:feed ')));
    expect(scanPage(tagged, 'MLSNumber', spaced, 0)).toBeUndefined();
    expect(decodePageBytes(tagged, 'MLSNumber', spaced, 0).owners).toEqual(['']);
    // Bytes a decoder would replace (UTF-8 cut in a text the digest reads): that listing alone, as text.
    const bad = bytesOf(envelope(one.replace('"City":"', '"City":"\u00e9')));
    const at = bad.indexOf(0xc3);
    bad[at + 1] = 0x41;
    expect(scanPage(bad, 'MLSNumber', tags, 0)).toBeDefined();
    expect(byBytes(bad, 'MLSNumber', 0)).toEqual(byText(bad, 'MLSNumber', 0));
  });

  it('reads every page of random listings, fields and JSON as the text path reads it (and most of them itself)', () => {
    const random = mulberry32(2311);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const chars = AWKWARD_CHARS;
    const text = (max: number) => {
      let s = '';
      for (let n = Math.floor(random() * max); n > 0; n--) s += pick(chars);
      return s;
    };
    const plainText = () => pick(['Benchville', ' Main  St ', 'Łódź', 'Straße 1', '東京-3', '', '  ', 'x']);
    // Raw JSON for a value: a JSON text, or a number token JSON.stringify would not write.
    const json = (value: unknown) => JSON.stringify(value);
    const numbers = [
      '0',
      '-0',
      '12',
      '-7',
      '2.5',
      '1e3',
      '1E-2',
      '-0.0',
      '1e400',
      '123456789012345',
      '1234567890123456',
      '007',
    ];
    // A wild page holds anything; a tame one only what the bytes' reading takes (to test it, not the text path).
    let wild = false;
    const scalar = () => {
      const r = random();
      if (r < 0.35) return json(random() < 0.5 ? plainText() : text(12));
      if (r < 0.5) return pick(numbers.filter((n) => n !== '007' && (wild || n !== '1e400')));
      if (r < 0.6) return 'null';
      if (r < 0.63) return wild ? pick(['true', 'false']) : 'null';
      return json(
        pick(['200000', '1,250,000.00', ' 12 ', '-5', '007', '', 'abc', '1e3', '  3  ', '0.005', '\u00a012']),
      );
    };
    const enumValue = () =>
      json(
        pick([
          'Active',
          'for_sale',
          ' For Sale ',
          'SOLD',
          'Sold',
          'sold',
          'Pending',
          'Off Market',
          'odd thing',
          '',
          ' ',
          'Under-Contract',
        ]),
      );
    const images = () =>
      wild
        ? pick([
            json('https://x/1.jpg,https://x/2.jpg'),
            json('a,,b'),
            json(',a'),
            json('a,'),
            json('["a","b"]'),
            json('a | b'),
            json('a;b'),
            json(' a,b '),
            json(''),
            json('   '),
            json('https://x/é.jpg,y'),
            json(text(8)),
            'null',
            '["a","b"]',
            '5',
          ])
        : pick([
            json('https://x/1.jpg,https://x/2.jpg'),
            json(',a'),
            json('a,,b'),
            json(''),
            json('  '),
            'null',
          ]);
    const extension = () => {
      const r = random();
      if (r < 0.7) {
        const entries = Array.from({ length: Math.floor(random() * 5) }, () => ({
          Key: pick([
            tags.ownerKey,
            ` ${tags.ownerKey} `,
            PHOTO_STAMP_KEY,
            'Agent',
            'feed-sync:hash',
            '',
            'Ключ',
            text(5),
          ]),
          value: wild
            ? pick(['acme', ' other ', '', '  ', 'v"q', 'back\\slash', 'été', text(6)])
            : pick(['acme', ' other ', '', '  ', 'été', '東京 3']),
        }));
        return json(JSON.stringify(entries));
      }
      if (!wild) return pick(['null', json('  ')]);
      return pick([
        json('[]'),
        json('not json'),
        json('  '),
        json('[{"key":"a","Value":"b"}]'),
        'null',
        '[1]',
        json('[{"Key":"a","value":"b"},]'),
      ]);
    };
    const fieldValue = (field: string): string => {
      if (field === 'Images') return images();
      if (field === 'ExtensionColumn') return extension();
      if (['SaleType', 'Status', 'Tours', 'SpaceType'].includes(field))
        return random() < 0.8 ? enumValue() : scalar();
      return scalar();
    };
    const space = () => (random() < 0.1 ? pick([' ', '\n', '\t ', '\r\n  ']) : '');
    const keys = [
      ...RETURNED_FIELDS.filter((f) => f !== 'Latitude' && f !== 'Longitude'),
      'Latitude',
      'Longitude',
      'LATITUDE',
      'LONGITUDE',
      'Area',
      'Price',
      'ÄÖ',
      '__proto__',
    ];
    const listingText = (id: number, order: readonly string[]) => {
      const parts = [
        `"ID":${!wild || random() < 0.97 ? String(id) : pick(['"5"', '1.5', '9007199254740993', '-3', '-0'])}`,
      ];
      for (const key of order) {
        if (random() < 0.15) continue;
        const value = key === 'Area' && random() < 0.2 && wild ? '{"a":[1,{"b":null}]}' : fieldValue(key);
        parts.push(`${space()}${json(key)}${space()}:${space()}${value}${space()}`);
      }
      if (wild && random() < 0.02) parts.push(`"City":${json(plainText())}`); // a field sent twice, now and then
      for (let k = parts.length - 1; k > 0 && random() < 0.05; k--)
        [parts[k], parts[k - 1]] = [parts[k - 1] as string, parts[k] as string];
      return `{${parts.join(',')}}`;
    };
    let scanned = 0;
    const pages = 3000;
    for (let p = 0; p < pages; p++) {
      wild = p % 2 === 0;
      const order = [...keys].sort(() => random() - 0.5);
      const count = 1 + Math.floor(random() * 3);
      const list = Array.from({ length: count }, (_, i) => listingText(100 * p + i, order)).join(
        `,${space()}`,
      );
      const page =
        random() < 0.5
          ? envelope(list)
          : `{${space()}"Success":true,"Data":{"VirtualCount":${count},"List":[${list}]${space()}},"Message":""}`;
      const bytes = bytesOf(page);
      const keyField = random() < 0.5 ? 'MLSNumber' : 'Url';
      const expected = byText(bytes, keyField, p);
      expect(byBytes(bytes, keyField, p), page).toEqual(expected);
      if (scanPage(bytes, keyField, tags, p) !== undefined) scanned++;
    }
    // The bytes' own reading was tried, not left to the text path: most tame pages.
    expect(scanned).toBeGreaterThan(pages / 3);
  });
});
