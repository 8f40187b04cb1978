import { propertyReader } from './literal-access.ts';

/** A raw record as sources yield it: CSV columns, a parsed XML element, a RESO JSON object. */
export type RawFields = Readonly<Record<string, unknown>>;

/** Reads every value at a path; arrays met on the way are flattened. */
export type PathReader = (record: RawFields) => unknown[];

/** Text of an XML element parsed with attributes: `{ '#text': '500000', '@display': 'no' }`. */
export const TEXT_KEY = '#text';

/**
 * Compile a path: `ListPrice`, `Location.City`, `price.@display`, `images.image.url`. A key holding
 * a dot (CSV headers such as `Sq. Ft.`) is found whole first. A namespace prefix (`commons:City`)
 * matches the element with or without it, since the XML source strips prefixes.
 */
export function compilePath(path: string): PathReader {
  // One key (a CSV column, a JSON property): read with the key as a literal, no segment walk.
  if (!path.includes('.') && !path.includes(':')) {
    const read = propertyReader(path);
    return (record) => {
      const value = read(record);
      return value === undefined ? [] : Array.isArray(value) ? value.flat(Number.POSITIVE_INFINITY) : [value];
    };
  }
  const segments = path.split('.').map((segment) => [segment, stripPrefix(segment)] as const);
  return (record) => {
    if (Object.hasOwn(record, path)) return flatten([record[path]]);
    let current: unknown[] = [record];
    for (const [segment, local] of segments) {
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
      if (current.length === 0) return current;
    }
    return current;
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
export function compileFirst(path: string): (record: RawFields) => unknown {
  const reader = compilePath(path);
  if (path.includes('.') || path.includes(':')) return (record) => firstScalar(reader, record);
  const read = propertyReader(path);
  return (record) => {
    const value = read(record);
    if (typeof value === 'string') return isBlank(value) ? undefined : value;
    if (typeof value === 'number' || typeof value === 'boolean') return value;
    return value === undefined || value === null ? undefined : firstScalar(reader, record);
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
