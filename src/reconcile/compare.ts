import { platformImages, RETURNED_FIELDS } from '../api/index.ts';
import type { ExtensionEntry, Listing, ListingField } from '../normalize/index.ts';
import { ENUM_FIELDS, MARKER_FIELDS, NUMERIC_FIELDS, photoStampOf, UNKNOWN } from '../normalize/index.ts';
import type { FieldChange } from './plan-types.ts';
import { foldSpaces } from './white-space.ts';

/**
 * How far apart two numbers may be and still be equal. The list operation returns numbers as
 * strings and may round them (spec 2.4): coordinates to about six decimals, money and areas to
 * cents. A difference below these never triggers an update, so rounding cannot make a run flap.
 */
export function tolerance(field: ListingField, value: number): number {
  if (field === 'Latitude' || field === 'Longitude') return 1e-6;
  return Math.max(0.005, Math.abs(value) * 1e-9);
}

const NUMERIC = new Set<string>(NUMERIC_FIELDS);

/** Text compared the way the canonicalizer reads it back: trimmed, inner runs of whitespace folded. */
function text(value: unknown): string {
  return foldSpaces(String(value));
}

/** Enum spellings compared ignoring case, spaces, hyphens and underscores (`For Sale` = `for_sale`). */
function fold(value: unknown): string {
  return String(value)
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

const ENUMS = new Set<string>(ENUM_FIELDS);

/** Order-insensitive: the platform keeps ExtensionColumn as a serialized array, in whatever order. */
export function extensionKey(entries: readonly ExtensionEntry[] | undefined): string {
  if (entries === undefined || entries.length === 0) return '';
  // Every listing of every run, both sides: no intermediate arrays for the usual two or three entries.
  const parts = new Array<string>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as ExtensionEntry;
    parts[i] = `${text(e.Key)}\u0000${text(e.value)}`;
  }
  if (parts.length === 1) return parts[0] as string;
  return parts.sort().join('\u0001');
}

/** Is the desired value unset (so not compared, and not a reason to touch the remote)? */
export function isUnset(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

const MARKERS = new Set<string>(MARKER_FIELDS);

/**
 * Whether the feed's listing leaves `field` unset: no value, or the unknown marker 0 in a field that
 * has one (`MARKER_FIELDS`: a required number the feed does not say, filled with 0 only because
 * create requires it). Either way the feed says nothing there, so a value the platform holds (a year
 * an office typed in) is not overwritten, unless the feed sets the field on some listing and so
 * clears it (`diffListing`'s `clearable`).
 */
export function leavesUnset(field: ListingField, value: unknown): boolean {
  return value === UNKNOWN ? MARKERS.has(field) : isUnset(value);
}

/** Equal in canonical form, for one field. */
export function sameValue(field: ListingField, desired: unknown, remote: unknown): boolean {
  if (desired === remote) return true;
  if (isUnset(remote)) return isUnset(desired);
  if (NUMERIC.has(field)) {
    const a = Number(desired);
    const b = Number(remote);
    return Math.abs(a - b) <= tolerance(field, a);
  }
  if (ENUMS.has(field)) return fold(desired) === fold(remote);
  if (field === 'ExtensionColumn') {
    return extensionKey(desired as ExtensionEntry[]) === extensionKey(remote as ExtensionEntry[]);
  }
  if (field === 'Images') {
    // As the platform reads them back once joined: a URL with a comma in it is two there.
    const a = platformImages(desired as string[]).map(text);
    const b = platformImages(remote as string[]).map(text);
    return a.length === b.length && a.every((v, i) => v === b[i]);
  }
  return text(desired) === text(remote);
}

/**
 * Whether the remote holds a value in a field the feed's listing leaves unset that a sync clears: set,
 * and for a number not 0 (a platform that stores an unset number as 0 would otherwise be rewritten on
 * every run, and 0 is no value a buyer is told).
 */
export function holdsValue(field: ListingField, have: unknown): boolean {
  if (isUnset(have)) return false;
  return !(NUMERIC.has(field) && Number(have) === 0);
}

/**
 * The fields that differ between the desired listing and what the remote returned. Only fields the
 * list returns are compared. A field the feed leaves unset is compared only when it is among
 * `clearable` (bit i for `RETURNED_FIELDS[i]`: the fields the feed sets on some listing, see
 * `DesiredIndex.clearable`): a value the platform still holds there is one the feed stopped sending
 * (a price gone "on request"), a change `{ from: value, to: undefined }` (`isClear`). Fields the list
 * never returns (AreaUnit, Location) are covered by the record hash carried in ExtensionColumn.
 */
export function diffListing(desired: Listing, remote: Partial<Listing>, clearable = 0): FieldChange[] {
  const changes: FieldChange[] = [];
  const samePhotos = samePhotoStamp(desired, remote);
  for (let i = 0; i < RETURNED_FIELDS.length; i++) {
    const field = RETURNED_FIELDS[i] as ListingField;
    const want = desired[field];
    if (field === 'Images' && samePhotos) continue;
    if (leavesUnset(field, want)) {
      if ((clearable & (1 << i)) !== 0) pushClear(changes, field, remote[field]);
      continue;
    }
    const have = remote[field];
    if (sameValue(field, want, have)) continue;
    if (field === 'ExtensionColumn')
      changes.push(...diffExtension(want as ExtensionEntry[], have as ExtensionEntry[]));
    else changes.push({ field, from: have, to: want });
  }
  return changes;
}

/**
 * A clear of `field` onto `changes` where the platform holds a value there (ExtensionColumn is sent
 * whole). A field with an unknown marker is cleared to it, 0, as an update can send: not a clear
 * (`isClear`), which needs a replace.
 */
function pushClear(changes: FieldChange[], field: ListingField, have: unknown): void {
  if (field !== 'ExtensionColumn' && holdsValue(field, have))
    changes.push({ field, from: have, to: MARKERS.has(field) ? UNKNOWN : undefined });
}

/**
 * The clears of the fields in `fields` (a mask: the feed's listing leaves them unset) where `remote`
 * holds a value, as `diffListing` makes them, read off the platform's listing alone. Its photos do
 * not count where it carries a photo stamp: `fields` lies outside a mask whose digests are equal,
 * so the feed's record carries the same stamp, and photos are compared by it (`samePhotoStamp`).
 */
export function clearsOf(remote: Partial<Listing>, fields: number): FieldChange[] {
  const clears: FieldChange[] = [];
  if (fields === 0) return clears;
  const stamped = photoStampOf(remote) !== undefined;
  for (let i = 0; i < RETURNED_FIELDS.length; i++) {
    const field = RETURNED_FIELDS[i] as ListingField;
    if ((fields & (1 << i)) !== 0 && !(field === 'Images' && stamped))
      pushClear(clears, field, remote[field]);
  }
  return clears;
}

/** The record-hash tag among a listing's changes (`ExtensionColumn[feed-sync:hash]`): it moves with every update. */
export function isHashTag(change: FieldChange): boolean {
  return change.field.startsWith('ExtensionColumn[') && change.field.endsWith(':hash]');
}

/** A change that clears a field: the feed leaves it unset, the platform holds a value (`diffListing`). */
export function isClear(change: FieldChange): boolean {
  return change.to === undefined && CLEARABLE.has(change.field);
}

/** The fields a change may clear: the returned ones but ExtensionColumn (sent whole, entries and all). */
const CLEARABLE = new Set<string>(RETURNED_FIELDS.filter((field) => field !== 'ExtensionColumn'));

/** Whether any change clears a field: the update is made as a replace (apply.ts). */
export function clearsAny(changes: readonly FieldChange[]): boolean {
  for (const change of changes) if (isClear(change)) return true;
  return false;
}

/**
 * Both sides carry one photo stamp (RESO `PhotosChangeTimestamp`): the photos did not change, whatever
 * their URLs say (a provider that signs URLs afresh on every read would otherwise rewrite every listing).
 */
export function samePhotoStamp(desired: Partial<Listing>, remote: Partial<Listing>): boolean {
  const stamp = photoStampOf(desired);
  return stamp !== undefined && stamp === photoStampOf(remote);
}

/** ExtensionColumn entry by entry (`ExtensionColumn[feed-sync:hash]`), so a plan shows which tag moved. */
function diffExtension(
  desired: readonly ExtensionEntry[],
  remote: readonly ExtensionEntry[] | undefined,
): FieldChange[] {
  const have = new Map((remote ?? []).map((e) => [text(e.Key), text(e.value)]));
  const want = new Map(desired.map((e) => [text(e.Key), text(e.value)]));
  const changes: FieldChange[] = [];
  for (const [key, value] of want) {
    if (have.get(key) !== value)
      changes.push({ field: `ExtensionColumn[${key}]`, from: have.get(key), to: value });
  }
  for (const [key, value] of have) {
    if (!want.has(key)) changes.push({ field: `ExtensionColumn[${key}]`, from: value, to: undefined });
  }
  // Same keys and values but a different multiset (an entry repeated): show the whole column.
  return changes.length > 0 ? changes : [{ field: 'ExtensionColumn', from: remote, to: desired }];
}
