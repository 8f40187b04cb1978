import { formatDate, parseDate } from '../fact-dates.ts';
import { type RawFields, scalarOf } from '../field-path.ts';

/**
 * OpenImmo's buyer facts as `$`-fields the `openimmo` preset puts in ExtensionColumn with English
 * keys: the code attributes of `ausstattung` (`<heizungsart ZENTRAL="true" FUSSBODEN="1"/>`,
 * `<bad DUSCHE="true"/>`, `<fahrstuhl PERSONEN="true"/>`…) translated to words, the energy
 * certificate, the contact person, distances, the floor. Exporters differ in case (`dusche="true"`)
 * and truth (`"1"`, `"true"`): both are read. German free text (`lage`, `ausstatt_beschr`) stays
 * German; only codes are translated. A code not in the tables is kept, readably (`WASSER_ELEKTRO` →
 * `wasser elektro`), never dropped.
 */

const HEATING: Readonly<Record<string, string>> = {
  OFEN: 'stove',
  ETAGE: 'floor-level heating',
  ZENTRAL: 'central heating',
  FERN: 'district heating',
  FUSSBODEN: 'underfloor heating',
};
const FUEL: Readonly<Record<string, string>> = {
  OEL: 'oil',
  GAS: 'gas',
  ELEKTRO: 'electric',
  ALTERNATIV: 'alternative energy',
  SOLAR: 'solar',
  ERDWAERME: 'geothermal',
  LUFTWP: 'air-source heat pump',
  WAERMEPUMPE: 'heat pump',
  FERN: 'district heating',
  BLOCK: 'combined heat and power',
  WASSER_ELEKTRO: 'electric water heating',
  PELLET: 'wood pellets',
  KOHLE: 'coal',
  HOLZ: 'wood',
  FLUESSIGGAS: 'liquid gas',
  // `energiepass/primaerenergietraeger` codes exporters write (the element itself is free text).
  FERNWAERME: 'district heating',
  NAHWAERME: 'local heating network',
  STROM: 'electricity',
  ERDGAS: 'natural gas',
  HEIZOEL: 'heating oil',
  PELLETS: 'wood pellets',
  HOLZPELLETS: 'wood pellets',
  UMWELTWAERME: 'ambient heat',
};
const KITCHEN: Readonly<Record<string, string>> = {
  EBK: 'fitted kitchen',
  OFFEN: 'open kitchen',
  PANTRY: 'kitchenette',
};
const BATH: Readonly<Record<string, string>> = {
  DUSCHE: 'shower',
  WANNE: 'bathtub',
  FENSTER: 'window',
  BIDET: 'bidet',
  PISSOIR: 'urinal',
};
const FLOOR: Readonly<Record<string, string>> = {
  FLIESEN: 'tiles',
  STEIN: 'stone',
  TEPPICH: 'carpet',
  PARKETT: 'parquet',
  FERTIGPARKETT: 'engineered parquet',
  LAMINAT: 'laminate',
  DIELEN: 'floorboards',
  KUNSTSTOFF: 'vinyl',
  ESTRICH: 'screed',
  DOPPELBODEN: 'raised floor',
  LINOLEUM: 'linoleum',
  MARMOR: 'marble',
  TERRAKOTTA: 'terracotta',
  GRANIT: 'granite',
};
const LIFT: Readonly<Record<string, string>> = { PERSONEN: 'passenger lift', LASTEN: 'goods lift' };
const PARKING: Readonly<Record<string, string>> = {
  GARAGE: 'garage',
  TIEFGARAGE: 'underground garage',
  CARPORT: 'carport',
  FREIPLATZ: 'outdoor space',
  PARKHAUS: 'car park',
  DUPLEX: 'stacker space',
};
const ORIENTATION: Readonly<Record<string, string>> = {
  NORD: 'north',
  OST: 'east',
  SUED: 'south',
  WEST: 'west',
  NORDOST: 'north-east',
  NORDWEST: 'north-west',
  SUEDOST: 'south-east',
  SUEDWEST: 'south-west',
};
const VIEW: Readonly<Record<string, string>> = {
  FERNE: 'distant view',
  SEE: 'lake view',
  BERGE: 'mountain view',
  MEER: 'sea view',
};
const FURNISHED: Readonly<Record<string, string>> = { VOLL: 'fully furnished', TEIL: 'part furnished' };
const CELLAR: Readonly<Record<string, string>> = { JA: 'yes', NEIN: 'no', TEIL: 'partial' };
const QUALITY: Readonly<Record<string, string>> = {
  EINFACH: 'basic',
  STANDARD: 'standard',
  GEHOBEN: 'upscale',
  LUXUS: 'luxury',
};
const CONDITION: Readonly<Record<string, string>> = {
  ERSTBEZUG: 'first occupancy',
  ERSTBEZUG_NACH_SANIERUNG: 'first occupancy after refurbishment',
  NEUWERTIG: 'as new',
  GEPFLEGT: 'well kept',
  MODERNISIERT: 'modernised',
  RENOVIERUNGSBEDUERFTIG: 'needs renovation',
  TEIL_VOLLRENOVIERT: 'partly or fully renovated',
  TEIL_VOLLRENOVIERUNGSBED: 'needs partial or full renovation',
  VOLL_SANIERT: 'fully refurbished',
  TEIL_SANIERT: 'partly refurbished',
  SANIERUNGSBEDUERFTIG: 'needs refurbishment',
  BAUFAELLIG: 'dilapidated',
  NACH_VEREINBARUNG: 'by arrangement',
  PROJEKTIERT: 'planned',
  ROHBAU: 'shell construction',
  ABRISSOBJEKT: 'for demolition',
  ENTKERNT: 'gutted',
};
const CERTIFICATE: Readonly<Record<string, string>> = {
  VERBRAUCH: 'consumption-based',
  BEDARF: 'demand-based',
};
/** `distanzen distanz_zu` and `distanzen_sport distanz_zu_sport`. */
const DISTANCE: Readonly<Record<string, string>> = {
  FLUGHAFEN: 'airport',
  FERNBAHNHOF: 'mainline station',
  AUTOBAHN: 'motorway',
  US_BAHN: 'metro/suburban rail',
  BUS: 'bus stop',
  KINDERGAERTEN: 'nursery',
  GRUNDSCHULE: 'primary school',
  HAUPTSCHULE: 'secondary school',
  REALSCHULE: 'secondary school',
  GESAMTSCHULE: 'comprehensive school',
  GYMNASIUM: 'grammar school',
  ZENTRUM: 'town centre',
  EINKAUFSMOEGLICHKEITEN: 'shops',
  GASTSTAETTEN: 'restaurants',
  STRAND: 'beach',
  SEE: 'lake',
  MEER: 'sea',
  SKIGEBIET: 'ski area',
  SPORTANLAGEN: 'sports facilities',
  WANDERGEBIETE: 'hiking',
  NAHERHOLUNG: 'recreation area',
};
/** Boolean elements of `ausstattung` (`<sauna>true</sauna>`), as features. */
const AMENITY: Readonly<Record<string, string>> = {
  kamin: 'fireplace',
  sauna: 'sauna',
  wintergarten: 'conservatory',
  gartennutzung: 'garden use',
  gaestewc: 'guest WC',
  abstellraum: 'storage room',
  fahrradraum: 'bicycle room',
  wasch_trockenraum: 'laundry room',
  kabel_sat_tv: 'cable/satellite TV',
  dachboden: 'attic',
  rollladen: 'roller shutters',
  rolladen: 'roller shutters',
  wg_geeignet: 'suitable for flat sharing',
  bibliothek: 'library',
  sicherheitstechnik: 'security system',
  breitband_zugang: 'broadband',
  dv_verkabelung: 'network cabling',
  wellnessbereich: 'wellness area',
};
const ACCESS: Readonly<Record<string, string>> = {
  barrierefrei: 'barrier-free',
  rollstuhlgerecht: 'wheelchair accessible',
  seniorengerecht: 'senior-friendly',
};
/** `wohnungtyp`, `haustyp`, `grundst_typ`… values, in words (the element names are in openimmo.ts). */
const SUBTYPE: Readonly<Record<string, string>> = {
  DACHGESCHOSS: 'attic flat',
  MAISONETTE: 'maisonette',
  LOFT_STUDIO_ATELIER: 'loft/studio',
  PENTHOUSE: 'penthouse',
  TERRASSEN: 'terrace flat',
  ETAGE: 'upper-floor flat',
  ERDGESCHOSS: 'ground-floor flat',
  SOUTERRAIN: 'basement flat',
  APARTMENT: 'apartment',
  FERIENWOHNUNG: 'holiday flat',
  GALERIE: 'gallery flat',
  ATTIKAWOHNUNG: 'attic-storey flat',
  REIHENHAUS: 'terraced house',
  REIHENEND: 'end-of-terrace house',
  REIHENMITTEL: 'mid-terrace house',
  REIHENECK: 'end-of-terrace house',
  DOPPELHAUSHAELFTE: 'semi-detached house',
  EINFAMILIENHAUS: 'detached house',
  ZWEIFAMILIENHAUS: 'two-family house',
  MEHRFAMILIENHAUS: 'apartment building',
  STADTHAUS: 'town house',
  BUNGALOW: 'bungalow',
  VILLA: 'villa',
  RESTHOF: 'farmstead',
  BAUERNHAUS: 'farmhouse',
  LANDHAUS: 'country house',
  SCHLOSS: 'castle',
  FERIENHAUS: 'holiday home',
  BERGHUETTE: 'mountain hut',
  CHALET: 'chalet',
  STRANDHAUS: 'beach house',
  FINCA: 'finca',
  FERTIGHAUS: 'prefabricated house',
  WOHNEN: 'residential plot',
  GEWERBE: 'commercial plot',
  INDUSTRIE: 'industrial plot',
  LAND_FORSTWIRSCHAFT: 'agricultural or forest land',
  FREIZEIT: 'leisure plot',
  GEMISCHT: 'mixed-use plot',
  GEWERBEPARK: 'business park',
  SONDERNUTZUNG: 'special-use plot',
  SEELIEGENSCHAFT: 'lakeside plot',
  BUEROFLAECHE: 'office space',
  BUEROHAUS: 'office building',
  PRAXIS: 'practice',
  LADENLOKAL: 'shop',
  EINZELHANDELSLADEN: 'retail shop',
  GARAGE: 'garage',
  TIEFGARAGENSTELLPLATZ: 'underground parking space',
  FREIPLATZ: 'outdoor parking space',
  CARPORT: 'carport',
  ZIMMER: 'room',
};
/** Element names inside `objektart`, in words. */
const KIND: Readonly<Record<string, string>> = {
  zimmer: 'room',
  wohnung: 'apartment',
  haus: 'house',
  grundstueck: 'land',
  buero_praxen: 'office',
  einzelhandel: 'retail',
  gastgewerbe: 'hospitality',
  hallen_lager_prod: 'industrial',
  land_und_forstwirtschaft: 'agricultural',
  parken: 'parking',
  sonstige: 'other',
  freizeitimmobilie_gewerblich: 'leisure',
  zinshaus_renditeobjekt: 'investment property',
};

const TRUE = new Set(['true', '1', 'ja', 'yes']);
const FALSE = new Set(['false', '0', 'nein', 'no']);

const object = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
const list = (value: unknown): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const textOf = (value: unknown): string => {
  const scalar = scalarOf(value);
  return scalar === undefined || scalar === null || typeof scalar === 'object' ? '' : String(scalar).trim();
};
const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((current, key) => object(current)?.[key], value);
const code = (text: string) => text.toUpperCase().replace(/[-\s]+/g, '_');
const readable = (text: string) => text.toLowerCase().replace(/_/g, ' ');
const words = (table: Readonly<Record<string, string>>, text: string) => table[code(text)] ?? readable(text);
const joined = (values: readonly string[], separator = ', ') =>
  values.length > 0 ? [...new Set(values)].join(separator) : undefined;

/** The attribute names of an element whose values are true (`<heizungsart ZENTRAL="true" OFEN="0"/>` → ZENTRAL). */
function trueAttributes(element: unknown): string[] {
  const names: string[] = [];
  for (const item of list(element)) {
    for (const [key, value] of Object.entries(object(item) ?? {}))
      if (key.startsWith('@') && TRUE.has(textOf(value).toLowerCase())) names.push(key.slice(1));
  }
  return names;
}

/** The value of an element's one attribute (`<moebliert moeb="TEIL"/>` → TEIL). */
const attribute = (element: unknown, name: string) => {
  const found = Object.entries(object(list(element)[0]) ?? {}).find(
    ([key]) => key.toLowerCase() === `@${name}`,
  );
  return found ? textOf(found[1]) : '';
};

/** An element's text as yes / no (`<klimatisiert>true</klimatisiert>`), or undefined. */
function flag(element: unknown): boolean | undefined {
  const text = textOf(list(element)[0]).toLowerCase();
  return TRUE.has(text) ? true : FALSE.has(text) ? false : undefined;
}

/** `3.00` → `3`, `2.50` → `2.5`. */
const number = (text: string) => (/^\d+\.\d+$/.test(text) ? String(Number(text)) : text);

/** An energy source as the certificate gives it: a code in words (`GAS` → gas), German text kept (`Strom`). */
const fuel = (text: string) => (/^[A-Z][A-Z_]+$/.test(text) ? (FUEL[text] ?? readable(text)) : text);

/** `2031-04-01`, `01.04.2031` → `1 Apr 2031`, as the other date facts read; other text kept. */
const date = (text: string) => {
  const parsed = parseDate(text);
  return parsed ? formatDate(parsed.date) : text;
};

export function openImmoFacts(
  fields: RawFields,
  kind: string | undefined,
  subtype: string | undefined,
): RawFields {
  const equipment = object(fields.ausstattung) ?? {};
  const heating = [
    ...trueAttributes(equipment.heizungsart).map((c) => words(HEATING, c)),
    ...trueAttributes(equipment.befeuerung).map((c) => words(FUEL, c)),
  ];
  const amenities = Object.entries(AMENITY)
    .filter(([element]) => flag(equipment[element]) === true)
    .map(([, label]) => label);
  const access = Object.entries(ACCESS)
    .filter(([element]) => flag(equipment[element]) === true)
    .map(([, label]) => label);
  const parking = trueAttributes(equipment.stellplatzart).map((c) => words(PARKING, c));
  const orientation = trueAttributes(equipment.ausricht_balkon_terrasse).map((c) => words(ORIENTATION, c));
  const furnished = attribute(equipment.moebliert, 'moeb');
  const cellar = attribute(equipment.unterkellert, 'keller');
  const quality =
    attribute(equipment.ausstatt_kategorie, 'wertigkeit') || textOf(equipment.ausstatt_kategorie);
  const pool = flag(equipment.swimmingpool);
  const airConditioning = flag(equipment.klimatisiert);
  const pets = flag(at(fields, 'verwaltung_objekt', 'haustiere'));
  const condition = attribute(at(fields, 'zustand_angaben', 'zustand'), 'zustand_art');
  const infrastructure = object(fields.infrastruktur) ?? {};
  const views = list(infrastructure.ausblick)
    .map((v) => attribute(v, 'blick'))
    .filter(Boolean)
    .map((c) => words(VIEW, c));
  const distances = [
    ...list(infrastructure.distanzen).map((d) => [attribute(d, 'distanz_zu'), textOf(d)] as const),
    ...list(infrastructure.distanzen_sport).map(
      (d) => [attribute(d, 'distanz_zu_sport'), textOf(d)] as const,
    ),
  ]
    .filter(([to, km]) => to !== '' && km !== '')
    .map(([to, km]) => `${words(DISTANCE, to)} ${number(km)} km`);
  const floor = textOf(at(fields, 'geo', 'etage'));
  const floors = textOf(at(fields, 'geo', 'anzahl_etagen'));
  const certificate = object(at(fields, 'zustand_angaben', 'energiepass')) ?? {};
  const energyValue = textOf(certificate.energieverbrauchkennwert) || textOf(certificate.endenergiebedarf);
  const contact = object(fields.kontaktperson) ?? {};
  const prices = object(fields.preise) ?? {};
  const currency = textOf(at(prices, 'waehrung', '@iso_waehrung')) || 'EUR';
  const person = [textOf(contact.vorname), textOf(contact.name)].filter(Boolean).join(' ');
  return {
    $kind:
      kind === undefined
        ? undefined
        : joined([KIND[kind] ?? readable(kind), ...(subtype ? [words(SUBTYPE, subtype)] : [])]),
    $heating: joined(heating),
    $airConditioning: airConditioning === undefined ? undefined : airConditioning ? 'yes' : 'no',
    $kitchen: joined(trueAttributes(equipment.kueche).map((c) => words(KITCHEN, c))),
    $bath: joined(trueAttributes(equipment.bad).map((c) => words(BATH, c))),
    $flooring: joined(trueAttributes(equipment.boden).map((c) => words(FLOOR, c))),
    $lift: joined(trueAttributes(equipment.fahrstuhl).map((c) => words(LIFT, c))),
    $parkingKinds: joined(parking),
    $outdoor: joined([
      ...(orientation.length > 0 ? [`balcony/terrace facing ${orientation.join(', ')}`] : []),
      ...(flag(equipment.gartennutzung) ? ['garden use'] : []),
    ]),
    $pool: pool === undefined ? undefined : pool ? 'yes' : 'no',
    $furnished: furnished === '' ? undefined : words(FURNISHED, furnished),
    $cellar: cellar === '' ? undefined : words(CELLAR, cellar),
    $quality: quality === '' ? undefined : words(QUALITY, quality),
    $amenities: joined(amenities.filter((a) => a !== 'garden use')),
    $accessibility: joined(access),
    $pets: pets === undefined ? undefined : pets ? 'yes' : 'no',
    $condition: condition === '' ? undefined : words(CONDITION, condition),
    $views: joined(views),
    $distances: joined(distances),
    $floor: floor === '' ? undefined : floors === '' ? floor : `${floor} of ${floors}`,
    $energyClass: textOf(certificate.wertklasse) || undefined,
    $energyCertificate: joined(
      [
        textOf(certificate.epart) ? words(CERTIFICATE, textOf(certificate.epart)) : '',
        energyValue ? `${number(energyValue)} kWh/m² a year` : '',
        fuel(textOf(certificate.primaerenergietraeger)),
        textOf(certificate.gueltig_bis) ? `valid until ${date(textOf(certificate.gueltig_bis))}` : '',
      ].filter(Boolean),
    ),
    $agent: joined(
      [
        person,
        textOf(contact.tel_durchw) || textOf(contact.tel_handy) || textOf(contact.tel_zentrale),
        textOf(contact.email_direkt) || textOf(contact.email_zentrale),
      ].filter(Boolean),
    ),
    $office: textOf(contact.firma) || undefined,
    // The currency of the amounts the preset's `money` facts read (`preise/warmmiete`…).
    $currency: currency,
  };
}
