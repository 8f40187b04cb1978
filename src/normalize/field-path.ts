import { propertyReader } from './literal-access.ts';
import { isUnsetText } from './parse-number.ts';

/** A raw record as sources yield it: CSV columns, a parsed XML element, a RESO JSON object. */
export type RawFields = Readonly<Record<string, unknown>>;

/** Reads every value at a path; arrays met on the way are flattened. */
export type PathReader = (record: RawFields) => unknown[];

/** Text of an XML element parsed with attributes: `{ '#text': '500000', '@display': 'no' }`. */
export const TEXT_KEY = '#text';

/** A path that is one key (a CSV column, a JSON property), read as a literal: no segment, prefix or pick. */
const isKey = (path: string) => !path.includes('.') && !path.includes(':') && !PICK.test(path);

/**
 * A segment that picks among repeated elements by a child or attribute: `price[@currency=EUR]`,
 * `Fee[FeeType=HOA]` (compared trimmed, ignoring case). The value holds no `.`.
 */
const PICK = /^([^[\]]+)\[([^=\]]+)=([^\]]*)\]$/;

/**
 * Compile a path: `ListPrice`, `Location.City`, `price.@display`, `images.image.url`. A key holding
 * a dot (CSV headers such as `Sq. Ft.`) is found whole first. A namespace prefix (`commons:City`)
 * matches the element with or without it, since the XML source strips prefixes.
 */
export function compilePath(written: string): PathReader {
  // NFC, as the CSV reader's header names: `ä` typed either way finds its column.
  const path = written.normalize('NFC');
  // One key (a CSV column, a JSON property): read with the key as a literal, no segment walk.
  if (isKey(path)) {
    const read = propertyReader(path);
    return (record) => {
      const value = read(record);
      return value === undefined ? [] : Array.isArray(value) ? value.flat(Number.POSITIVE_INFINITY) : [value];
    };
  }
  const segments = path.split('.').map(segmentOf);
  return (record) => {
    if (Object.hasOwn(record, path)) return flatten([record[path]]);
    let current: unknown[] = [record];
    for (const { segment, local, pick } of segments) {
      const next: unknown[] = [];
      for (const item of current) {
        if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
        const object = item as Record<string, unknown>;
        const value = Object.hasOwn(object, segment)
          ? object[segment]
          : Object.hasOwn(object, local)
            ? object[local]
            : undefined;
        if (value !== undefined) next.push(value);
      }
      current = flatten(next);
      if (pick) current = current.filter(pick);
      if (current.length === 0) return current;
    }
    return current;
  };
}

interface Segment {
  segment: string;
  local: string;
  pick?: (item: unknown) => boolean;
}

function segmentOf(written: string): Segment {
  const picked = PICK.exec(written);
  if (!picked) return { segment: written, local: stripPrefix(written) };
  const [, name, key, wanted] = picked as unknown as [string, string, string, string];
  const child = key.trim();
  const want = wanted.trim().toLowerCase();
  return {
    segment: name,
    local: stripPrefix(name),
    pick: (item) => {
      if (!item || typeof item !== 'object' || Array.isArray(item)) return false;
      const object = item as Record<string, unknown>;
      const value = Object.hasOwn(object, child) ? object[child] : object[stripPrefix(child)];
      const scalar = scalarOf(Array.isArray(value) ? value[0] : value);
      return scalar !== undefined && scalar !== null && String(scalar).trim().toLowerCase() === want;
    },
  };
}

function stripPrefix(segment: string): string {
  const colon = segment.indexOf(':');
  return colon >= 0 ? segment.slice(colon + 1) : segment;
}

function flatten(values: unknown[]): unknown[] {
  if (!values.some(Array.isArray)) return values;
  return values.flat(Number.POSITIVE_INFINITY);
}

/** The scalar behind a value: an element's text, or the value itself; undefined for objects without text. */
export function scalarOf(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value))
    return (value as Record<string, unknown>)[TEXT_KEY];
  return value;
}

/** A value is set unless it is undefined, null or blank text. */
export function isSet(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return !isBlank(value);
  return true;
}

/**
 * `text.trim() === ''` without trimming: a text starting with a visible ASCII character (almost
 * every value) is not blank, and is not copied to find out.
 */
export function isBlank(text: string): boolean {
  const first = text.charCodeAt(0);
  if (first > 32 && first < 127) return false;
  return text.trim() === '';
}

/**
 * The first set scalar at a path, compiled: the common single-key path (a CSV column, a JSON
 * property) reads the record directly, without building arrays.
 */
export function compileFirst(written: string): (record: RawFields) => unknown {
  return compileScalar(written, firstScalar);
}

/**
 * A path's scalar, read by `slow` over all its values; a key holding a plain value (a CSV column,
 * most XML elements) read directly, without building arrays.
 */
function compileScalar(
  written: string,
  slow: (read: PathReader, record: RawFields) => unknown,
): (record: RawFields) => unknown {
  const path = written.normalize('NFC');
  const reader = compilePath(path);
  if (!isKey(path)) return (record) => slow(reader, record);
  const read = propertyReader(path);
  return (record) => {
    const value = read(record);
    if (typeof value === 'string') return isBlank(value) ? undefined : value;
    if (typeof value === 'number' || typeof value === 'boolean') return value;
    return value === undefined || value === null ? undefined : slow(reader, record);
  };
}

/**
 * Different values at one path of one record: an element repeated (`<bedrooms>3</bedrooms>
 * <bedrooms>4</bedrooms>`), a JSON array where one value was meant. Which one the feed means is not
 * known, so a number field reading it is a problem showing them all (`"3 | 4"`), never the first
 * taken unsaid.
 */
export class Conflict {
  readonly values: readonly string[];
  constructor(values: readonly string[]) {
    this.values = values;
  }
  get text(): string {
    return this.values.join(' | ');
  }
  toString(): string {
    return this.text;
  }
}

/**
 * The set scalar at a path, as `compileFirst`, when every set value there agrees; a `Conflict` when
 * they differ. Values that say "unknown" (`N/A`) do not count. A key holding a scalar (a CSV column,
 * most XML elements) is read as fast as `compileFirst` reads it.
 */
export function compileAgreeing(written: string): (record: RawFields) => unknown {
  return compileScalar(written, agreeingScalar);
}

/** Plain decimal numbers (`199000`, `199000.00`). */
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;

/** Two texts of one value: the same text, or the same plain number (`2` and `2.0`). */
function sameValue(a: string, b: string): boolean {
  return a === b || (PLAIN_NUMBER.test(a) && PLAIN_NUMBER.test(b) && Number(a) === Number(b));
}

function agreeingScalar(read: PathReader, record: RawFields): unknown {
  let first: unknown;
  let texts: string[] | undefined;
  for (const value of read(record)) {
    const scalar = scalarOf(value);
    if (!isSet(scalar)) continue;
    if (first === undefined) {
      first = scalar;
      continue;
    }
    const text = String(scalar).trim();
    if (isUnsetText(text)) continue;
    if (isUnsetText(String(first))) {
      first = scalar;
      continue;
    }
    if (texts === undefined && sameValue(text, String(first).trim())) continue;
    texts ??= [String(first).trim()];
    if (!texts.some((t) => sameValue(t, text))) texts.push(text);
  }
  return texts !== undefined && texts.length > 1 ? new Conflict(texts) : first;
}

/**
 * A companion of a value (`periodFrom: rent.@period`, `unitFrom: area.@unit`) read from the element
 * the value came from: of `<rent period="week"/><rent period="month">2166</rent>` the month, where
 * the first period anywhere said week (and 2166 a week is 9,386 a month). A companion path that is
 * not under the value's own path, or a value no element holds (a default), reads it on its own.
 */
export function compileCompanion(
  from: string | undefined,
  companion: string,
): (record: RawFields, value: unknown) => unknown {
  const alone = compileFirst(companion);
  if (from === undefined || !companion.startsWith(`${from}.`)) return (record) => alone(record);
  const elements = compilePath(from);
  const rest = compilePath(companion.slice(from.length + 1));
  return (record, value) => {
    const wanted = String(value).trim();
    for (const item of elements(record)) {
      const scalar = scalarOf(item);
      if (scalar === undefined || scalar === null || String(scalar).trim() !== wanted) continue;
      return item && typeof item === 'object' ? firstScalar(rest, item as RawFields) : undefined;
    }
    return alone(record);
  };
}

/** The first set scalar at a path. */
export function firstScalar(read: PathReader, record: RawFields): unknown {
  for (const value of read(record)) {
    const scalar = scalarOf(value);
    if (isSet(scalar)) return scalar;
  }
  return undefined;
}
