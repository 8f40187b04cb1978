import { platformImages, RETURNED_FIELDS } from '../api/index.ts';
import type { ExtensionEntry, Listing } from '../normalize/index.ts';
import {
  ENUM_FIELDS,
  MARKER_FIELDS,
  NUMERIC_FIELDS,
  photoStampOf,
  propertyReader,
} from '../normalize/index.ts';
import { leavesUnset } from './compare.ts';
import { isSpace } from './white-space.ts';

/**
 * Compact digests of listings, so a run holds a short string per listing instead of the listing
 * (issue 13: flat memory). A digest covers the fields the list operation returns, in the canonical
 * form `compare.ts` compares them in, and only the fields the feed sets (a field the feed leaves
 * unset is not compared). Equal digests mean `diffListing` finds no change; different digests send
 * the listing to `diffListing`, which decides (a number just across a bucket edge, say, is equal
 * there). So the digest is a fast path and never the judge of a change.
 */

/** How a field is put in canonical form (plain numbers: type stripping has no enums). */
export const Kind = { Text: 0, Enum: 1, Number: 2, Coordinate: 3, Images: 4, Extension: 5 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

const ENUMS = new Set<string>(ENUM_FIELDS);
const NUMERIC = new Set<string>(NUMERIC_FIELDS);

export const KINDS: readonly Kind[] = RETURNED_FIELDS.map((field) => {
  if (field === 'Latitude' || field === 'Longitude') return Kind.Coordinate;
  if (NUMERIC.has(field)) return Kind.Number;
  if (ENUMS.has(field)) return Kind.Enum;
  if (field === 'Images') return Kind.Images;
  if (field === 'ExtensionColumn') return Kind.Extension;
  return Kind.Text;
});

/** A reader per returned field, the key as a literal (literal-access.ts). */
const READERS = RETURNED_FIELDS.map((field) => propertyReader(field));

if (RETURNED_FIELDS.length > 31) throw new Error('a field mask holds at most 31 fields');

/**
 * A streaming 53-bit hash (cyrb53's two 32-bit lanes): fields are mixed in as they are read, with no
 * string built per listing and no call into crypto. State is module-level: the digest of one listing
 * never awaits, so two never interleave.
 */
let h1 = 0;
let h2 = 0;

/** The two lanes' multipliers. */
const M1 = 2654435761;
const M2 = 1597334677;

function mix(code: number): void {
  h1 = Math.imul(h1 ^ code, M1);
  h2 = Math.imul(h2 ^ code, M2);
}

/** Codes no UTF-16 unit can be: what separates and marks fields. */
const UNSET = 0x1_0002;
const ITEM_END = 0x1_0001;
const FIELD_END = 0x1_0003;
const NOT_A_NUMBER = 0x1_0004;
const ENTRY_VALUE = 0x1_0005;

/**
 * `String.prototype.charCodeAt`, called through the function. The texts a digest reads are every
 * kind of string V8 makes (flat, sliced from a chunk, joined, internalized, two-byte), each a map of
 * its own: at a `s.charCodeAt(i)` or `s.length` site that has seen more than four, the optimized
 * code looks the property up in a generic cache on every call. Called as `charCodeAt.call(s, i)`
 * on a value known to be a string (`${value}`), both are inlined whatever the string's map
 * (callgrind, a 10k no-op: the main thread 3.8 → 3.1 G instructions; docs/performance.md).
 */
const charCodeAt = String.prototype.charCodeAt;

/**
 * Text as compare.ts reads it (trimmed, inner runs of white space as one space), mixed in. The lanes
 * are locals while the text is read (module state is memory, not a register, for every character).
 */
function mixText(value: unknown): void {
  const s = `${value}`;
  let start = 0;
  let end = s.length;
  while (start < end && isSpace(charCodeAt.call(s, start))) start++;
  while (end > start && isSpace(charCodeAt.call(s, end - 1))) end--;
  let a = h1;
  let b = h2;
  let space = false;
  for (let i = start; i < end; i++) {
    const c = charCodeAt.call(s, i);
    if (isSpace(c)) space = true;
    else {
      if (space) {
        a = Math.imul(a ^ 32, M1);
        b = Math.imul(b ^ 32, M2);
      }
      space = false;
      a = Math.imul(a ^ c, M1);
      b = Math.imul(b ^ c, M2);
    }
  }
  h1 = a;
  h2 = b;
}

/** An enum spelling as compare.ts folds it: lower case, without white space, `_` or `-`. */
function mixFolded(value: unknown): void {
  const s = `${value}`.toLowerCase();
  let a = h1;
  let b = h2;
  for (let i = 0; i < s.length; i++) {
    const c = charCodeAt.call(s, i);
    if (c !== 95 && c !== 45 && !isSpace(c)) {
      a = Math.imul(a ^ c, M1);
      b = Math.imul(b ^ c, M2);
    }
  }
  h1 = a;
  h2 = b;
}

/** A whole number (up to 2^53) in two 32-bit halves. */
function mixNumber(n: number): void {
  if (Number.isFinite(n)) {
    mix(n % 4294967296);
    mix(Math.floor(n / 4294967296));
  } else mix(NOT_A_NUMBER);
}

/**
 * One field that is set (`isUnset` false), in canonical form. Numbers fall in buckets narrower than
 * the tolerance of compare.ts (half a cent; 1e-6 for coordinates), so two numbers in one bucket are
 * always equal there.
 */
function mixSet(kind: Kind, value: unknown): void {
  if (kind === Kind.Number) mixNumber(Math.round(Number(value) * 200));
  else if (kind === Kind.Coordinate) mixNumber(Math.round(Number(value) * 1e6));
  else if (kind === Kind.Enum) mixFolded(value);
  else if (kind === Kind.Images) mixImages(value as unknown[]);
  else if (kind === Kind.Extension) mixExtension(value as readonly ExtensionEntry[]);
  else mixText(value);
}

/** Images as the platform reads them back (`platformImages`), each URL as text. */
function mixImages(urls: readonly unknown[]): void {
  for (const url of platformImages(urls)) {
    mixText(url);
    mix(ITEM_END);
  }
}

/**
 * ExtensionColumn in any order, as `extensionKey` compares it (each entry's Key and value as text,
 * the entries as a multiset): each entry is hashed on its own lanes and the entries' hashes are
 * added up, so no string is built and nothing is sorted for the two to five entries of every
 * listing, both sides. Equal multisets give equal sums; a different one collides about once in 2^64.
 */
function mixExtension(entries: readonly ExtensionEntry[]): void {
  const outer1 = h1;
  const outer2 = h2;
  let sum1 = 0;
  let sum2 = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as ExtensionEntry;
    h1 = 0x9e3779b9;
    h2 = 0x85ebca6b;
    mixText(entry.Key);
    mix(ENTRY_VALUE);
    mixText(entry.value);
    sum1 = (sum1 + avalanche(h1, h2)) | 0;
    sum2 = (sum2 + avalanche(h2, h1)) | 0;
  }
  h1 = outer1;
  h2 = outer2;
  mix(sum1);
  mix(sum2);
  mix(entries.length);
}

/** One lane finished with the other's bits (cyrb53's finalizer): entry hashes that add up well. */
function avalanche(a: number, b: number): number {
  let x = Math.imul(a ^ (a >>> 16), 2246822507);
  x ^= Math.imul(b ^ (b >>> 13), 3266489909);
  return x;
}

/**
 * The digest of `listing`'s fields in `mask` (see `fieldMask`), remote or desired alike, as a
 * 53-bit number (16 bytes a listing). Two versions of one listing collide about once in 2^53.
 */
export function fieldsDigest(listing: Partial<Listing>, mask: number): number {
  return digestFields(listing, mask).digest;
}

/**
 * `fieldMask(listing)` and `fieldsDigest(listing, that mask)` in one pass over the fields: what a
 * run keeps of each listing it reads, the feed's and the platform's (each field read once).
 */
export function ownFields(listing: Partial<Listing>): { mask: number; digest: number } {
  return digestFields(listing, undefined);
}

/**
 * The prices a mapping maps (its `fields`' and `defaults`' keys), as a mask of the returned fields
 * (bit i for `RETURNED_FIELDS[i]`): a price the feed stopped sending is cleared even where no
 * listing of the run has one (a small sale feed gone all "on request"), beside the fields some
 * listing sets (`DesiredIndex.clearable`). Other fields a mapping maps but no listing sets are not
 * the feed's to clear (a value added by hand in a field the provider never fills stays).
 * `mapping`: a resolved mapping (`IngestResult.mapping`).
 */
export function mappedPricesMask(mapping: unknown): number {
  const { fields, defaults } = (mapping ?? {}) as { fields?: object; defaults?: object };
  const named = [
    ...Object.entries(fields ?? {})
      .filter(([, rule]) => rule !== null && rule !== undefined)
      .map(([field]) => field),
    ...Object.keys(defaults ?? {}),
  ];
  return maskOfFields(named) & maskOfFields(['SalePrice', 'RentPrice']);
}

/** The fields whose 0 is the unknown marker (`MARKER_FIELDS`), as a mask of the returned fields: 0 there is no value. */
export const MARKER_MASK = maskOfFields(MARKER_FIELDS);

/** Field names as a mask of the returned fields (bit i for `RETURNED_FIELDS[i]`); other names are left out. */
export function maskOfFields(names: readonly string[]): number {
  let mask = 0;
  RETURNED_FIELDS.forEach((field, i) => {
    if (names.includes(field)) mask |= 1 << i;
  });
  return mask;
}

/** The names of a mask's returned fields (`maskOfFields` the other way). */
export function fieldsOfMask(mask: number): string[] {
  return RETURNED_FIELDS.filter((_, i) => (mask & (1 << i)) !== 0);
}

/** Which of the returned fields a listing sets: bit i for `RETURNED_FIELDS[i]`. */
export function fieldMask(listing: Partial<Listing>): number {
  return digestFields(listing, undefined).mask;
}

/**
 * The one loop of the digest: over the fields in `given`, or, without it, over the fields the
 * listing sets (the mask it returns). A field in `given` that the listing leaves unset is mixed as
 * unset; each field ends with FIELD_END.
 */
function digestFields(
  listing: Partial<Listing>,
  given: number | undefined,
): { mask: number; digest: number } {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
  // A listing with a photo stamp is digested by the stamp (in ExtensionColumn), not its image URLs:
  // as `diffListing` compares it (compare.ts `samePhotoStamp`).
  const stamped = photoStampOf(listing) !== undefined;
  let mask = 0;
  for (let i = 0; i < RETURNED_FIELDS.length; i++) {
    const bit = 1 << i;
    if (given !== undefined && (given & bit) === 0) continue;
    const value = READERS[i]!(listing);
    // The unknown marker 0 is no value, the feed's or the platform's: a number a record lacks.
    const unset = leavesUnset(RETURNED_FIELDS[i]!, value);
    if (given === undefined) {
      if (unset) continue;
      mask |= bit;
    }
    if (stamped && KINDS[i] === Kind.Images) continue;
    if (unset) mix(UNSET);
    else mixSet(KINDS[i]!, value);
    mix(FIELD_END);
  }
  return { mask: given ?? mask, digest: finish() };
}

/** The two lanes as one 53-bit number. */
function finish(): number {
  let a = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  a ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  let b = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  b ^= Math.imul(a ^ (a >>> 13), 3266489909);
  return 4294967296 * (2097151 & b) + (a >>> 0);
}

/*
 * The digest over a page's bytes (page-scan.ts): the same lanes, mixed from JSON text as it stands
 * in the page (UTF-8, escapes) instead of from the strings JSON.parse would make of it. Each piece
 * mixes exactly what the reading above mixes for the string the bytes hold.
 */

/** A listing's digest begins (`digestFields`' first step). */
export function beginDigest(): void {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
}

/** The digest so far, as `digestFields` returns it. */
export function finishDigest(): number {
  return finish();
}

export function mixFieldEnd(): void {
  mix(FIELD_END);
}

export function mixItemEnd(): void {
  mix(ITEM_END);
}

/** A set field of Kind Number or Coordinate, its value read already (`toNumber`). */
export function mixNumberOf(kind: Kind, n: number): void {
  mixSet(kind, n);
}

/** A set enum field, its canonical value (`toEnum`). */
export function mixEnumOf(value: string): void {
  mixFolded(value);
}

/** A set Images field given as its URLs (a text the page's bytes could not split alone). */
export function mixImagesOf(urls: readonly string[]): void {
  mixImages(urls);
}

/** A set ExtensionColumn given as its entries (a text the page's bytes could not read alone). */
export function mixExtensionOf(entries: readonly ExtensionEntry[]): void {
  mixExtension(entries);
}

/** A set text field given as a string (a number the page sent for it, say). */
export function mixTextOf(value: string): void {
  mixText(value);
}

/** A hex digit's value, or -1. */
function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * The text a JSON string's content holds (bytes `start`..`end` of `b`, between its quotes: UTF-8 and
 * escapes), mixed as `mixText` mixes that string: trimmed, inner runs of white space as one space,
 * UTF-16 code units. 1 when any of it was mixed, 0 when it is only white space (nothing mixed), -1
 * when the bytes are no text JSON.parse would read alike (an unknown escape, a control character,
 * UTF-8 a decoder would replace): the caller reads the page as text then. Its step per code unit is
 * `mixText`'s, written out again on purpose: a call per unit would cost in the hottest loop of a
 * page's decoding, and page-scan.test.ts holds the two readings equal.
 */
export function mixJsonText(b: Uint8Array, start: number, end: number): number {
  let a = h1;
  let d = h2;
  let any = false;
  let space = false;
  let i = start;
  while (i < end) {
    let c = b[i] as number;
    if (c < 0x80) {
      if (c === 92) {
        const e = b[i + 1] as number;
        i += 2;
        if (e === 34 || e === 92 || e === 47) c = e;
        else if (e === 110) c = 10;
        else if (e === 116) c = 9;
        else if (e === 114) c = 13;
        else if (e === 98) c = 8;
        else if (e === 102) c = 12;
        else if (e === 117) {
          if (i + 4 > end) return -1;
          const x0 = hexValue(b[i] as number);
          const x1 = hexValue(b[i + 1] as number);
          const x2 = hexValue(b[i + 2] as number);
          const x3 = hexValue(b[i + 3] as number);
          if ((x0 | x1 | x2 | x3) < 0) return -1;
          c = (x0 << 12) | (x1 << 8) | (x2 << 4) | x3;
          i += 4;
        } else return -1;
      } else if (c < 0x20) return -1;
      else i++;
    } else {
      const c1 = b[i + 1] as number;
      if (i + 1 >= end || (c1 & 0xc0) !== 0x80) return -1;
      if (c < 0xe0) {
        if (c < 0xc2) return -1;
        c = ((c & 0x1f) << 6) | (c1 & 0x3f);
        i += 2;
      } else {
        const c2 = b[i + 2] as number;
        if (i + 2 >= end || (c2 & 0xc0) !== 0x80) return -1;
        if (c < 0xf0) {
          if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 >= 0xa0)) return -1;
          c = ((c & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
          i += 3;
        } else {
          const c3 = b[i + 3] as number;
          if (i + 3 >= end || (c3 & 0xc0) !== 0x80 || c > 0xf4) return -1;
          if ((c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 >= 0x90)) return -1;
          const point =
            (((c & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f)) - 0x10000;
          // The high surrogate now, the low one below: two code units, neither white space.
          if (space) {
            a = Math.imul(a ^ 32, M1);
            d = Math.imul(d ^ 32, M2);
          }
          space = false;
          const high = 0xd800 + (point >> 10);
          a = Math.imul(a ^ high, M1);
          d = Math.imul(d ^ high, M2);
          any = true;
          c = 0xdc00 + (point & 0x3ff);
          i += 4;
        }
      }
    }
    if (isSpace(c)) space = any;
    else {
      if (space) {
        a = Math.imul(a ^ 32, M1);
        d = Math.imul(d ^ 32, M2);
      }
      space = false;
      any = true;
      a = Math.imul(a ^ c, M1);
      d = Math.imul(d ^ c, M2);
    }
  }
  if (!any) return 0;
  h1 = a;
  h2 = d;
  return 1;
}

/**
 * ExtensionColumn's entries given as spans of plain UTF-8 (`spans[4k..4k+3]`: the Key's start and
 * end, the value's), mixed as `mixExtension` mixes the entries they hold. False when a span is no
 * text (see `mixJsonText`).
 */
export function mixExtensionSpans(b: Uint8Array, spans: Int32Array, count: number): boolean {
  const outer1 = h1;
  const outer2 = h2;
  let sum1 = 0;
  let sum2 = 0;
  for (let k = 0; k < count; k++) {
    h1 = 0x9e3779b9;
    h2 = 0x85ebca6b;
    if (mixJsonText(b, spans[4 * k] as number, spans[4 * k + 1] as number) < 0) return false;
    mix(ENTRY_VALUE);
    if (mixJsonText(b, spans[4 * k + 2] as number, spans[4 * k + 3] as number) < 0) return false;
    sum1 = (sum1 + avalanche(h1, h2)) | 0;
    sum2 = (sum2 + avalanche(h2, h1)) | 0;
  }
  h1 = outer1;
  h2 = outer2;
  mix(sum1);
  mix(sum2);
  mix(count);
  return true;
}
