/**
 * Property access compiled per key. A mapping reads and writes the same few dozen keys on every
 * record; written as `object[key]` in one shared closure, each access site sees every key of the
 * feed and V8 falls back to its slow megamorphic lookup. A function generated for one key holds the
 * key as a literal, so its access site is its own inline cache (the straight-line code issue 13
 * asks for, one key at a time). Keys are feed data (CSV headers) or config: they enter the code
 * only as JSON string literals, which are valid JavaScript string literals for any text.
 */

type Fields = Readonly<Record<string, unknown>>;

const readers = new Map<string, (object: Fields) => unknown>();
const writers = new Map<string, (object: Record<string, unknown>, value: unknown) => void>();
/** Bounded: keys come from feeds, and a process may read many over its life. */
const MAX_CACHED = 10_000;

/**
 * `new Function(...params, body)`; where Node runs with `--disallow-code-generation-from-strings`,
 * `fallback()`: a closure with the same results, only slower.
 */
export function generated<F>(params: readonly string[], body: string, fallback: () => F): F {
  try {
    return new Function(...params, body) as F;
  } catch (error) {
    if (error instanceof EvalError) return fallback();
    throw error;
  }
}

/**
 * `(object) => object[key]`, with `key` as a literal: an own property only. A key every object
 * inherits (`constructor`, `toString`, `__proto__`) is read only when the record has it itself, so
 * a column a feed lacks never reads as `function Object() { [native code] }`.
 */
export function propertyReader(key: string): (object: Fields) => unknown {
  let reader = readers.get(key);
  if (reader === undefined) {
    const literal = JSON.stringify(key);
    const inherited = key in Object.prototype;
    const body = inherited
      ? `return Object.hasOwn(object, ${literal}) ? object[${literal}] : undefined;`
      : `return object[${literal}];`;
    reader = generated<(object: Fields) => unknown>(['object'], body, () =>
      inherited
        ? (object) => (Object.hasOwn(object, key) ? object[key] : undefined)
        : (object) => object[key],
    );
    if (readers.size < MAX_CACHED) readers.set(key, reader);
  }
  return reader;
}

/** `(object, value) => { object[key] = value }`, with `key` as a literal. */
export function propertyWriter(key: string): (object: Record<string, unknown>, value: unknown) => void {
  let writer = writers.get(key);
  if (writer === undefined) {
    writer = generated<(object: Record<string, unknown>, value: unknown) => void>(
      ['object', 'value'],
      `object[${JSON.stringify(key)}] = value;`,
      () => (object, value) => {
        object[key] = value;
      },
    );
    if (writers.size < MAX_CACHED) writers.set(key, writer);
  }
  return writer;
}

/**
 * `(values) => ({ [keys[0]]: values[0], … })` as one object literal: every object it builds has the
 * same shape from the start (compact, never a dictionary), in one allocation. A later duplicate key
 * wins, as sequential assignment would. `__proto__` is written as a computed key, which defines an
 * own property instead of setting the prototype.
 */
export function objectBuilder(
  keys: readonly string[],
): (values: readonly unknown[]) => Record<string, unknown> {
  const entries = keys.map((key, i) => {
    const literal = JSON.stringify(key);
    return key === '__proto__' ? `[${literal}]: values[${i}]` : `${literal}: values[${i}]`;
  });
  return generated<(values: readonly unknown[]) => Record<string, unknown>>(
    ['values'],
    `return {${entries.join(', ')}};`,
    () => (values) => Object.fromEntries(keys.map((key, i) => [key, values[i]])),
  );
}
