import type { RawFields } from '../field-path.ts';
import { htmlToText } from '../html-text.ts';
import { absoluteMediaUrl, distinctValues } from '../media-url.ts';
import { BLM_NO_ROOMS, BLM_PRICE_QUALIFIER, BLM_RENT_FREQUENCY, BLM_STATUS } from './blm-codes.ts';
import type { PresetContext, PresetHooks } from './preset-hook-types.ts';

/** Photos are `MEDIA_IMAGE_00`…`_59`; 60 and up hold the HIP/EPC certificate graphs. */
const PHOTO = /^MEDIA_IMAGE_(\d+)$/;
const LAST_PHOTO = 59;
const CERTIFICATE_CAPTION = /^(HIP|EPC)$/i;

const text = (fields: RawFields, name: string): string =>
  typeof fields[name] === 'string' ? (fields[name] as string).trim() : '';

/**
 * The `$`-fields the `blm` preset reads: code lists as labels (`$status`, `$priceQualifier`,
 * `$rentFrequency` and `$rentPeriod`), photos as absolute URLs in their number order (`$images`), a
 * virtual tour (`$tour`), the description without markup, and 0 rooms for land and parking
 * (`$noRooms`). Furnishing, tenure and the other facts are rules of the preset (blm.ts).
 */
export function deriveBlmFields(fields: RawFields, context: PresetContext): RawFields {
  const status = text(fields, 'STATUS_ID');
  const qualifier = text(fields, 'PRICE_QUALIFIER');
  const frequency = text(fields, 'LET_RENT_FREQUENCY');
  const [rentFrequency, rentPeriod] =
    frequency === '' ? BLM_RENT_FREQUENCY['1']! : (BLM_RENT_FREQUENCY[frequency] ?? [frequency, frequency]);
  const isLet = text(fields, 'TRANS_TYPE_ID') === '2';
  const description = text(fields, 'DESCRIPTION');
  return {
    ...fields,
    // PUBLISHED_FLAG 0: the agent hides the property from the portals, so the chatbot drops it too.
    $status: text(fields, 'PUBLISHED_FLAG') === '0' ? 'Unpublished' : (BLM_STATUS[status] ?? status),
    $priceQualifier: BLM_PRICE_QUALIFIER[qualifier],
    $rentFrequency: isLet ? rentFrequency : undefined,
    $rentPeriod: isLet ? rentPeriod : undefined,
    $description: description === '' ? undefined : htmlToText(description),
    $images: blmPhotos(fields, context.mediaBaseUrl),
    $tour: Object.keys(fields).some((k) => k.startsWith('MEDIA_VIRTUAL_TOUR_') && text(fields, k) !== '')
      ? '3D'
      : undefined,
    $noRooms: BLM_NO_ROOMS.has(text(fields, 'PROP_SUB_ID')) ? '0' : undefined,
    $address:
      addressOf([text(fields, 'ADDRESS_1'), text(fields, 'ADDRESS_2'), text(fields, 'ADDRESS_3')]) ??
      addressOf([text(fields, 'HOUSE_NAME_NUMBER'), text(fields, 'STREET_NAME')]),
  };
}

/** A house number alone (`9`, `12A`, `9-11`): it belongs to the street that follows it. */
const HOUSE_NUMBER = /^\d+[A-Za-z]?(?:\s*[-/]\s*\d+[A-Za-z]?)?$/;

/**
 * Address lines as a person writes them: joined with commas (`Flat 2, Rose Court, High Street`),
 * except that a house number alone joins the street after it with a space (`9 Alwyne Villas`, not
 * `9, Alwyne Villas`), as agency software splits `ADDRESS_1` = `9`, `ADDRESS_2` = `Alwyne Villas`.
 */
export function addressOf(lines: readonly string[]): string | undefined {
  const parts: string[] = [];
  let glue = false;
  for (const line of lines) {
    if (line === '') continue;
    if (glue) parts[parts.length - 1] = `${parts[parts.length - 1]} ${line}`;
    else parts.push(line);
    glue = HOUSE_NUMBER.test(line);
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** `MEDIA_IMAGE_00`…`_59` by number, certificates left out, as absolute URLs (relative names need the base). */
export function blmPhotos(fields: RawFields, base: string | undefined): string[] | undefined {
  const photos: [number, string][] = [];
  for (const name of Object.keys(fields)) {
    const match = PHOTO.exec(name);
    const n = match ? Number(match[1]) : Number.NaN;
    if (!(n <= LAST_PHOTO)) continue;
    const caption = text(fields, `MEDIA_IMAGE_TEXT_${match![1]}`);
    const url = CERTIFICATE_CAPTION.test(caption) ? undefined : absoluteMediaUrl(text(fields, name), base);
    if (url !== undefined) photos.push([n, url]);
  }
  photos.sort((a, b) => a[0] - b[0]);
  return photos.length > 0 ? distinctValues(photos.map(([, url]) => url)) : undefined;
}

export const blmHooks: PresetHooks = {
  derive: deriveBlmFields,
};
