import { describe, expect, it } from 'vitest';
import { compileFact, yesNo } from './compile-facts.ts';
import { formatInspection, formatOpenHouse, parseDate, parseTime } from './fact-dates.ts';
import type { FactRule } from './mapping-schema.ts';

const fact = (rule: FactRule, record: Record<string, unknown>) => compileFact(rule)(record);

describe('compileFact', () => {
  it('reads values in rule order, maps codes to words, drops what maps to "", de-duplicates', () => {
    expect(fact({ from: 'furn', map: { '0': 'Furnished', '3': '' } }, { furn: '0' })).toBe('Furnished');
    expect(fact({ from: 'furn', map: { '0': 'Furnished', '3': '' } }, { furn: '3' })).toBeUndefined();
    expect(fact({ from: ['a', 'b', 'c'] }, { a: 'Garden', b: 'garden', c: 'Garage' })).toBe('Garden, Garage');
    expect(
      fact(
        { from: 'pets', split: ',', map: { CatsOK: 'cats', DogsOK: 'dogs' } },
        { pets: 'Cats OK,Dogs OK' },
      ),
    ).toBe('cats, dogs');
  });

  it('labels the yes flags; "no" only when the rule says what a no is', () => {
    const pool: FactRule = { yes: { 'f.poolInGround': 'in-ground', 'f.poolAboveGround': 'above-ground' } };
    expect(fact(pool, { f: { poolInGround: 'true', poolAboveGround: 'false' } })).toBe('in-ground');
    expect(fact(pool, { f: { poolInGround: 'no', poolAboveGround: '0' } })).toBeUndefined();
    expect(fact({ ...pool, no: 'no' }, { f: { poolInGround: 'no' } })).toBe('no');
    expect(fact({ ...pool, no: 'no' }, { f: {} })).toBeUndefined();
  });

  it('reads a number as a person reads it: 4.50 → 4.5, a German 4,5 rooms → 4.5; 1,250 is left as written', () => {
    const rooms: FactRule = { from: 'rooms', as: 'number' };
    expect(['4.50', '4,5', '4,50', '1,250', '3'].map((r) => fact(rooms, { rooms: r }))).toEqual([
      '4.5',
      '4.5',
      '4.5',
      '1,250',
      '3',
    ]);
  });

  it('reads a number with three digits after a dot as the mapping says (decimalComma); unsaid, it is left out and said', () => {
    const rooms: FactRule = { from: 'f.rooms', as: 'number' };
    const read = (decimalComma: boolean | 'unsaid', text: string) => {
      const problems: unknown[] = [];
      const value = compileFact(rooms, { decimalComma })({ f: { rooms: text } }, (p) => problems.push(p));
      return { value, problems };
    };
    expect(read(true, '1.500').value).toBe('1500');
    expect(read(false, '1.500').value).toBe('1.5');
    expect(read('unsaid', '1.500')).toEqual({
      value: undefined,
      problems: [expect.objectContaining({ path: 'f.rooms', value: '1.500' })],
    });
    expect(read('unsaid', '4.50')).toEqual({ value: '4.5', problems: [] });
  });

  it('money: an amount with its currency, read as a price field reads it; words kept; 2.210 unsaid is left out and said', () => {
    const rent: FactRule = { from: ['p.warm', 'cur'], as: 'money', suffix: ' a month' };
    const read = (decimalComma: boolean | 'unsaid', warm: string, cur = 'EUR') => {
      const problems: { path: string; value: string; message: string }[] = [];
      const value = compileFact(rent, { decimalComma })({ p: { warm }, cur }, (p) => problems.push(p));
      return { value, problems };
    };
    expect(read('unsaid', '1210.00').value).toBe('€1,210 a month');
    expect(read('unsaid', '1.850,00').value).toBe('€1,850 a month');
    expect(read('unsaid', '180,50').value).toBe('€180.50 a month');
    expect(read(true, '2.210').value).toBe('€2,210 a month');
    expect(read(false, '2.210').value).toBe('€2.21 a month');
    expect(read('unsaid', '1210', 'CHF').value).toBe('CHF 1,210 a month');
    expect(read('unsaid', 'nach Vereinbarung').value).toBe('nach Vereinbarung');
    const refused = read('unsaid', '2.210');
    expect(refused.value).toBeUndefined();
    expect(refused.problems).toEqual([
      {
        path: 'p.warm',
        value: '2.210',
        message: expect.stringMatching(
          /^p\.warm "2\.210" is 2210 or 2\.210: say which with .*mapping\.decimalComma/,
        ),
      },
    ]);
    expect(read('unsaid', 'N/A')).toEqual({ value: undefined, problems: [] });
  });

  it('counts with singular and plural', () => {
    const parking: FactRule = {
      count: { garages: 'garage|garages', carports: 'carport|carports' },
      yes: { secure: 'secure parking' },
    };
    expect(fact(parking, { garages: '2', carports: '1', secure: 'yes' })).toBe(
      '2 garages, 1 carport, secure parking',
    );
    expect(fact(parking, { garages: '0' })).toBeUndefined();
  });

  it('reads each item on its own and joins the items; nested lists take their first set path', () => {
    const agent: FactRule = { each: 'listingAgent', from: ['name', ['phone', 'mobile'], 'email'] };
    const record = {
      listingAgent: [
        { name: 'Jo Lister', mobile: '0400 000 001', email: 'jo@agency.example' },
        { name: 'Sam Seller', phone: '03 9000 0000', mobile: '0400 000 002' },
      ],
    };
    expect(fact(agent, record)).toBe('Jo Lister, 0400 000 001, jo@agency.example; Sam Seller, 03 9000 0000');
    const open: FactRule = {
      each: 'OpenHouse',
      itemWhen: { path: 'Status', notIn: ['Canceled'] },
      from: ['Date', 'Start', 'End'],
      as: 'openHouse',
    };
    expect(
      fact(open, {
        OpenHouse: [
          { Date: '2026-04-11', Start: '10:00', End: '10:30', Status: 'Active' },
          { Date: '2026-04-12', Start: '11:00', End: '12:00', Status: 'Canceled' },
        ],
      }),
    ).toBe('Sat 11 Apr 10:00–10:30');
  });

  it('formats yes/no, dates, ranges, countries, html; keeps what it cannot read', () => {
    expect(fact({ from: 'p', as: 'yesno' }, { p: 'Y' })).toBe('yes');
    expect(fact({ from: 'p', as: 'yesno' }, { p: 'Private' })).toBe('Private');
    expect(fact({ from: 'd', as: 'date' }, { d: '2026-12-01 00:00:00' })).toBe('1 Dec 2026');
    expect(fact({ from: 'd', as: 'date' }, { d: 'ab sofort' })).toBe('ab sofort');
    expect(fact({ from: 'd', as: 'dateTime' }, { d: '2026-12-04T18:30' })).toBe('Fri 4 Dec 2026 18:30');
    expect(
      fact(
        { from: ['a.range.min', 'a.range.max', 'a.@unit'], as: 'range', map: { squareMeter: 'm²' } },
        { a: { '@unit': 'squareMeter', range: { min: '880', max: '1990' } } },
      ),
    ).toBe('880–1,990 m²');
    expect(fact({ from: 'c', as: 'country' }, { c: 'ES' })).toBe('Spain');
    expect(fact({ from: 'c', as: 'country' }, { c: 'AUS' })).toBe('AUS');
    expect(fact({ from: 'h', as: 'html' }, { h: '<p>Near the <b>beach</b></p>' })).toBe('Near the beach');
  });

  it('takes one language of a multilingual element, ignores elements without text, cuts long texts', () => {
    expect(
      fact(
        { from: 'features.feature' },
        { features: { feature: [{ en: 'Pool', es: 'Piscina' }, { es: 'Garaje' }] } },
      ),
    ).toBe('Pool, Garaje');
    expect(fact({ from: 'x' }, { x: { child: { deeper: '1' } } })).toBeUndefined();
    const long = fact({ from: 't' }, { t: 'a'.repeat(2000) });
    expect(long?.length).toBe(1000);
    expect(long?.endsWith('…')).toBe(true);
  });

  it('renders templates of paths, leaving out what is missing', () => {
    const agent: FactRule = { each: 'P', from: ['{First} {Last}', 'Phone'] };
    expect(
      fact(agent, { P: [{ First: 'Gil', Last: 'Gunn', Phone: '555' }, { Last: 'Solo' }, { Phone: '1' }] }),
    ).toBe('Gil Gunn, 555; Solo; 1');
    expect(
      fact(
        { each: 'S', from: ['{Name} ({Category})'] },
        { S: [{ Name: 'Valley', Category: 'Elementary' }, { Name: 'Hill' }] },
      ),
    ).toBe('Valley (Elementary); Hill');
  });

  it('applies when, prefix and suffix', () => {
    expect(
      fact({ from: 'n', suffix: ' months', when: { path: 'let', in: ['2'] } }, { n: '12', let: '2' }),
    ).toBe('12 months');
    expect(
      fact({ from: 'n', suffix: ' months', when: { path: 'let', in: ['2'] } }, { n: '12', let: '1' }),
    ).toBeUndefined();
  });
});

describe('dates and times for facts', () => {
  it.each([
    ['2026-04-12', { y: 2026, m: 4, d: 12 }],
    ['2026-04-12T10:00:00Z', { y: 2026, m: 4, d: 12 }],
    ['2026-04-12-10:30:00', { y: 2026, m: 4, d: 12 }],
    ['12-Apr-2026', { y: 2026, m: 4, d: 12 }],
    ['04/12/2026', { y: 2026, m: 4, d: 12 }],
    ['12.04.2026', { y: 2026, m: 4, d: 12 }],
    ['April-12-2026', { y: 2026, m: 4, d: 12 }],
    ['Apr 12, 2026', { y: 2026, m: 4, d: 12 }],
    ['November-07-2026 01:00 PM', { y: 2026, m: 11, d: 7 }],
  ])('%s is a date', (text, date) => expect(parseDate(text)?.date).toEqual(date));
  it.each(['2026-02-30', 'sofort', '13/40/2026', 'Sat-12-2026', 'April-31-2026'])('%s is not', (text) =>
    expect(parseDate(text)).toBeUndefined(),
  );
  it.each([
    ['10:00', { h: 10, min: 0 }],
    ['10:00:00-07:00', { h: 10, min: 0 }],
    ['5:14 PM', { h: 17, min: 14 }],
    ['11:00am', { h: 11, min: 0 }],
    ['12:30 a.m.', { h: 0, min: 30 }],
    ['2026-04-12T17:00:00Z', { h: 17, min: 0, zone: 'UTC' }],
  ])('%s is a time', (text, time) => expect(parseTime(text)).toEqual(time));

  it('open houses as a person reads them, UTC said when the feed gave UTC', () => {
    expect(formatOpenHouse('2026-04-11', '10:00', '10:30')).toBe('Sat 11 Apr 10:00–10:30');
    expect(formatOpenHouse('2012-03-16', '5:14 PM', '9:14 PM')).toBe('Fri 16 Mar 17:14–21:14');
    expect(formatOpenHouse(undefined, '2026-04-11T17:00:00Z', '2026-04-11T19:00:00Z')).toBe(
      'Sat 11 Apr 17:00–19:00 UTC',
    );
    expect(formatOpenHouse('someday', 'noon', undefined)).toBeUndefined();
    // Redfin's NEXT OPEN HOUSE START TIME / END TIME.
    const start = 'November-07-2026 01:00 PM';
    expect(formatOpenHouse(start, start, 'November-07-2026 03:00 PM')).toBe('Sat 7 Nov 13:00–15:00');
  });

  it('REAXML inspection times', () => {
    expect(formatInspection('21-Dec-2026 11:00am to 1:00pm')).toBe('Mon 21 Dec 11:00–13:00');
    expect(formatInspection('Sat 11:00am to 11:30am')).toBe('Sat 11:00–11:30');
    expect(formatInspection('by appointment')).toBeUndefined();
  });

  it('yes and no words', () => {
    expect(['true', 'Y', '1', 'ja', 'Sí', 'oui', true].map(yesNo)).toEqual(Array(7).fill('yes'));
    expect(['false', 'N', '0', 'nein', 'non', false].map(yesNo)).toEqual(Array(6).fill('no'));
    expect(yesNo('Private')).toBeUndefined();
  });
});
