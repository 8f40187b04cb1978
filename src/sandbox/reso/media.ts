import { type GeneratorOptions, listingKey, randomFor } from './generate.ts';
import type { ResoRecord } from './odata-eval.ts';

/**
 * The Media records of listing `index` at photo version `version` (0 = as generated; a test that
 * changes the photos bumps it, and every URL changes with it, as MLS Grid documents: "Any change
 * issues a new Media URL"). Some listings have no media; some carry a video or a PDF besides the
 * photos. The array is deliberately not in `Order`: a client must sort.
 */
export function generateMedia(
  options: GeneratorOptions,
  index: number,
  version: number,
  changedAt: string,
): ResoRecord[] {
  const random = randomFor(options.seed, index, 0x3ed1a + version);
  const key = listingKey(options, index);
  const photos = random() < 0.05 ? 0 : 1 + Math.floor(random() * 24);
  const media: ResoRecord[] = [];
  for (let n = 1; n <= photos; n++) {
    media.push({
      MediaKey: `${key}-M${version}-${n}`,
      ResourceRecordKey: key,
      ResourceName: 'Property',
      MediaCategory: 'Photo',
      MediaType: 'image/jpeg',
      Order: n,
      MediaURL: `https://${options.mediaHost}/${key}/${version}/${n}.jpg`,
      MediaModificationTimestamp: changedAt,
      ShortDescription: n === 1 ? 'Front' : null,
    });
  }
  const extra = random();
  if (photos > 0 && extra < 0.1)
    media.push({
      MediaKey: `${key}-V${version}`,
      ResourceRecordKey: key,
      ResourceName: 'Property',
      MediaCategory: 'Video',
      MediaType: 'video/mp4',
      Order: photos + 1,
      MediaURL: `https://${options.mediaHost}/${key}/${version}/tour.mp4`,
      MediaModificationTimestamp: changedAt,
      ShortDescription: 'Walkthrough',
    });
  else if (photos > 0 && extra < 0.2)
    media.push({
      MediaKey: `${key}-D${version}`,
      ResourceRecordKey: key,
      ResourceName: 'Property',
      MediaCategory: 'Document',
      MediaType: 'application/pdf',
      Order: photos + 1,
      MediaURL: `https://${options.mediaHost}/${key}/${version}/disclosure.pdf`,
      MediaModificationTimestamp: changedAt,
      ShortDescription: 'Seller disclosure',
    });
  // Rotate so the array starts mid-way: servers do not promise `Order`.
  const shift = media.length > 1 ? Math.floor(random() * media.length) : 0;
  return [...media.slice(shift), ...media.slice(0, shift)];
}
