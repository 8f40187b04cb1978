import { describe, expect, it } from 'vitest';
import { compileMapping } from '../compile-mapping.ts';
import { htmlToText } from '../html-text.ts';
import { absoluteMediaUrl } from '../media-url.ts';
import { addressOf, blmPhotos, deriveBlmFields } from './blm-derive.ts';
import { missingPresetFields, withPresetHooks } from './preset-hooks.ts';

const BASE = 'https://media.example/77120/';

describe('absoluteMediaUrl', () => {
  it.each([
    ['https://cdn.example/a.jpg', undefined, 'https://cdn.example/a.jpg'],
    ['//cdn.example/a.jpg', undefined, 'https://cdn.example/a.jpg'],
    ['77120_IMG_00.jpg', BASE, 'https://media.example/77120/77120_IMG_00.jpg'],
    ['bilder/1.jpg', 'https://media.example/agency', 'https://media.example/agency/bilder/1.jpg'],
    ['77120_IMG_00.jpg', undefined, undefined],
    ['ftp://host/a.jpg', BASE, undefined],
    ['  ', BASE, undefined],
  ])('%s against %s → %s', (reference, base, url) => {
    expect(absoluteMediaUrl(reference, base)).toBe(url);
  });
});

describe('htmlToText', () => {
  it.each([
    ['Plain   text ', 'Plain text'],
    ['<p>One &amp; two</p><p>Three</p>', 'One & two\nThree'],
    ['Hall<br>Lounge<BR/>Kitchen', 'Hall\nLounge\nKitchen'],
    ['<ul><li>Garden</li><li>Garage</li></ul>', '• Garden\n• Garage'],
    ['&pound;1,000 &#8364; &#x41; &bogus;', '£1,000 € A &bogus;'],
    ['<script>alert(1)</script>Text', 'Text'],
    // Every HTML5 entity, as Spanish, French and UK exporters write them (a new user's Kyero feed).
    ['Caf&eacute; &ndash; 100 m&sup2; &hellip; Espa&ntilde;a &rsquo;', 'Café – 100 m² … España ’'],
    // What is not a tag stays: Kyero's `&lt;…&gt;` in a text, a comparison.
    ['Up to <3 bedrooms> & price < 200k > 100k', 'Up to <3 bedrooms> & price < 200k > 100k'],
    // An entity ends with `;`: a raw `&` in a URL or a word stays (`&region` is no `®ion`).
    ['See https://x.example/?lang=es&region=3 &notes', 'See https://x.example/?lang=es&region=3 &notes'],
    ['<!-- CRM note --><b>Sea</b> view', 'Sea view'],
    [
      '<table><tr><td>3 beds</td><td>2 baths</td></tr></table>Contact Jane <jane@agency.example>',
      '3 beds 2 baths\nContact Jane <jane@agency.example>',
    ],
  ])('%j → %j', (html, text) => {
    expect(htmlToText(html)).toBe(text);
  });
});

describe('deriveBlmFields', () => {
  const derive = (fields: Record<string, string>) => deriveBlmFields(fields, { mediaBaseUrl: BASE });

  it.each([
    [{ STATUS_ID: '0' }, 'Available'],
    [{ STATUS_ID: '1' }, 'SSTC'],
    [{ STATUS_ID: '2' }, 'SSTCM'],
    [{ STATUS_ID: '3' }, 'Under Offer'],
    [{ STATUS_ID: '4' }, 'Reserved'],
    [{ STATUS_ID: '5' }, 'Let Agreed'],
    [{ STATUS_ID: '6' }, 'Sold'],
    [{ STATUS_ID: '7' }, 'Let'],
    [{ STATUS_ID: '42' }, '42'],
    [{ STATUS_ID: '0', PUBLISHED_FLAG: '0' }, 'Unpublished'],
  ])('status %j → %s', (fields, status) => {
    expect(derive(fields).$status).toBe(status);
  });

  it.each([
    ['0', 'Weekly', 'week'],
    ['1', 'Monthly', 'month'],
    ['2', 'Quarterly', 'quarter'],
    ['3', 'Annual', 'year'],
    ['5', 'Per person per week', 'week'],
    ['', 'Monthly', 'month'],
    ['9', '9', '9'],
  ])('a let with LET_RENT_FREQUENCY %j: %s, converted from per %s', (code, label, period) => {
    const derived = derive({ TRANS_TYPE_ID: '2', LET_RENT_FREQUENCY: code });
    expect([derived.$rentFrequency, derived.$rentPeriod]).toEqual([label, period]);
    expect(derive({ TRANS_TYPE_ID: '1', LET_RENT_FREQUENCY: code }).$rentPeriod).toBeUndefined();
  });

  it('takes photos 00–59 in number order, absolute, without certificates or duplicates', () => {
    const fields = {
      MEDIA_IMAGE_10: 'b.jpg',
      MEDIA_IMAGE_02: 'a.jpg',
      MEDIA_IMAGE_TEXT_03: 'EPC',
      MEDIA_IMAGE_03: 'epc.png',
      MEDIA_IMAGE_04: 'https://other.example/c.jpg',
      MEDIA_IMAGE_05: 'a.jpg',
      MEDIA_IMAGE_60: 'hip.png',
      MEDIA_IMAGE_TEXT_02: 'Front',
      MEDIA_FLOOR_PLAN_00: 'plan.pdf',
    };
    expect(blmPhotos(fields, BASE)).toEqual([`${BASE}a.jpg`, 'https://other.example/c.jpg', `${BASE}b.jpg`]);
    expect(blmPhotos(fields, undefined)).toEqual(['https://other.example/c.jpg']);
    expect(blmPhotos({ MEDIA_IMAGE_00: '' }, BASE)).toBeUndefined();
  });

  it('labels the price qualifier, and gives land 0 rooms', () => {
    const derived = derive({
      PRICE_QUALIFIER: '2',
      PROP_SUB_ID: '20',
      DESCRIPTION: 'Big<br>plot',
      MEDIA_VIRTUAL_TOUR_00: 'https://tour.example/1',
    });
    expect(derived).toMatchObject({
      $priceQualifier: 'Guide Price',
      $noRooms: '0',
      $description: 'Big\nplot',
      $tour: '3D',
    });
    expect(derive({ PROP_SUB_ID: '3' }).$noRooms).toBeUndefined();
  });
});

describe('preset hooks', () => {
  it('asks for the fields a preset cannot map, by name, unless the feed maps them', () => {
    expect(missingPresetFields({ preset: 'blm' })).toBe(
      'preset blm: set mapping.fields.Url, e.g. { template: "https://…/{AGENT_REF}" }',
    );
    expect(missingPresetFields({ preset: 'blm', fields: { Url: null } })).toContain('mapping.fields.Url');
    expect(
      missingPresetFields({ preset: 'blm', fields: { Url: { template: 'https://a.example/{AGENT_REF}' } } }),
    ).toBeUndefined();
    expect(missingPresetFields({ preset: 'openimmo' })).toBeUndefined();
    expect(missingPresetFields({ preset: 'reso' })).toBeUndefined();
  });

  it('runs the derive step before the mapping, so the preset rules read the $-fields', () => {
    const mapping = {
      preset: 'blm' as const,
      fields: { Url: { template: 'https://a.example/{AGENT_REF}' } },
    };
    const compiled = withPresetHooks(compileMapping(mapping, { now: new Date('2026-11-23') }), mapping, {});
    const { listing } = compiled.map({
      AGENT_REF: 'R1',
      TRANS_TYPE_ID: '2',
      PRICE: '300',
      LET_RENT_FREQUENCY: '0',
    });
    expect(listing).toMatchObject({ SaleType: 'for_rent', RentPrice: 1300, Status: undefined });
    expect(compiled.map({ AGENT_REF: 'R2', STATUS_ID: '1', PUBLISHED_FLAG: '0' }).remove).toBe(true);
  });
});

describe('addressOf: BLM address lines as a person writes them', () => {
  it.each([
    [['9', 'Alwyne Villas', ''], '9 Alwyne Villas'],
    [['12A', 'High Street', 'Exampleton'], '12A High Street, Exampleton'],
    [['9-11', 'Mill Lane'], '9-11 Mill Lane'],
    [['Flat 2', 'Rose Court', '14A High Street'], 'Flat 2, Rose Court, 14A High Street'],
    [['Orchard Cottage', 'Church Lane'], 'Orchard Cottage, Church Lane'],
    [['', '', ''], undefined],
  ])('%j → %s', (lines, address) => {
    expect(addressOf(lines)).toBe(address);
  });
});
