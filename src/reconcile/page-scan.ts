import {
  listDataSchema,
  quickRemoteRecord,
  RETURNED_FIELDS,
  type RemoteRecord,
  toEnum,
  toExtensionColumn,
  toImages,
  toNumber,
  unwrapEnvelope,
} from '../api/index.ts';
import {
  type ExtensionEntry,
  PHOTO_STAMP_KEY,
  photoStampOf,
  SALE_TYPES,
  SPACE_TYPES,
  STATUSES,
  TOURS,
} from '../normalize/index.ts';
import {
  beginDigest,
  finishDigest,
  KINDS,
  Kind,
  MARKER_MASK,
  mixEnumOf,
  mixExtensionOf,
  mixExtensionSpans,
  mixFieldEnd,
  mixImagesOf,
  mixItemEnd,
  mixJsonText,
  mixNumberOf,
  mixTextOf,
} from './digest.ts';
import type { TagKeys } from './ownership.ts';
import { decodePage, PAGE_SPAN, putListing, type RemotePage } from './remote-page.ts';

/*
 * `decodePage` over the page's bytes, without JSON.parse (issue 23 §2): the first no-op after a
 * change decodes every page, and JSON.parse making an object and ~35 strings per listing, only for
 * the digest to read them once, was half of its thread's time. This reads the listings where they
 * stand in the bytes and mixes each field's text into the digest straight from them (digest.ts
 * `mixJsonText`), making strings only for a listing's key and owner.
 *
 * It reads the plain shape every answer of ours holds: listings of scalar fields, ExtensionColumn
 * as JSON.stringify writes the spec's entries; Images and ExtensionColumn texts of another shape
 * are read from their string as the text path reads them. A listing of another shape (a field sent
 * twice, an array for Images, a key with an escape, bytes a UTF-8 decoder would replace) is parsed
 * alone and put in place as the text path puts it (`oddListing`). A page
 * the text path must judge (JSON it may refuse, an envelope or a record its schema must check: an
 * ID that is not a plain integer, say) and `scanPage` returns undefined: the caller decodes that
 * page as text (`decodePage`), the judge: the same columns, or the same error.
 */

/** The fields a listing is read by: RETURNED_FIELDS' places, then these. */
const LATITUDE = RETURNED_FIELDS.length;
const LONGITUDE = LATITUDE + 1;
const ID = LATITUDE + 2;
const SLOTS = ID + 1;
const NAMES: readonly string[] = [...RETURNED_FIELDS, 'LATITUDE', 'LONGITUDE', 'ID'];
const NAME_BYTES = NAMES.map((name) => new TextEncoder().encode(name));
const place = (field: string) => RETURNED_FIELDS.indexOf(field as never);
const LATITUDE_FIELD = place('Latitude');
const LONGITUDE_FIELD = place('Longitude');
const EXTENSION = place('ExtensionColumn');
const STATUS = place('Status');
/** The values of each enum field (canonicalizeRemote's `toEnum` calls). */
const ENUM_VALUES = new Map<number, readonly string[]>([
  [place('SaleType'), SALE_TYPES],
  [place('Status'), STATUSES],
  [place('Tours'), TOURS],
  [place('SpaceType'), SPACE_TYPES],
]);

/** What a slot holds. */
const T = { Absent: 0, Text: 1, Number: 2, Null: 3, True: 4, False: 5 } as const;

/** The listing being read: each slot's type and span (a string's content, a number's token). */
const types = new Uint8Array(SLOTS);
const starts = new Int32Array(SLOTS);
const ends = new Int32Array(SLOTS);
/** Bit 1: the string has an escape; bit 2: a byte above ASCII. */
const flags = new Uint8Array(SLOTS);
/**
 * The keys of the last listing read, by place, and their slots: the listings of a page share one key
 * order, so each key is compared with the one before it, not read and looked up.
 */
const MAX_PREDICTED = 64;
const predictedKeys: (Uint8Array | undefined)[] = new Array(MAX_PREDICTED).fill(undefined);
const predictedSlots = new Int32Array(MAX_PREDICTED);

/** ExtensionColumn's entries (Key start, end, value start, end). */
const MAX_ENTRIES = 64;
const entrySpans = new Int32Array(4 * MAX_ENTRIES);

/** What `scanString` found of the string it read last. */
let stringFlags = 0;

const utf8 = new TextDecoder();

/** The page's bytes, the listings' columns as `decodePage` makes them; undefined: read it as text. */
export function scanPage(
  b: Uint8Array,
  keyField: 'MLSNumber' | 'Url',
  tags: TagKeys,
  page: number,
): RemotePage | undefined {
  try {
    return scan(b, keyField, tags, page);
  } catch {
    // Nesting deeper than the stack, say: whatever this reading could not take, the text path
    // judges (its own error, one the client's retry policy knows, or the columns).
    return undefined;
  } finally {
    // Not kept past its page.
    viewOf = undefined;
    view = EMPTY;
    column.keys = [];
    column.owners = [];
  }
}

function scan(
  b: Uint8Array,
  keyField: 'MLSNumber' | 'Url',
  tags: TagKeys,
  page: number,
): RemotePage | undefined {
  // A byte-order mark: the text decoder drops it, so the text path reads this page.
  const top = ws(b, 0);
  if (b[top] !== 123) return undefined; // `{`
  let listStart = -1;
  let listEnd = -1;
  let dataSeen = false;
  // Data.List read where it stands, every other value skipped (checked as JSON).
  const end = members(b, top, (keyStart, keyEnd, at) => {
    if (!same(b, keyStart, keyEnd, DATA)) return skipValue(b, at);
    if (dataSeen || b[at] !== 123) return -1;
    dataSeen = true;
    return members(b, at, (start, stop, value) => {
      if (!same(b, start, stop, LIST)) return skipValue(b, value);
      if (listStart >= 0 || b[value] !== 91) return -1; // `[`
      listStart = value;
      listEnd = readList(b, value, keyField, tags, page);
      return listEnd;
    });
  });
  if (end < 0 || ws(b, end) !== b.length || listStart < 0) return undefined;
  // The envelope and Data without the list, judged as the text path judges them: any error there
  // and the text path reads the page, to throw its own.
  let data: { VirtualCount?: number | undefined };
  try {
    const envelope = `${utf8.decode(b.subarray(0, listStart))}[]${utf8.decode(b.subarray(listEnd))}`;
    data = unwrapEnvelope('list', JSON.parse(envelope), listDataSchema);
  } catch {
    return undefined;
  }
  const count = column.count;
  return {
    length: count,
    virtualCount: data.VirtualCount,
    ids: column.ids.slice(0, count),
    masks: column.masks.slice(0, count),
    digests: column.digests.slice(0, count),
    refs: column.refs.slice(0, count),
    sold: column.sold.slice(0, count),
    keys: column.keys,
    owners: column.owners,
  };
}

/**
 * The members of the JSON object at `at` (its `{`), each handed to `each` (its key's content, where
 * its value starts), which returns where the value ends: the place after the `}`, or -1 when the
 * object is not JSON or `each` refused a member. A key with an escape is refused too.
 */
function members(
  b: Uint8Array,
  at: number,
  each: (keyStart: number, keyEnd: number, value: number) => number,
): number {
  let i = ws(b, at + 1);
  if (b[i] === 125) return i + 1;
  for (;;) {
    if (b[i] !== 34) return -1;
    const keyEnd = scanString(b, i);
    if (keyEnd < 0 || stringFlags & 1) return -1;
    const colon = ws(b, keyEnd + 1);
    if (b[colon] !== 58) return -1; // `:`
    const end = each(i + 1, keyEnd, ws(b, colon + 1));
    if (end < 0) return -1;
    i = ws(b, end);
    if (b[i] === 44) i = ws(b, i + 1);
    else return b[i] === 125 ? i + 1 : -1;
  }
}

const DATA = new TextEncoder().encode('Data');
const LIST = new TextEncoder().encode('List');

/** The columns of the page being read, grown as its listings are read. */
const column = {
  count: 0,
  ids: new Float64Array(1024),
  masks: new Int32Array(1024),
  digests: new Float64Array(1024),
  refs: new Float64Array(1024),
  sold: new Uint8Array(1024),
  keys: [] as string[],
  owners: [] as string[],
};

function grow(): void {
  const size = column.ids.length * 2;
  column.ids = grown(column.ids, new Float64Array(size));
  column.masks = grown(column.masks, new Int32Array(size));
  column.digests = grown(column.digests, new Float64Array(size));
  column.refs = grown(column.refs, new Float64Array(size));
  column.sold = grown(column.sold, new Uint8Array(size));
}

/** `into` holding `from` at its start. */
function grown<T extends Float64Array | Int32Array | Uint8Array>(from: T, into: T): T {
  into.set(from);
  return into;
}

/**
 * The listings of the list at `at` (its `[`), each read and digested into `column`: the place after
 * its `]`, or -1 when the text path must read the page.
 */
function readList(
  b: Uint8Array,
  at: number,
  keyField: 'MLSNumber' | 'Url',
  tags: TagKeys,
  page: number,
): number {
  column.count = 0;
  column.keys = [];
  column.owners = [];
  // An owner key that trimming changes, or that UTF-8 cannot hold as it is, is never any Key
  // trimmed (`ownerOf`), but its bytes could be: the text path reads such a run's pages.
  if (tags.ownerKey !== tags.ownerKey.trim() || !tags.ownerKey.isWellFormed()) return -1;
  const ownerKey = new TextEncoder().encode(tags.ownerKey);
  let i = ws(b, at + 1);
  if (b[i] === 93) return i + 1;
  for (let k = 0; ; k++) {
    if (k >= PAGE_SPAN - 1) return -1;
    if (b[i] !== 123) return -1; // a listing that is no object: the schema's to judge
    if (k === column.ids.length) grow();
    const end = readListing(b, i);
    if (end >= 0 && digestListing(b, k, keyField, tags.ownerKey, ownerKey)) i = end;
    else {
      // A listing of another shape: this one alone as the text path reads it.
      i = oddListing(b, i, k, keyField, tags);
      if (i < 0) return -1;
    }
    column.refs[k] = page * PAGE_SPAN + k;
    column.count = k + 1;
    i = ws(b, i);
    if (b[i] === 44) i = ws(b, i + 1);
    else return b[i] === 93 ? i + 1 : -1;
  }
}

/**
 * The listing at `at` (its `{`) that is not of the plain shape, parsed alone and put in place `k` as
 * the text path puts it (`putListing`), when the text path would take it as it stands
 * (`quickRemoteRecord`): the place after it, or -1 when the whole page goes to the text path (JSON
 * it refuses, a record its schema must judge). The listing's bytes parse to the object the page's
 * would hold: JSON is read the same inside a page as alone.
 */
function oddListing(
  b: Uint8Array,
  at: number,
  k: number,
  keyField: 'MLSNumber' | 'Url',
  tags: TagKeys,
): number {
  const end = skipValue(b, at);
  if (end < 0) return -1;
  let record: RemoteRecord | undefined;
  try {
    record = quickRemoteRecord(JSON.parse(utf8.decode(b.subarray(at, end))));
  } catch {
    return -1;
  }
  if (record === undefined) return -1;
  putListing(column, k, record, keyField, tags);
  return end;
}

/** Read the listing at `at` (its `{`) into the slots: the place after its `}`, or -1 when it is not of the plain shape. */
function readListing(b: Uint8Array, at: number): number {
  types.fill(T.Absent);
  let i = ws(b, at + 1);
  if (b[i] === 125) return i + 1;
  for (let position = 0; ; position++) {
    if (b[i] !== 34) return -1;
    // The key the last listing had at this place, where it is the same; else read and looked up.
    let slot: number;
    let keyEnd: number;
    const guess = position < MAX_PREDICTED ? predictedKeys[position] : undefined;
    if (guess !== undefined && startsWith(b, i + 1, b.length, guess) && b[i + 1 + guess.length] === 34) {
      keyEnd = i + 1 + guess.length;
      slot = predictedSlots[position] as number;
    } else {
      keyEnd = scanString(b, i);
      if (keyEnd < 0 || stringFlags & 1) return -1;
      slot = slotOf(b, i + 1, keyEnd);
      if (position < MAX_PREDICTED && keyEnd - i <= 64) {
        predictedKeys[position] = copyOf(b, i + 1, keyEnd);
        predictedSlots[position] = slot;
      }
    }
    i = ws(b, keyEnd + 1);
    if (b[i] !== 58) return -1;
    i = ws(b, i + 1);
    if (slot < 0) {
      i = b[i] === 34 ? scanString(b, i) + 1 : skipValue(b, i);
      if (i <= 0) return -1;
    } else {
      if (types[slot] !== T.Absent) return -1; // sent twice: JSON.parse keeps the last
      const c = b[i];
      if (c === 34) {
        const end = scanString(b, i);
        if (end < 0) return -1;
        types[slot] = T.Text;
        starts[slot] = i + 1;
        ends[slot] = end;
        flags[slot] = stringFlags;
        i = end + 1;
      } else if (c === 110 || c === 116 || c === 102) {
        const end = skipValue(b, i);
        if (end < 0) return -1;
        types[slot] = c === 110 ? T.Null : c === 116 ? T.True : T.False;
        i = end;
      } else {
        const end = scanNumber(b, i);
        if (end < 0) return -1;
        types[slot] = T.Number;
        starts[slot] = i;
        ends[slot] = end;
        i = end;
      }
    }
    i = ws(b, i);
    if (b[i] === 44) i = ws(b, i + 1);
    else return b[i] === 125 ? i + 1 : -1;
  }
}

/** The slot of the key at `start`..`end`, or -1 for a key canonicalizeRemote does not read. */
function slotOf(b: Uint8Array, start: number, end: number): number {
  for (let s = 0; s < SLOTS; s++) if (same(b, start, end, NAME_BYTES[s] as Uint8Array)) return s;
  return -1;
}

/** Whether bytes `start`..`end` are `name`. */
function same(b: Uint8Array, start: number, end: number, name: Uint8Array): boolean {
  if (end - start !== name.length) return false;
  for (let k = 0; k < name.length; k++) if (b[start + k] !== name[k]) return false;
  return true;
}

/**
 * The listing in the slots, digested as `ownFields` digests `canonicalizeRemote`'s listing, with its
 * id, key, owner and Sold, into place `k` of `column`; false when the text path must read it.
 */
function digestListing(
  b: Uint8Array,
  k: number,
  keyField: 'MLSNumber' | 'Url',
  ownerText: string,
  ownerKey: Uint8Array,
): boolean {
  // The ID: a plain integer, as quickRemoteRecord takes it (anything else is zod's to judge).
  if (types[ID] !== T.Number) return false;
  const id = plainInteger(b, starts[ID] as number, ends[ID] as number);
  if (id === undefined) return false;
  // ExtensionColumn first: the owner, and whether a photo stamp stands for the Images.
  let entries = 0;
  let general: ExtensionEntry[] | undefined;
  let owner = '';
  let stamped = false;
  const ext = types[EXTENSION] as number;
  if (ext === T.Text) {
    entries = readEntries(b, starts[EXTENSION] as number, ends[EXTENSION] as number);
    if (entries < 0) {
      // Another shape (an escape in a value, other key names): its text read as the text path
      // reads it, the entries as it makes them.
      entries = 0;
      general = toExtensionColumn(stringAt(b, EXTENSION));
      if (general !== undefined) {
        owner = general.find((e) => e.Key.trim() === ownerText)?.value.trim() ?? '';
        stamped = photoStampOf({ ExtensionColumn: general }) !== undefined;
      }
    }
    let ownerFound = false;
    let stampFound = false;
    for (let e = 0; e < entries && !(ownerFound && stampFound); e++) {
      const ks = entrySpans[4 * e] as number;
      const ke = entrySpans[4 * e + 1] as number;
      if (!ownerFound && keyIs(b, ks, ke, ownerKey, ownerText)) {
        ownerFound = true;
        owner = textAt(b, entrySpans[4 * e + 2] as number, entrySpans[4 * e + 3] as number).trim();
      }
      if (!stampFound && keyIs(b, ks, ke, STAMP_BYTES, PHOTO_STAMP_KEY)) {
        stampFound = true;
        stamped = textAt(b, entrySpans[4 * e + 2] as number, entrySpans[4 * e + 3] as number).trim() !== '';
      }
    }
  } else if (ext !== T.Null && ext !== T.Absent) return false;

  beginDigest();
  let mask = 0;
  let sold = 0;
  let key = '';
  const keyPlace = keyField === 'MLSNumber' ? KEY_MLS : KEY_URL;
  for (let f = 0; f < RETURNED_FIELDS.length; f++) {
    const kind = KINDS[f] as Kind;
    let slot = f;
    if (f === LATITUDE_FIELD || f === LONGITUDE_FIELD) {
      const upper = f === LATITUDE_FIELD ? LATITUDE : LONGITUDE;
      // `r.LATITUDE ?? r.Latitude`
      if (types[upper] !== T.Absent && types[upper] !== T.Null) slot = upper;
    }
    const type = types[slot] as number;
    if (type === T.Absent || type === T.Null) continue;
    const bit = 1 << f;
    if (kind === Kind.Number || kind === Kind.Coordinate) {
      const value = numberAt(b, slot, type);
      // The unknown marker 0 is no value (`leavesUnset`), as `ownFields` reads it.
      if (value === undefined || (value === 0 && (MARKER_MASK & bit) !== 0)) continue;
      mask |= bit;
      mixNumberOf(kind, value);
    } else if (kind === Kind.Text) {
      if (type === T.True || type === T.False) return false;
      if (type === T.Number) {
        // A number for a text: as String() writes it; one too large for a double is the schema's.
        const value = Number(asBuffer(b).toString('latin1', starts[slot], ends[slot]));
        if (!Number.isFinite(value)) return false;
        mask |= bit;
        mixTextOf(String(value));
        if (f === keyPlace) key = String(value);
      } else {
        // Only white space is unset: nothing of it was mixed.
        const mixed = mixJsonText(b, starts[slot] as number, ends[slot] as number);
        if (mixed < 0) return false;
        if (mixed === 0) continue;
        mask |= bit;
        if (f === keyPlace) key = stringAt(b, slot).trim();
      }
    } else if (kind === Kind.Enum) {
      if (type === T.True || type === T.False) return false;
      const value = enumAt(b, f, slot, type);
      if (value === undefined) continue;
      mask |= bit;
      if (f === STATUS && value === 'Sold') sold = 1;
      mixEnumOf(value);
    } else if (kind === Kind.Images) {
      if (type !== T.Text) return false;
      const urls = imagesAt(b, slot, stamped);
      if (urls < 0) return false;
      if (urls === 0) continue;
      mask |= bit;
      if (stamped) continue;
    } else if (general !== undefined) {
      mask |= bit;
      mixExtensionOf(general);
    } else {
      if (entries === 0) continue;
      mask |= bit;
      if (!mixExtensionSpans(b, entrySpans, entries)) return false;
    }
    mixFieldEnd();
  }
  column.ids[k] = id;
  column.masks[k] = mask;
  column.digests[k] = finishDigest();
  column.sold[k] = sold;
  column.keys[k] = key;
  column.owners[k] = owner;
  return true;
}

const KEY_MLS = place('MLSNumber');
const KEY_URL = place('Url');
const STAMP_BYTES = new TextEncoder().encode(PHOTO_STAMP_KEY);

/** The string a slot's text holds, as JSON.parse makes it. */
function stringAt(b: Uint8Array, slot: number): string {
  const start = starts[slot] as number;
  const end = ends[slot] as number;
  if (flags[slot] === 0) return asBuffer(b).toString('latin1', start, end);
  return JSON.parse(utf8.decode(b.subarray(start - 1, end + 1))) as string;
}

/** Plain UTF-8 with no escape (an entry's Key or value), as a string. */
function textAt(b: Uint8Array, start: number, end: number): string {
  if (same(b, start, end, lastText)) return lastString;
  let ascii = true;
  for (let k = start; k < end; k++) if ((b[k] as number) >= 0x80) ascii = false;
  const text = asBuffer(b).toString(ascii ? 'latin1' : 'utf8', start, end);
  if (end - start <= 64) {
    lastText = copyOf(b, start, end);
    lastString = text;
  }
  return text;
}

/** The last text `textAt` made (an owner tag repeats on every listing of a feed). */
let lastText = new Uint8Array(0);
let lastString = '';

/**
 * A copy of `b[start, end)`, never a view: the decode thread joins each page in one buffer it uses
 * again (`decode-worker.ts`), so what is kept from page to page must own its bytes (a Buffer's
 * `slice` is a view).
 */
function copyOf(b: Uint8Array, start: number, end: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(b.subarray(start, end));
}

/** The page as a Buffer (one view per page), to make strings of its bytes without a copy first. */
let viewOf: Uint8Array | undefined;
const EMPTY = Buffer.alloc(0);
let view: Buffer = EMPTY;
function asBuffer(b: Uint8Array): Buffer {
  if (viewOf !== b) {
    view = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    viewOf = b;
  }
  return view;
}

/** Whether an entry's Key, trimmed, is `name` (given as bytes and as text). */
function keyIs(b: Uint8Array, start: number, end: number, name: Uint8Array, text: string): boolean {
  if (same(b, start, end, name)) return true;
  if (end === start) return text === '';
  // Only white space at an end makes a Key other than `name` equal to it once trimmed.
  const first = b[start] as number;
  const last = b[end - 1] as number;
  if (first > 32 && first < 0x80 && last > 32 && last < 0x80) return false;
  return textAt(b, start, end).trim() === text;
}

/** A number token or text of 1 to 15 digits (a `-` before a token's), or undefined. */
function plainInteger(b: Uint8Array, start: number, end: number): number | undefined {
  let k = start;
  const negative = b[k] === 45;
  if (negative) k++;
  if (end - k < 1 || end - k > 15) return undefined;
  let value = 0;
  for (; k < end; k++) {
    const c = (b[k] as number) - 48;
    if (c < 0 || c > 9) return undefined;
    value = value * 10 + c;
  }
  return negative ? -value : value;
}

/** A number field's value as `toNumber` reads it (undefined: unset). */
function numberAt(b: Uint8Array, slot: number, type: number): number | undefined {
  if (type === T.True || type === T.False) return undefined;
  const start = starts[slot] as number;
  const end = ends[slot] as number;
  if (type === T.Number) {
    const plain = plainInteger(b, start, end);
    if (plain !== undefined) return plain;
    return toNumber(Number(asBuffer(b).toString('latin1', start, end)));
  }
  if (flags[slot] === 0 && b[start] !== 45) {
    const plain = plainInteger(b, start, end);
    if (plain !== undefined) return plain;
  }
  return toNumber(stringAt(b, slot));
}

/** The last text each enum field read, and its canonical value: a page repeats a few spellings. */
const lastEnumText = new Map<number, Uint8Array>();
const lastEnumValue = new Map<number, string | undefined>();

/** An enum field's canonical value as `toEnum` makes it (undefined: unset). */
function enumAt(b: Uint8Array, field: number, slot: number, type: number): string | undefined {
  const values = ENUM_VALUES.get(field) as readonly string[];
  if (type === T.Number)
    return toEnum(values, Number(asBuffer(b).toString('latin1', starts[slot], ends[slot])));
  const start = starts[slot] as number;
  const end = ends[slot] as number;
  const last = lastEnumText.get(field);
  if (last !== undefined && same(b, start, end, last)) return lastEnumValue.get(field);
  const value = toEnum(values, stringAt(b, slot));
  if (end - start <= 64) {
    lastEnumText.set(field, copyOf(b, start, end));
    lastEnumValue.set(field, value);
  }
  return value;
}

/**
 * The Images text as URLs separated by commas alone (`toImages`' first reading), mixed unless the
 * listing is stamped: their count, 0 when unset, -1 for any other text (the text path reads it).
 */
function imagesAt(b: Uint8Array, slot: number, stamped: boolean): number {
  const start = starts[slot] as number;
  const end = ends[slot] as number;
  let blankOnly = true;
  for (let k = start; k < end; k++) {
    const c = b[k] as number;
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    blankOnly = false;
    break;
  }
  if (blankOnly) return 0;
  let plain = flags[slot] === 0 && b[start] !== 91 && b[end - 1] !== 44; // no escape, `[` first, `,` last
  for (let k = start; plain && k < end; k++) {
    const c = b[k] as number;
    if (c <= 32 || c === 124 || c === 59) plain = false; // white space, `|`, `;`
  }
  if (!plain) {
    // Any other text, as the text path reads it (`toImages`) and digests it.
    const urls = toImages(stringAt(b, slot));
    if (urls === undefined) return 0;
    if (!stamped) mixImagesOf(urls);
    return urls.length;
  }
  let urls = 0;
  let from = start;
  for (let k = start; k <= end; k++) {
    if (k < end && b[k] !== 44) continue;
    if (k > from) {
      urls++;
      if (!stamped) {
        mixJsonText(b, from, k);
        mixItemEnd();
      }
    }
    from = k + 1;
  }
  return urls;
}

const EXT_OPEN = new TextEncoder().encode('[{\\"Key\\":\\"');
const EXT_NEXT = new TextEncoder().encode('{\\"Key\\":\\"');
const EXT_MIDDLE = new TextEncoder().encode('\\",\\"value\\":\\"');
const EXT_CLOSE = new TextEncoder().encode('\\"}');

/**
 * ExtensionColumn's text as it stands in the page, `"[{\"Key\":\"…\",\"value\":\"…\"},…]"`, read as
 * `plainExtension` reads the string it holds, into `entrySpans`: the entries' count, or -1 for any
 * other text (an escape in a Key or value, another shape), which the text path reads.
 */
function readEntries(b: Uint8Array, start: number, end: number): number {
  if (!startsWith(b, start, end, EXT_OPEN)) return -1;
  let i = start + EXT_OPEN.length;
  for (let count = 0; ; ) {
    if (count === MAX_ENTRIES) return -1;
    const keyEnd = quoteAt(b, i, end);
    if (keyEnd < 0 || !startsWith(b, keyEnd, end, EXT_MIDDLE)) return -1;
    const valueStart = keyEnd + EXT_MIDDLE.length;
    const valueEnd = quoteAt(b, valueStart, end);
    if (valueEnd < 0 || !startsWith(b, valueEnd, end, EXT_CLOSE)) return -1;
    entrySpans[4 * count] = i;
    entrySpans[4 * count + 1] = keyEnd;
    entrySpans[4 * count + 2] = valueStart;
    entrySpans[4 * count + 3] = valueEnd;
    count++;
    i = valueEnd + EXT_CLOSE.length;
    if (b[i] === 44 && startsWith(b, i + 1, end, EXT_NEXT)) i += 1 + EXT_NEXT.length;
    else return b[i] === 93 && i === end - 1 ? count : -1;
  }
}

/** Where the next `\"` is from `i`; -1 at any other backslash (an escape in the text it holds). */
function quoteAt(b: Uint8Array, i: number, end: number): number {
  for (let k = i; k < end; k++) if (b[k] === 92) return b[k + 1] === 34 ? k : -1;
  return -1;
}

function startsWith(b: Uint8Array, at: number, end: number, bytes: Uint8Array): boolean {
  if (end - at < bytes.length) return false;
  for (let k = 0; k < bytes.length; k++) if (b[at + k] !== bytes[k]) return false;
  return true;
}

/** Past JSON white space from `i`. */
function ws(b: Uint8Array, i: number): number {
  for (;;) {
    const c = b[i];
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}

/**
 * The closing quote of the JSON string at `i` (its opening quote), or -1 when JSON.parse would refuse
 * it; `stringFlags` tells whether it holds an escape (1) or a byte above ASCII (2).
 */
function scanString(b: Uint8Array, i: number): number {
  const n = b.length;
  let seen = 0;
  let k = i + 1;
  for (;;) {
    while (k < n && BYTE_CLASS[b[k] as number] === 0) k++;
    if (k >= n) return -1;
    const c = b[k] as number;
    if (c === 34) {
      stringFlags = seen;
      return k;
    }
    if (c === 92) {
      seen |= 1;
      const e = b[k + 1];
      if (e === 117) {
        for (let x = k + 2; x < k + 6; x++) {
          const c = b[x] as number;
          const lower = c | 32;
          if (!((c >= 48 && c <= 57) || (lower >= 97 && lower <= 102))) return -1;
        }
        k += 6;
      } else if (
        e === 34 ||
        e === 92 ||
        e === 47 ||
        e === 98 ||
        e === 102 ||
        e === 110 ||
        e === 114 ||
        e === 116
      )
        k += 2;
      else return -1;
    } else if (c < 32) return -1;
    else {
      seen |= 2;
      k++;
    }
  }
}

/** 0 for a byte a JSON string holds as it is; 1 for `"`, `\\`, a control character or a byte above ASCII. */
const BYTE_CLASS = new Uint8Array(256).map((_, c) => (c < 32 || c === 34 || c === 92 || c >= 0x80 ? 1 : 0));

/** The end of the JSON number at `i`, or -1 when it is none. */
function scanNumber(b: Uint8Array, i: number): number {
  let k = i;
  if (b[k] === 45) k++;
  if (b[k] === 48) k++;
  else if (isDigit(b[k])) while (isDigit(b[k])) k++;
  else return -1;
  if (b[k] === 46) {
    k++;
    if (!isDigit(b[k])) return -1;
    while (isDigit(b[k])) k++;
  }
  if (b[k] === 101 || b[k] === 69) {
    k++;
    if (b[k] === 43 || b[k] === 45) k++;
    if (!isDigit(b[k])) return -1;
    while (isDigit(b[k])) k++;
  }
  return k;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 48 && c <= 57;
}

const TRUE = new TextEncoder().encode('true');
const FALSE = new TextEncoder().encode('false');
const NULL = new TextEncoder().encode('null');

/** Past the JSON value at `i`, or -1 when JSON.parse would refuse it. */
function skipValue(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === 34) {
    const end = scanString(b, i);
    return end < 0 ? -1 : end + 1;
  }
  if (c === 123 || c === 91) {
    const close = c === 123 ? 125 : 93;
    let k = ws(b, i + 1);
    if (b[k] === close) return k + 1;
    for (;;) {
      if (c === 123) {
        if (b[k] !== 34) return -1;
        const keyEnd = scanString(b, k);
        if (keyEnd < 0) return -1;
        k = ws(b, keyEnd + 1);
        if (b[k] !== 58) return -1;
        k = ws(b, k + 1);
      }
      k = skipValue(b, k);
      if (k < 0) return -1;
      k = ws(b, k);
      if (b[k] === 44) k = ws(b, k + 1);
      else return b[k] === close ? k + 1 : -1;
    }
  }
  if (c === 116) return startsWith(b, i, b.length, TRUE) ? i + 4 : -1;
  if (c === 102) return startsWith(b, i, b.length, FALSE) ? i + 5 : -1;
  if (c === 110) return startsWith(b, i, b.length, NULL) ? i + 4 : -1;
  return scanNumber(b, i);
}

/** A page's bytes decoded: read where they stand when they are of the plain shape, else as text. */
export function decodePageBytes(
  bytes: Uint8Array,
  keyField: 'MLSNumber' | 'Url',
  tags: TagKeys,
  page: number,
): RemotePage {
  return scanPage(bytes, keyField, tags, page) ?? decodePage(utf8.decode(bytes), keyField, tags, page);
}
