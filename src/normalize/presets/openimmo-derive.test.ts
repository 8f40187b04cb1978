import { describe, expect, it } from 'vitest';
import { deriveOpenImmoFields } from './openimmo-derive.ts';

/** An `immobilie` as the XML source parses it (attributes with `@`, text as `#text` or plain). */
const immobilie = (parts: Record<string, unknown>) => ({
  objektkategorie: {
    vermarktungsart: { '@KAUF': 'true', '@MIETE_PACHT': 'false' },
    objektart: { wohnung: { '@wohnungtyp': 'ETAGE' } },
  },
  ...parts,
});
const derive = (fields: Record<string, unknown>, mediaBaseUrl?: string) =>
  deriveOpenImmoFields(fields, { mediaBaseUrl });

describe('deriveOpenImmoFields', () => {
  it.each([
    [{ wohnung: { '@wohnungtyp': 'ETAGE' } }, 'wohnung', 'wohnung ETAGE', undefined],
    [{ haus: '' }, 'haus', 'haus', undefined],
    [{ grundstueck: { '@grundst_typ': 'WOHNEN' } }, 'grundstueck', 'grundstueck WOHNEN', '0'],
    [{ buero_praxen: { '@buero_typ': 'BUEROFLAECHE' } }, 'buero_praxen', 'buero_praxen BUEROFLAECHE', '0'],
    [{}, undefined, undefined, undefined],
  ])('objektart %j → %s (%s), rooms %s', (objektart, kind, type, noRooms) => {
    const derived = derive({ objektkategorie: { objektart } });
    expect([derived.$objektart, derived.$objekttyp, derived.$noRooms]).toEqual([kind, type, noRooms]);
  });

  it.each([
    [{ '@KAUF': 'true', '@MIETE_PACHT': 'false' }, 'for_sale'],
    [{ '@KAUF': '0', '@MIETE_PACHT': '1' }, 'for_rent'],
    [{ '@ERBPACHT': 'true' }, 'for_rent'],
    [{ '@KAUF': 'false' }, undefined],
  ])('vermarktungsart %j → %s', (flags, saleType) => {
    expect(derive({ objektkategorie: { vermarktungsart: flags } }).$saleType).toBe(saleType);
  });

  it.each([
    [{ verwaltung_techn: { aktion: { '@aktionart': 'DELETE' } } }, 'Delete'],
    [{ verwaltung_techn: { aktion: { '@aktionart': 'REFERENZ' } } }, 'Referenz'],
    [
      { verwaltung_techn: { aktion: '' }, zustand_angaben: { verkaufstatus: { '@stand': 'RESERVIERT' } } },
      'RESERVIERT',
    ],
    [{}, 'OFFEN'],
  ])('status of %j → %s', (parts, status) => {
    expect(derive(immobilie(parts)).$status).toBe(status);
  });

  it('takes the pictures (title picture first), absolute or against the base, and the ANBOBJURL link', () => {
    const anhang = [
      { '@gruppe': 'BILD', daten: { pfad: 'bilder/1.jpg' } },
      { '@gruppe': 'TITELBILD', daten: { pfad: 'bilder/0.jpg' } },
      { '@gruppe': 'DOKUMENTE', daten: { pfad: 'expose.pdf' } },
      { '@gruppe': 'ANBIETERLOGO', daten: { pfad: 'logo.png' } },
      { format: 'image/jpeg', daten: { pfad: 'https://cdn.example/2.jpg' } },
      { daten: { pfad: 'https://cdn.example/readme.txt' } },
      { '@gruppe': 'PANORAMA', daten: { pfad: 'https://tour.example/1' } },
      { '@gruppe': 'ANBOBJURL', daten: { pfad: 'https://makler.example/expose/1' } },
    ];
    const fields = immobilie({ anhaenge: { anhang } });
    expect(derive(fields, 'https://img.example/')).toMatchObject({
      $images: [
        'https://img.example/bilder/0.jpg',
        'https://img.example/bilder/1.jpg',
        'https://cdn.example/2.jpg',
      ],
      $url: 'https://makler.example/expose/1',
      $tour: '3D',
    });
    expect(derive(fields).$images).toEqual(['https://cdn.example/2.jpg']);
    // One attachment is parsed as an object, not a list.
    expect(derive(immobilie({ anhaenge: { anhang: anhang[1] } }), 'https://img.example/').$images).toEqual([
      'https://img.example/bilder/0.jpg',
    ]);
  });

  it('only images are photos, by format or extension, whatever their group (a GRUNDRISS PDF is not)', () => {
    const anhang = [
      { '@gruppe': 'GRUNDRISS', format: 'PDF', daten: { pfad: 'https://cdn.example/plan' } },
      { '@gruppe': 'GRUNDRISS', daten: { pfad: 'https://cdn.example/plan-2.pdf' } },
      { '@gruppe': 'GRUNDRISS', format: '.JPG', daten: { pfad: 'https://cdn.example/plan-3' } },
      { '@gruppe': 'BILD', format: 'application/octet-stream', daten: { pfad: 'https://cdn.example/4.jpg' } },
      { '@gruppe': 'BILD', daten: { pfad: 'https://cdn.example/5' } },
    ];
    expect(derive(immobilie({ anhaenge: { anhang } })).$images).toEqual([
      'https://cdn.example/plan-3',
      'https://cdn.example/4.jpg',
      'https://cdn.example/5',
    ]);
  });

  it('counts parking from anzahl_stellplaetze, else the sum of the stp_* counts', () => {
    expect(derive({ flaechen: { anzahl_stellplaetze: '2' } }).$parking).toBe('2');
    const preise = {
      stp_garage: { '@anzahl': '1' },
      stp_freiplatz: [{ '@anzahl': '2' }, { '@anzahl': 'x' }],
    };
    expect(derive({ preise }).$parking).toBe('3');
    expect(derive({ preise: { kaufpreis: '1' } }).$parking).toBeUndefined();
  });

  it('gives the description as text', () => {
    const fields = { freitexte: { objektbeschreibung: '<p>Hell &amp; ruhig</p>Balkon' } };
    expect(derive(fields).$description).toBe('Hell & ruhig\nBalkon');
  });

  it.each([
    ['1908', '1908'],
    ['ca. 1908', '1908'],
    ['um 1900 ', '1900'],
    ['1900/2015', '1900/2015'],
    ['unbekannt', 'unbekannt'],
    ['', undefined],
  ])('baujahr %j → %j', (text, year) => {
    const derived = derive({ zustand_angaben: { baujahr: text } });
    expect(derived.$baujahr).toBe(year);
    expect(derived.$baujahrText).toBe(text !== '' && year !== text.trim() ? text.trim() : undefined);
  });

  it('takes the kind beside an objektart_zusatz', () => {
    const objektart = { objektart_zusatz: 'Denkmalschutz', haus: { '@haustyp': 'VILLA' } };
    expect(derive({ objektkategorie: { objektart } }).$objektart).toBe('haus');
  });
});
