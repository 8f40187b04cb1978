import type { MappingConfig } from '../mapping-schema.ts';

const SALE = { path: '$saleType', in: ['for_sale'] };
const RENT = { path: '$saleType', in: ['for_rent'] };

/**
 * OpenImmo 1.2.x (`openimmo/anbieter/immobilie`, on an `xml` source). The `$`-fields come from
 * `deriveOpenImmoFields` (openimmo-derive.ts). The key is `verwaltung_techn/objektnr_extern`;
 * `aktion aktionart="DELETE"` removes the listing. Areas are square meters, rents monthly (German
 * feeds state them per month), the currency EUR unless `waehrung` says otherwise. The listing URL is
 * the `ANBOBJURL` attachment; a feed without one sets `fields.Url`. OpenImmo has no days on market:
 * it is the unknown marker 0, as are areas and parking a record does not give.
 */
export const openimmo: MappingConfig = {
  areaUnit: 'Square Meters',
  fields: {
    MLSNumber: 'verwaltung_techn.objektnr_extern',
    Status: '$status',
    SaleType: '$saleType',
    PropertyType: '$objektart',
    CurrencySymbol: { from: 'preise.waehrung.@iso_waehrung', default: 'EUR' },
    SalePrice: {
      from: 'preise.kaufpreis',
      when: [SALE, { path: 'preise.kaufpreis.@auf_anfrage', notIn: ['true', '1'] }],
    },
    RentPrice: { from: ['preise.nettokaltmiete', 'preise.kaltmiete', 'preise.warmmiete'], when: RENT },
    HOAMonth: 'preise.hausgeld',
    DepositFee: 'preise.kaution',
    Bedrooms: { from: ['flaechen.anzahl_schlafzimmer', '$noRooms'] },
    Bathrooms: { from: ['flaechen.anzahl_badezimmer', '$noRooms'] },
    ParkingSpots: '$parking',
    BuildingArea: {
      from: ['flaechen.wohnflaeche', 'flaechen.nutzflaeche', 'flaechen.gesamtflaeche'],
      unit: 'm2',
    },
    LotArea: { from: 'flaechen.grundstuecksflaeche', unit: 'm2' },
    YearBuilt: '$baujahr',
    Address: { from: ['geo.strasse', 'geo.hausnummer'], join: ' ' },
    City: 'geo.ort',
    State: 'geo.bundesland',
    ZIP: 'geo.plz',
    Latitude: 'geo.geokoordinaten.@breitengrad',
    Longitude: 'geo.geokoordinaten.@laengengrad',
    Description: { from: ['$description', 'freitexte.objekttitel'] },
    Url: '$url',
    Images: { from: '$images' },
    Tours: '$tour',
  },
  maps: {
    Status: { Offen: 'Active', Reserviert: 'Active', Verkauft: 'Sold', Referenz: 'Sold' },
    PropertyType: {
      zimmer: 'Room',
      wohnung: 'Apartment',
      haus: 'House',
      grundstueck: 'Land',
      buero_praxen: 'Office',
      einzelhandel: 'Retail',
      gastgewerbe: 'Hospitality',
      hallen_lager_prod: 'Industrial',
      land_und_forstwirtschaft: 'Agricultural',
      parken: 'Parking',
      sonstige: 'Other',
      freizeitimmobilie_gewerblich: 'Leisure',
      zinshaus_renditeobjekt: 'Investment Property',
    },
  },
  // What a record does not give is the unknown marker 0 by the mapping's `missing` policy (counted
  // per field in the ingest result; docs/feeds.md says what 0 means).
  // `$`-fields are the derive step's, never copied by `extensions.unmapped`.
  extensions: {
    exclude: ['$*'],
    fields: {
      'Source status': '$status',
      Objektart: '$objekttyp',
      Titel: 'freitexte.objekttitel',
      Zimmer: 'flaechen.anzahl_zimmer',
      Baujahr: '$baujahrText',
      Warmmiete: 'preise.warmmiete',
      Nebenkosten: 'preise.nebenkosten',
      Lage: 'freitexte.lage',
      Ausstattung: 'freitexte.ausstatt_beschr',
    },
  },
};
