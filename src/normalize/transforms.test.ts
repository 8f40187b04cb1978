import { describe, expect, it } from 'vitest';
import { convertArea, normalizeAreaUnit } from './area-units.ts';
import { compilePath } from './field-path.ts';
import { htmlToText } from './html-text.ts';
import { absoluteMediaUrl as absoluteUrl } from './media-url.ts';
import { currencyOf, currencySymbol, isPriceOnRequest, perMonthFactor, readPrice } from './money.ts';
import { normalizeToken } from './normalize-token.ts';
import { isAmbiguousDot, isUnsetText, numberValue, parseNumber, parseText } from './parse-number.ts';
import { parseTimestamp } from './parse-timestamp.ts';
import { compileTemplate } from './template.ts';

describe('parseNumber', () => {
  it.each([
    ['$1,250,000', false, 1_250_000],
    ['1,250,000.00', false, 1_250_000],
    ['6,534 sqft', false, 6534],
    ['84,5', true, 84.5],
    ['1.250.000,75', true, 1_250_000.75],
    ['1.250.000', false, 1_250_000],
    ['€ 250 000', false, 250_000],
    ['EUR 99', false, 99],
    ['2.5', false, 2.5],
    ['-3', false, -3],
    [42, false, 42],
  ] as const)('%s → %d', (raw, decimalComma, expected) => {
    expect(parseNumber(raw, decimalComma)).toMatchObject({ ok: true, value: expected });
  });
  it.each(['', '  ', 'N/A', 'n/a', '-', '--', '---', ' ---- ', '—', 'null', 'NULL', 'none'])(
    '%j is unset',
    (raw) => {
      expect(parseNumber(raw)).toEqual({ ok: true, value: undefined, suffix: '' });
    },
  );
  it.each(['three', '3-4', 'approx 300', '12abc34', 'TBD soon'])('%j is not a number', (raw) => {
    expect(parseNumber(raw).ok).toBe(false);
  });
  it('reads dots as thousands with decimalComma, even for plain-looking numbers', () => {
    expect(parseNumber('1.250', true)).toEqual({ ok: true, value: 1250, suffix: '' });
    expect(parseNumber('249.500', true)).toEqual({ ok: true, value: 249_500, suffix: '' });
  });
  // Issue 21 review: `<wohnflaeche>84,5</wohnflaeche>` was read as 845 (an invented area).
  it.each([
    ['84,5', 84.5],
    ['84,50', 84.5],
    ['0,5', 0.5],
    ['12,50 €', 12.5],
    ['1.234,56', 1234.56],
    ['1,250', 1250],
    ['1,250,000', 1_250_000],
  ] as const)(
    'a comma before one or two final digits is a decimal comma, without decimalComma: %s → %d',
    (raw, value) => {
      expect(parseNumber(raw)).toMatchObject({ ok: true, value });
    },
  );
  it.each(['1,234,5', '1.2.3,5', '1,2345'])('%j is ambiguous: not a number, never a guess', (raw) => {
    expect(parseNumber(raw).ok).toBe(false);
  });
  it('with decimalComma, a dot before one or two final digits is a decimal point; a US number is refused', () => {
    expect(parseNumber('1.5', true)).toMatchObject({ ok: true, value: 1.5 });
    expect(parseNumber('1.25', true)).toMatchObject({ ok: true, value: 1.25 });
    expect(parseNumber('1.250', true)).toMatchObject({ ok: true, value: 1250 });
    expect(parseNumber('1,250.00', true).ok).toBe(false);
  });
  // A tester's typos were read as plausible numbers (`$4.500.00` as 450000): dots that group
  // thousands group three digits each, whatever the feed says of its decimals.
  it.each(['$4.500.00', '450.000.0', '1.234.56', '$1.25.000', '$1.2.3', '1.2345.678'])(
    '%j is no number',
    (raw) => {
      for (const mode of ['unsaid', false, true] as const)
        expect(parseNumber(raw, mode).ok, String(mode)).toBe(false);
      expect(parseNumber('1.250.000', 'unsaid')).toMatchObject({ ok: true, value: 1_250_000 });
      expect(parseNumber('1.250.000,50', true)).toMatchObject({ ok: true, value: 1_250_000.5 });
      expect(parseNumber('12,34,567', false)).toMatchObject({ ok: true, value: 1_234_567 });
    },
  );
  // A new user's European feed: `450.000` (a price) was read as 450 and `1.649` (square feet) as 1.649.
  it.each(['1.649', '450.000', '$450.000', '450.000 €', '-1.649', '1.649 sqft', '999.999', '1.000'])(
    "%j, where the feed does not say how it writes decimals ('unsaid'), is refused as either reading",
    (raw) => {
      expect(parseNumber(raw, 'unsaid')).toEqual({ ok: false, reason: 'not_a_number' });
      expect(numberValue(raw, 'unsaid')).toBeNaN();
      expect(isAmbiguousDot(raw, 'unsaid')).toBe(true);
      expect(isAmbiguousDot(raw, false)).toBe(false);
      expect(parseNumber(raw, false).ok).toBe(true);
      expect(parseNumber(raw, true).ok).toBe(true);
    },
  );
  it.each([
    ['0.250', 0.25],
    ['12.5', 12.5],
    ['2.25', 2.25],
    ['1649.000', 1649],
    ['1,649', 1649],
    ['$450,000', 450_000],
    ['2.465.000', 2_465_000],
    ['1.649,5', 1649.5],
    ['2,5', 2.5],
    ['1.150 million', 1_150_000],
    ['3', 3],
  ] as const)('%j is read as one number where the feed does not say: %d', (raw, value) => {
    expect(parseNumber(raw, 'unsaid')).toMatchObject({ ok: true, value });
    expect(isAmbiguousDot(raw, 'unsaid')).toBe(false);
  });
  it('with decimalComma, a dot before anything but a group of three is a decimal point (a German feed’s coordinates)', () => {
    expect(parseNumber('52.49876', true)).toMatchObject({ ok: true, value: 52.49876 });
    expect(parseNumber('-13.4201', true)).toMatchObject({ ok: true, value: -13.4201 });
    expect(parseNumber('1.250', true)).toMatchObject({ ok: true, value: 1250 });
    expect(parseNumber('1.250.000', true)).toMatchObject({ ok: true, value: 1_250_000 });
  });
  it('reads the same text as the feed says: a decimal point (false) or a decimal comma (true)', () => {
    expect(parseNumber('1.649', false)).toMatchObject({ ok: true, value: 1.649 });
    expect(parseNumber('1.649', true)).toMatchObject({ ok: true, value: 1649 });
  });
  it('treats markers padded with spaces as unset', () => {
    expect(isUnsetText('   N/A          ')).toBe(true);
    expect(isUnsetText('Nantucket')).toBe(false);
    expect(isUnsetText('3')).toBe(false);
  });
  // The shortcut for common shapes must give exactly what the general parse gives.
  it.each([
    '0',
    '-0',
    '7',
    '-3',
    '2.5',
    '0.1',
    '0.30',
    '1250000',
    '1,250,000',
    '1,250,000.00',
    '$1,250,000',
    '€250,000',
    '£99.95',
    '6,534 sqft',
    '6534 SqFt',
    '3,120  sq',
    '84,5',
    '84,50',
    '1,25',
    '1,2345',
    '1.234,56',
    '3,4 sqft',
    '1.5',
    '1,250.00',
    '1.250.000,75',
    '1.250',
    '1.2.3',
    '12 34',
    '100sqft',
    '5 m²',
    '3 ',
    '$-5',
    '-$5',
    '123456789012345',
    '1234567890123456',
    '9007199254740993',
    '1,',
    '1.',
    '.5',
    '1,,2',
    '12abc34',
    '3 bd2',
    '1.649',
    '450.000',
    '$450.000',
    '-1.649',
    '1.649 sqft',
    '999.999',
    '1.000',
    '0.250',
    '1649.000',
    '12.345.678',
    '52.49876',
    '-13.4201',
  ])('%j: the shortcut agrees with the general parse', (raw) => {
    for (const decimalComma of [false, true, 'unsaid'] as const) {
      const general = parseText(raw, decimalComma);
      expect(parseNumber(raw, decimalComma)).toEqual(general);
      expect(numberValue(raw, decimalComma)).toEqual(general.ok ? general.value : Number.NaN);
    }
  });
  it.each([
    ['$1.2M', 1_200_000],
    ['$450K', 450_000],
    ['450 k', 450_000],
    ['1.15 million', 1_150_000],
    ['$2 MM', 2_000_000],
  ])('applies a price magnitude: %s → %d (it was read as the bare number)', (raw, value) => {
    expect(parseNumber(raw)).toEqual({ ok: true, value, suffix: '' });
    expect(numberValue(raw)).toBe(value);
  });

  it('keeps a lowercase m as a unit (metres), not a million', () => {
    expect(parseNumber('120 m')).toEqual({ ok: true, value: 120, suffix: 'm' });
  });

  it('returns a unit suffix', () => {
    expect(parseNumber('6,534 sqft')).toEqual({ ok: true, value: 6534, suffix: 'sqft' });
    expect(parseNumber('120 m²')).toEqual({ ok: true, value: 120, suffix: 'm²' });
  });
});

describe('area units', () => {
  it.each([
    ['sq ft', 'sqft'],
    ['Square Feet', 'sqft'],
    ['SquareFeet', 'sqft'],
    ['m²', 'sqm'],
    ['squareMeter', 'sqm'],
    ['Square Metres', 'sqm'],
    ['Acres', 'acre'],
    ['ha', 'ha'],
    ['hectare', 'ha'],
    ['square', 'square'],
    ['furlong', undefined],
  ])('%s → %s', (unit, expected) => expect(normalizeAreaUnit(unit)).toBe(expected));
  // A tester: `SqFt "85 m2"` was refused as not a number, while `111 m²` converted.
  it.each(['m2', 'M2', 'sqm', 'sq m', 'sq. m.', 'm^2', 'm²'])('%s is square metres', (unit) => {
    expect(normalizeAreaUnit(unit)).toBe('sqm');
  });
  it.each(['sqft', 'sq ft', 'sq. ft.', 'ft2', 'ft²', 'ft^2'])('%s is square feet', (unit) => {
    expect(normalizeAreaUnit(unit)).toBe('sqft');
  });
  it.each([
    ['85 m2', 'm2'],
    ['85m2', 'm2'],
    ['85 m^2', 'm^2'],
    ['85 sq. m.', 'sq. m.'],
    ['85 ft2', 'ft2'],
    ['85 sq. ft.', 'sq. ft.'],
  ])('%j is 85 with its unit: the square is no digit of the number', (raw, suffix) => {
    expect(parseNumber(raw)).toEqual({ ok: true, value: 85, suffix });
  });
  it.each(['85 x2', '85 m3', '85 m22', '12abc34'])(
    '%j holds another digit after its number: refused',
    (raw) => {
      expect(parseNumber(raw).ok).toBe(false);
    },
  );
  it.each([
    [1, 'acre', 'sqft', 43_560],
    [1, 'ha', 'sqm', 10_000],
    [100, 'sqm', 'sqft', 1076.39],
    [1000, 'sqft', 'sqm', 92.9],
    [20, 'square', 'sqm', 185.81],
    [5, 'sqm', 'sqm', 5],
  ])('%d %s → %s', (value, from, to, expected) => expect(convertArea(value, from, to)).toBe(expected));
});

// A tester's vendor CSVs: `$1.25m` was published as 1.25, `€ 350.000,-` as 350, `$650 pw` as $650 a
// month, `650 p/w` took `p/w` as its currency: a price's text is read whole, or refused.
describe('readPrice', () => {
  it.each([
    ['$1.25m', 1_250_000],
    ['£1.2m', 1_200_000],
    ['€1.2M', 1_200_000],
    ['$1.2M', 1_200_000],
    ['1.2 million', 1_200_000],
    ['1,25 Mio. €', 1_250_000],
    ['1,2 Mio', 1_200_000],
    ['1.5 Mio.', 1_500_000],
    ['$2 mil', 2_000_000],
    ['$450K', 450_000],
    ['450k', 450_000],
    ['450 thousand', 450_000],
    ['$1.2bn', 1_200_000_000],
    ['€ 350.000,-', 350_000],
    ['350.000,- €', 350_000],
    ['EUR 350.000,--', 350_000],
    ['1.250.000,-', 1_250_000],
    ["CHF 1'250'000.–", 1_250_000],
    ['$1,250,000', 1_250_000],
    ['US$ 5,000', 5000],
    ['250000 GBP', 250_000],
    ['2 500 000 kr', 2_500_000],
    ['649.000,00 €', 649_000],
  ])('a sale price %j is %d', (text, value) => {
    expect(readPrice(text, 'unsaid', false)).toEqual({ ok: true, value });
  });
  it.each([
    ['$650 pw', 'week'],
    ['$650/week', 'week'],
    ['$650 per week', 'week'],
    ['$650/wk', 'week'],
    ['650 p/w', 'week'],
    ['$30,000/yr', 'year'],
    ['$30,000 pa', 'year'],
    ['$30,000 p.a.', 'year'],
    ['€30.000,- per annum', 'year'],
    ['$30,000/year', 'year'],
    ['$30,000 per year', 'year'],
    ['£900 pcm', 'month'],
    ['£900 p.c.m.', 'month'],
    ['£900 pm', 'month'],
    ['$900/mo', 'month'],
    ['$900/month', 'month'],
    ['$900 per month', 'month'],
    ['$1,300 fortnightly', 'fortnight'],
  ])('a rent %j names its period: %s', (text, period) => {
    const reading = readPrice(text, 'unsaid', true);
    expect(reading).toMatchObject({ ok: true, period });
    expect(perMonthFactor(period)).toBeDefined();
  });
  it.each([
    ['$95/night', 'is a rate per night: it is not a monthly rent'],
    ['$95 per night', 'is a rate per night'],
    ['$120/day', 'is a rate per day'],
    ['$1500 m', 'is a million or a month'],
  ])('a rent %j is refused: %s', (text, why) => {
    const reading = readPrice(text, 'unsaid', true);
    expect(reading.ok).toBe(false);
    expect(!reading.ok && reading.why).toContain(why);
  });
  it.each([
    ['$650 pw', 'price_period', 'is per week: only a rent or a fee is'],
    ['$450,000/yr', 'price_period', 'is per year'],
    ['€2 mil', 'not_a_number', 'a thousand in Spanish or Portuguese'],
    ['350 mil', 'not_a_number', 'a thousand in Spanish or Portuguese'],
    ['R$ 350 mil', 'not_a_number', 'a thousand in Spanish or Portuguese'],
    [
      '1,250 Mio.',
      'not_a_number',
      "is 1.25 Mio or 1250 Mio: say which with the feed's `mapping.decimalComma`",
    ],
  ])('a sale price %j is refused (%s): %s', (text, reason, why) => {
    const reading = readPrice(text, 'unsaid', false);
    expect(reading).toMatchObject({ ok: false, reason });
    expect(!reading.ok && reading.why).toContain(why);
  });
  it('reads the no-cents mark on a whole number only, whatever its separator (a reviewer: `€ 350.000.-` was 350)', () => {
    for (const mode of ['unsaid', false, true] as const) {
      expect(readPrice('€ 350.000.-', mode, false), String(mode)).toEqual({ ok: true, value: 350_000 });
      expect(readPrice('CHF 2.500.-', mode, false), String(mode)).toEqual({ ok: true, value: 2500 });
      expect(readPrice('350,000,-', mode, false), String(mode)).toEqual({ ok: true, value: 350_000 });
      expect(readPrice("CHF 1'250'000.–", mode, false), String(mode)).toEqual({ ok: true, value: 1_250_000 });
      expect(readPrice('350,5,-', mode, false).ok, String(mode)).toBe(false);
      expect(readPrice('350.000,000,-', mode, false).ok, String(mode)).toBe(false);
    }
  });
  it.each([
    ['£450,000 Guide Price', 450_000, 'Guide Price'],
    ['Guide Price: £450,000', 450_000, 'Guide Price'],
    ['$450,000 ono', 450_000, 'ono'],
    ['$450,000 (o.n.o.)', 450_000, 'o.n.o'],
    ['From $450,000', 450_000, 'From'],
    ['Offers over £1,200,000', 1_200_000, 'Offers over'],
    ['OIEO £350,000', 350_000, 'OIEO'],
    ['£1,200 pcm negotiable', 1200, 'negotiable'],
  ])('%j is read with its qualifier, kept (never dropped)', (text, value, qualifier) => {
    expect(readPrice(text, 'unsaid', true)).toMatchObject({ ok: true, value, qualifier });
  });
  it.each([
    'call',
    'TBD soon',
    'Guide Price',
    'From $450,000 ono',
    'About $450,000',
    '1,234 sqft',
    '650 p/x',
    '$1.2 zillion',
    '$ 1,000 USD',
    '450.000',
  ])('%j is not a number: no word around a price is dropped to read it', (text) => {
    expect(readPrice(text, 'unsaid', true)).toEqual({ ok: false, reason: 'not_a_number' });
  });
  it('reads a magnitude with the separators the feed says, and `1,250 Mio.` either way it says', () => {
    expect(readPrice('1,250 Mio.', true, false)).toEqual({ ok: true, value: 1_250_000 });
    expect(readPrice('1,250 Mio.', false, false)).toEqual({ ok: true, value: 1_250_000_000 });
    expect(readPrice('€ 350.000,-', false, false)).toEqual({ ok: true, value: 350_000 });
  });
  it.each([
    'POA',
    'poa',
    'P.O.A.',
    'P.O.A',
    'Price on application',
    'PRICE ON REQUEST',
    'Call for price',
    'Contact agent for price',
    ' price  on  request ',
  ])('%j is a price on request', (text) => {
    expect(isPriceOnRequest(text)).toBe(true);
  });
  it.each(['call', 'TBD', 'abc', 'on request soon', 'POA 450000'])('%j is no price on request', (text) => {
    expect(isPriceOnRequest(text)).toBe(false);
  });
});

describe('money', () => {
  it.each([
    ['EUR', '€'],
    ['usd', '$'],
    ['GBP', '£'],
    ['AUD', '$'],
    ['$', '$'],
    ['R$', 'R$'],
  ])('%s → %s', (code, symbol) => expect(currencySymbol(code)).toBe(symbol));
  it.each([
    ['1,25 Mio. €', '€'],
    ['€ 350.000,-', '€'],
    ['350.000,- €', '€'],
    ['EUR 350.000,--', '€'],
    ['€1.2M', '€'],
    ['$650 pw', '$'],
    ['650 p/w', undefined],
    ['650 pcm', undefined],
    ['$1.25m', '$'],
    ['POA', undefined],
    ['Price on application', undefined],
    ['450,000', undefined],
  ])('the currency of the price %j is %s (never a period, a magnitude or words)', (text, symbol) => {
    expect(currencyOf(text)).toBe(symbol);
  });
  it('per-month factors', () => {
    expect(perMonthFactor('Monthly')).toBe(1);
    expect(perMonthFactor('week')).toBeCloseTo(4.333, 3);
    expect(perMonthFactor('Annually')).toBeCloseTo(1 / 12);
    expect(perMonthFactor('Semi-Annually')).toBeCloseTo(1 / 6);
    expect(perMonthFactor('fortnightly')).toBeCloseTo(26 / 12);
    expect(perMonthFactor('sometimes')).toBeUndefined();
  });
});

describe('tokens, paths, templates, timestamps', () => {
  it('normalizes status spellings alike', () => {
    const forms = [
      'Active Under Contract',
      'ActiveUnderContract',
      'active-under-contract',
      'ACTIVE_UNDER_CONTRACT',
    ];
    expect(new Set(forms.map(normalizeToken)).size).toBe(1);
  });
  it('reads nested paths, attributes, arrays and prefixed names', () => {
    const record = {
      'Sq. Ft.': '1200',
      price: { '#text': '500000', '@display': 'no' },
      images: { image: [{ url: 'a.jpg' }, { url: 'b.jpg' }] },
      Address: { City: 'Springfield' },
    };
    expect(compilePath('Sq. Ft.')(record)).toEqual(['1200']);
    expect(compilePath('price.@display')(record)).toEqual(['no']);
    expect(compilePath('images.image.url')(record)).toEqual(['a.jpg', 'b.jpg']);
    expect(compilePath('Address.commons:City')(record)).toEqual(['Springfield']);
    expect(compilePath('nothing.here')(record)).toEqual([]);
  });
  it('renders templates, unset when a placeholder is missing, encoding for URLs', () => {
    const template = compileTemplate('https://acme.example/listing/{ListingId}', true);
    expect(template.render({ ListingId: 'A 1/2' })).toBe('https://acme.example/listing/A%201%2F2');
    expect(template.render({})).toBeUndefined();
  });
  it.each([
    ['2024-03-05T14:30:00Z', Date.UTC(2024, 2, 5, 14, 30)],
    ['2024-03-05T14:30:00.000Z', Date.UTC(2024, 2, 5, 14, 30)],
    ['2024-03-05T14:30:00+00:00', Date.UTC(2024, 2, 5, 14, 30)],
    ['2024-03-05T16:30:00+02:00', Date.UTC(2024, 2, 5, 14, 30)],
    ['2024-03-05T14:30:00', Date.UTC(2024, 2, 5, 14, 30)],
    ['2024-03-05-14:30', Date.UTC(2024, 2, 5, 14, 30)],
    ['2024-03-05-14:30:09', Date.UTC(2024, 2, 5, 14, 30, 9)],
  ])('parses %s', (text, ms) => expect(parseTimestamp(text)).toBe(ms));
  it("takes a timestamp without a zone as UTC, whatever the machine's zone (MLS exports write `2024-03-05 14:30`)", () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Pacific/Kiritimati';
    try {
      expect(new Date(2024, 2, 5).getTimezoneOffset()).toBe(-840);
      expect(parseTimestamp('2024-03-05 14:30')).toBe(Date.UTC(2024, 2, 5, 14, 30));
      expect(parseTimestamp('2024-03-05 14:30:09')).toBe(Date.UTC(2024, 2, 5, 14, 30, 9));
      expect(parseTimestamp('2024-03-05T14:30:00')).toBe(Date.UTC(2024, 2, 5, 14, 30));
      expect(parseTimestamp('2024-03-05 14:30:00+02:00')).toBe(Date.UTC(2024, 2, 5, 12, 30));
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
  it('orders timestamps as instants, not strings', () => {
    // As strings, "…00.5Z" < "…00Z"; as instants it is later.
    expect(parseTimestamp('2024-01-01T00:00:00.5Z')! > parseTimestamp('2024-01-01T00:00:00Z')!).toBe(true);
  });
});

describe('currencyOf', () => {
  it.each([
    ['$1,250,000', '$'],
    ['USD', '$'],
    ['usd', '$'],
    ['EUR 250,000', '€'],
    ['1.250.000 €', '€'],
    ['250000 GBP', '£'],
    ['A$', 'A$'],
    ['250000', undefined],
  ])('%s → %s', (text, expected) => expect(currencyOf(text)).toBe(expected));
});

describe('absoluteUrl', () => {
  it.each([
    ['https://a.example/1.jpg', undefined, 'https://a.example/1.jpg'],
    ['//cdn.example/1.jpg', undefined, 'https://cdn.example/1.jpg'],
    ['/p/1.jpg', 'https://a.example/l/9', 'https://a.example/p/1.jpg'],
    ['p/1.jpg', 'https://a.example/l', 'https://a.example/l/p/1.jpg'],
    ['/p/1.jpg', undefined, undefined],
    ['ftp://a.example/1.jpg', 'https://a.example/', undefined],
    ['javascript:alert(1)', 'https://a.example/', undefined],
  ])('%s (base %s) → %s', (url, base, expected) => expect(absoluteUrl(url, base)).toBe(expected));
});

describe('htmlToText', () => {
  it('breaks lines where the markup does, drops tags, decodes entities, collapses spaces', () => {
    expect(htmlToText('<div>A&nbsp;&nbsp; b</div><div>c&#8217;s &amp; d</div>  <ul><li>x</li></ul>')).toBe(
      'A b\nc’s & d\n• x',
    );
    expect(htmlToText('  plain   text  ')).toBe('plain text');
  });
});
