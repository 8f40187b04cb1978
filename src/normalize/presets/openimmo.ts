import type { FactRule, MappingConfig } from '../mapping-schema.ts';
import { PRICE_ON_REQUEST } from '../money.ts';

const SALE = { path: '$saleType', in: ['for_sale'] };
const RENT = { path: '$saleType', in: ['for_rent'] };
/** An amount of `preise` with the record's currency (`$currency`: `waehrung`, else EUR), per month. */
const monthly = (path: string): FactRule => ({ from: [path, '$currency'], as: 'money', suffix: ' a month' });
const ADDRESS_RELEASED = () => ({
  path: 'verwaltung_objekt.objektadresse_freigeben',
  notIn: ['0', 'false', 'nein'],
});

/**
 * OpenImmo 1.2.x (`openimmo/anbieter/immobilie`, on an `xml` source). The `$`-fields come from
 * `deriveOpenImmoFields` (openimmo-derive.ts). The key is `verwaltung_techn/objektnr_extern`;
 * `aktion aktionart="DELETE"` removes the listing. Areas are square meters, rents monthly (German
 * feeds state them per month), the currency EUR unless `waehrung` says otherwise. The listing URL is
 * the `ANBOBJURL` attachment; a feed without one sets `fields.Url`. OpenImmo has no days on market:
 * it is the unknown marker 0, as are areas and parking a record does not give.
 */
export const openimmo: MappingConfig = {
  // No `decimalComma`: the schema says a decimal point (xs:decimal), but German exports write
  // `1.250` for 1250 beside `184,5`; a dot before three final digits is refused, naming the setting.
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
    // `objektadresse_freigeben` false: the agent does not publish the street or the exact point.
    Address: { from: ['geo.strasse', 'geo.hausnummer'], join: ' ', when: ADDRESS_RELEASED() },
    City: 'geo.ort',
    State: 'geo.bundesland',
    ZIP: 'geo.plz',
    Latitude: { from: 'geo.geokoordinaten.@breitengrad', when: ADDRESS_RELEASED() },
    Longitude: { from: 'geo.geokoordinaten.@laengengrad', when: ADDRESS_RELEASED() },
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
  // per field in the ingest result; docs/feeds.md says what 0 means). Every `flaechen` count is
  // optional in OpenImmo: a missing bedroom or bathroom count is the marker, never a rejection.
  missing: { Bedrooms: 'unknown', Bathrooms: 'unknown' },
  // `$`-fields are the derive step's (openimmo-derive.ts, openimmo-facts.ts), never copied by
  // `extensions.unmapped`. Keys are English; German free text stays German, codes are translated.
  extensions: {
    exclude: ['$*'],
    fields: {
      // Only the status the file states: a full export's default (Active) is not the agent's word.
      'Source status': {
        from: '$statusStated',
        map: {
          Offen: 'available',
          Reserviert: 'reserved',
          Verkauft: 'sold',
          Referenz: 'reference object',
          Delete: '',
        },
      },
      // A price on request (`<kaufpreis auf_anfrage="true"/>`): SalePrice is left unset, and this says why.
      [PRICE_ON_REQUEST.Key]: {
        yes: { 'preise.kaufpreis.@auf_anfrage': PRICE_ON_REQUEST.value },
        when: [SALE],
      },
      'Property kind': '$kind',
      Title: 'freitexte.objekttitel',
      Rooms: { from: 'flaechen.anzahl_zimmer', as: 'number' },
      'Year built': '$baujahrText',
      Condition: '$condition',
      'Available from': { from: 'verwaltung_objekt.verfuegbar_ab', as: 'date' },
      // Amounts with their currency, per month as German feeds state them, read as the price fields
      // read them: `2.210` is refused until `mapping.decimalComma` says which number it is, and then
      // only the fact is left out (said in the report), never quoted as €2.21 (compile-facts.ts).
      'Rent incl. heating': monthly('preise.warmmiete'),
      'Service charges': monthly('preise.nebenkosten'),
      'Heating costs': monthly('preise.heizkosten'),
      "Buyer's commission": 'preise.aussen_courtage',
      Agent: '$agent',
      Office: '$office',
      'Energy rating': '$energyClass',
      'Energy certificate': '$energyCertificate',
      Heating: '$heating',
      'Air conditioning': '$airConditioning',
      Floor: '$floor',
      Lift: '$lift',
      Parking: '$parkingKinds',
      'Outdoor space': '$outdoor',
      Pool: '$pool',
      Kitchen: '$kitchen',
      Bathroom: '$bath',
      Flooring: '$flooring',
      Cellar: '$cellar',
      Furnished: '$furnished',
      'Fit-out': '$quality',
      Features: '$amenities',
      Accessibility: '$accessibility',
      'Pets allowed': '$pets',
      View: '$views',
      Distances: '$distances',
      'Location description': 'freitexte.lage',
      'Features description': 'freitexte.ausstatt_beschr',
      'Other information': 'freitexte.sonstige_angaben',
    },
  },
};
