import { hash } from 'node:crypto';
import { RETURNED_FIELDS } from '../api/canonicalize.ts';
import type { ExtensionEntry, Listing } from '../normalize/listing-schema.ts';
import { NUMERIC_FIELDS } from '../normalize/listing-schema.ts';
import { extensionKey, isUnset } from './compare.ts';

/**
 * Compact digests of listings, so a run holds a short string per listing instead of the listing
 * (issue 13: flat memory). A digest covers the fields the list operation returns, in the canonical
 * form `compare.ts` compares them in, and only the fields the feed sets (a field the feed leaves
 * unset is not compared). Equal digests mean `diffListing` finds no change; different digests send
 * the listing to `diffListing`, which decides (a number just across a bucket edge, say, is equal
 * there). So the digest is a fast path and never the judge of a change.
 */

/** How a field is put in canonical form (plain numbers: type stripping has no enums). */
const Kind = { Text: 0, Enum: 1, Number: 2, Coordinate: 3, Images: 4, Extension: 5 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

const ENUMS = new Set<string>(['SaleType', 'Status', 'Tours', 'SpaceType']);
const NUMERIC = new Set<string>(NUMERIC_FIELDS);

const KINDS: readonly Kind[] = RETURNED_FIELDS.map((field) => {
  if (field === 'Latitude' || field === 'Longitude') return Kind.Coordinate;
  if (NUMERIC.has(field)) return Kind.Number;
  if (ENUMS.has(field)) return Kind.Enum;
  if (field === 'Images') return Kind.Images;
  if (field === 'ExtensionColumn') return Kind.Extension;
  return Kind.Text;
});

if (RETURNED_FIELDS.length > 31) throw new Error('a field mask holds at most 31 fields');

/** Which of the returned fields a listing sets: bit i for `RETURNED_FIELDS[i]`. */
export function fieldMask(listing: Partial<Listing>): number {
  let mask = 0;
  for (let i = 0; i < RETURNED_FIELDS.length; i++) {
    if (!isUnset(listing[RETURNED_FIELDS[i]!])) mask |= 1 << i;
  }
  return mask;
}

const text = (value: unknown) => String(value).trim().replace(/\s+/g, ' ');

/**
 * One field's canonical text. Numbers fall in buckets narrower than the tolerance of `compare.ts`
 * (half a cent; 1e-6 for coordinates), so two numbers in one bucket are always equal there.
 */
function part(kind: Kind, value: unknown): string {
  if (isUnset(value)) return '\u0002';
  switch (kind) {
    case Kind.Number:
      return String(Math.round(Number(value) * 200));
    case Kind.Coordinate:
      return String(Math.round(Number(value) * 1e6));
    case Kind.Enum:
      return String(value)
        .toLowerCase()
        .replace(/[\s_-]+/g, '');
    case Kind.Images:
      return (value as unknown[]).map(text).join('\u0001');
    case Kind.Extension:
      return extensionKey(value as ExtensionEntry[]);
    default:
      return text(value);
  }
}

/**
 * The digest of `listing`'s fields in `mask` (see `fieldMask`), remote or desired alike: 48 bits of
 * SHA-1 as a number (a number, not a string, is 16 bytes a listing). Two versions of one listing
 * collide once in 2^48.
 */
export function fieldsDigest(listing: Partial<Listing>, mask: number): number {
  let joined = '';
  for (let i = 0; i < RETURNED_FIELDS.length; i++) {
    if ((mask & (1 << i)) === 0) continue;
    joined += `${part(KINDS[i]!, listing[RETURNED_FIELDS[i]!])}\u0003`;
  }
  return Number.parseInt(hash('sha1', joined, 'hex').slice(0, 12), 16);
}
