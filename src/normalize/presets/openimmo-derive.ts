import { type RawFields, scalarOf } from '../field-path.ts';
import { htmlToText } from '../html-text.ts';
import { absoluteMediaUrl, distinctValues } from '../media-url.ts';
import { openImmoFacts } from './openimmo-facts.ts';
import type { PresetContext, PresetHooks } from './preset-hook-types.ts';

/** `anhang` groups that are pictures of the property, the title picture first. */
const PHOTO_GROUPS = ['TITELBILD', 'AUSSENANSICHTEN', 'INNENANSICHTEN', 'BILD', 'GRUNDRISS'];
const IMAGE_FILE = /\.(jpe?g|png|gif|webp)(\?|$)/i;
const IMAGE_FORMAT = /^(image\/|jpe?g$|png$|gif$|webp$)/i;
/** A file name's extension (`grundriss.pdf` → pdf), when it has one. */
const EXTENSION = /\.([a-z0-9]{2,5})(?:\?.*)?$/i;
/** Kinds with no bedrooms or bathrooms to count (land, parking, offices, shops, halls): the marker 0. */
const NO_ROOMS = new Set([
  'grundstueck',
  'parken',
  'land_und_forstwirtschaft',
  'buero_praxen',
  'einzelhandel',
  'hallen_lager_prod',
]);
const TRUE = new Set(['true', '1']);

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

/**
 * The `$`-fields the `openimmo` preset reads from an `immobilie`: the child element of `objektart`
 * (`$objektart`: `wohnung`, `haus`… and `$objekttyp`: `haus EINFAMILIENHAUS`), the marketing type
 * from the `vermarktungsart` flags, else from the kind of price stated (`$saleType`), the status with `aktion aktionart="DELETE"` as
 * `Delete` (`$status`), photos and the listing URL from `anhaenge` (`$images`, `$url`, `$tour`),
 * parking from the `stp_*` counts when `anzahl_stellplaetze` is absent, the description as text,
 * and 0 rooms for land, parking and commercial space (`$noRooms`).
 */
export function deriveOpenImmoFields(fields: RawFields, context: PresetContext): RawFields {
  const objektart = object(at(fields, 'objektkategorie', 'objektart')) ?? {};
  // `objektart_zusatz` sits beside the kind element: a note, not a kind.
  const kind = Object.keys(objektart).find(
    (key) => !key.startsWith('@') && !key.startsWith('#') && key !== 'objektart_zusatz',
  );
  const subtype = kind
    ? Object.entries(object(objektart[kind]) ?? {}).find(([k]) => k.startsWith('@'))?.[1]
    : undefined;
  const flags = object(at(fields, 'objektkategorie', 'vermarktungsart')) ?? {};
  const flag = (name: string) => TRUE.has(textOf(flags[`@${name}`]).toLowerCase());
  const attachments = list(at(fields, 'anhaenge', 'anhang'))
    .map(object)
    .filter((a) => a !== undefined);
  const description = textOf(at(fields, 'freitexte', 'objektbeschreibung'));
  const built = textOf(at(fields, 'zustand_angaben', 'baujahr'));
  return {
    ...fields,
    ...openImmoFacts(fields, kind, subtype === undefined ? undefined : textOf(subtype)),
    $objektart: kind,
    $objekttyp: kind && subtype !== undefined ? `${kind} ${textOf(subtype)}` : kind,
    $saleType: flag('KAUF')
      ? 'for_sale'
      : flag('MIETE_PACHT') || flag('ERBPACHT') || flag('LEASING')
        ? 'for_rent'
        : saleTypeFromPrice(fields),
    $status: openImmoStatus(fields),
    // The status the file states (not the default of a full export): the `Source status` fact.
    $statusStated: statedStatus(fields),
    $images: openImmoPhotos(attachments, context.mediaBaseUrl),
    $url: attachments
      .filter((a) => textOf(a['@gruppe']).toUpperCase() === 'ANBOBJURL')
      .map((a) => absoluteMediaUrl(textOf(at(a, 'daten', 'pfad')) || textOf(a.anhangtitel), undefined))
      .find((url) => url !== undefined),
    $tour: attachments.some((a) => textOf(a['@gruppe']).toUpperCase() === 'PANORAMA') ? '3D' : undefined,
    $parking: openImmoParking(fields),
    $description: description === '' ? undefined : htmlToText(description),
    $noRooms: kind && NO_ROOMS.has(kind) ? '0' : undefined,
    $baujahr: yearOf(built),
    // The feed's own words, when they said more than the year.
    $baujahrText: built !== '' && yearOf(built) !== built ? built : undefined,
  };
}

/** Rent elements of `preise`: a listing that states one of them (and no purchase price) is let. */
const RENTS = ['kaltmiete', 'warmmiete', 'nettokaltmiete', 'pacht', 'erbpacht', 'mietpreis_pro_qm'];

/**
 * Exports without `vermarktungsart` (some portals' exports leave it out): the kind of price the
 * record states says it, as a person reads it: a `kaufpreis` is a sale, a rent (`kaltmiete`,
 * `warmmiete`, `nettokaltmiete`, `pacht`) a let. Neither: undefined (the record says nothing).
 */
function saleTypeFromPrice(fields: RawFields): string | undefined {
  const prices = object(fields.preise) ?? {};
  const stated = (name: string) =>
    textOf(prices[name]) !== '' || object(prices[name])?.['@auf_anfrage'] !== undefined;
  if (stated('kaufpreis')) return 'for_sale';
  return RENTS.some(stated) ? 'for_rent' : undefined;
}

/**
 * `baujahr` is free text in many exports: `1908`, `ca. 1908`, `um 1900`. The one year in it is the
 * year (the text is kept in ExtensionColumn); text with no year or two years stays as it is, and the
 * mapping says what is wrong with it.
 */
function yearOf(text: string): string | undefined {
  if (text === '') return undefined;
  const years = text.match(/\b(1[6-9]\d\d|20\d\d)\b/g);
  return years?.length === 1 ? years[0] : text;
}

/** `Delete` for `aktionart="DELETE"`, `Referenz` for a reference object, else `verkaufstatus stand`, else `Offen`. */
function openImmoStatus(fields: RawFields): string {
  const action = textOf(at(fields, 'verwaltung_techn', 'aktion', '@aktionart')).toUpperCase();
  if (action === 'DELETE') return 'Delete';
  return statedStatus(fields) ?? 'OFFEN';
}

/** `Referenz`, or `verkaufstatus stand` as the file writes it; undefined when it states none. */
function statedStatus(fields: RawFields): string | undefined {
  const action = textOf(at(fields, 'verwaltung_techn', 'aktion', '@aktionart')).toUpperCase();
  if (action === 'REFERENZ') return 'Referenz';
  return textOf(at(fields, 'zustand_angaben', 'verkaufstatus', '@stand')) || undefined;
}

/** Pictures of the property in feed order, the title picture first, as absolute URLs. */
function openImmoPhotos(
  attachments: Record<string, unknown>[],
  base: string | undefined,
): string[] | undefined {
  const photos: [rank: number, at: number, url: string][] = [];
  attachments.forEach((attachment, i) => {
    const group = textOf(attachment['@gruppe']).toUpperCase();
    const path = textOf(at(attachment, 'daten', 'pfad'));
    const format = textOf(attachment.format);
    // Only images are photos: a group of pictures (a floor plan, GRUNDRISS) also carries PDFs. The
    // format (`image/jpeg`, `JPG`, `.png`) or the file's extension says which (either saying image is
    // enough); a group with neither is taken at its word.
    const image = isImage(format, path);
    const rank =
      group === '' ? (image === true ? 9 : -1) : image === false ? -1 : PHOTO_GROUPS.indexOf(group);
    if (rank < 0) return;
    const url = absoluteMediaUrl(path, base);
    if (url !== undefined) photos.push([rank === 0 ? 0 : 1, i, url]);
  });
  photos.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return photos.length > 0 ? distinctValues(photos.map(([, , url]) => url)) : undefined;
}

/** Whether an attachment is an image by its `format` or its file's extension; undefined when neither says. */
function isImage(format: string, path: string): boolean | undefined {
  const byFormat = format === '' ? undefined : IMAGE_FORMAT.test(format.replace(/^\./, ''));
  const byFile = EXTENSION.test(path) ? IMAGE_FILE.test(path) : undefined;
  if (byFormat === true || byFile === true) return true;
  return byFormat === false || byFile === false ? false : undefined;
}

/** `flaechen/anzahl_stellplaetze`, else the sum of the `anzahl` of the `preise/stp_*` parking elements. */
function openImmoParking(fields: RawFields): string | undefined {
  const stated = textOf(at(fields, 'flaechen', 'anzahl_stellplaetze'));
  if (stated !== '') return stated;
  let sum: number | undefined;
  for (const [key, value] of Object.entries(object(fields.preise) ?? {})) {
    if (!key.startsWith('stp_')) continue;
    for (const item of list(value)) {
      const count = Number(textOf(object(item)?.['@anzahl']));
      if (Number.isFinite(count) && count > 0) sum = (sum ?? 0) + count;
    }
  }
  return sum === undefined ? undefined : String(sum);
}

export const openimmoHooks: PresetHooks = { derive: deriveOpenImmoFields };
