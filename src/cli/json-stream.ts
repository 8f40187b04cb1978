import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * A JSON document (2-space indent, as `JSON.stringify(value, null, 2)` prints it) with some arrays
 * too large to hold: each is given as an iterable (a generator that reads each element from where
 * the run keeps it), and its elements are made and printed one at a time. `validate --json` prints
 * every listing of a feed, and `plan --json` every record a run would send, this way: a million
 * listings are never one array, nor one string, under the image's heap bound.
 */
export type StreamedArray = Iterable<unknown>;
// Limits, against JSON.stringify: a streamed array is found by identity among the document's own
// values (not below a `toJSON`, not inside another streamed array's elements), once; each element
// is printed on its own (a `toJSON` of an element gets the key '', not its index).

/**
 * Where each streamed array goes in the document: a string value with a NUL character and a random
 * word (one per document), so no value a feed sent can be taken for one.
 */
const holeOf = (word: string, index: number) => `\u0000${word} ${index}`;

/** Replaces each streamed array in `document` (found by identity) with its hole. */
export function withHoles(document: unknown, arrays: readonly StreamedArray[], word: string): unknown {
  const index = new Map<unknown, number>(arrays.map((a, i) => [a, i]));
  const walk = (value: unknown): unknown => {
    const hole = index.get(value);
    if (hole !== undefined) return holeOf(word, hole);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(value)) out[key] = walk(child);
      return out;
    }
    return value;
  };
  return walk(document);
}

/**
 * The document's text, piece by piece: the same text as `JSON.stringify(document, null, 2)` would
 * be with every streamed array in place (elements indented to their depth), ending with a newline.
 */
export function* jsonPieces(document: unknown, arrays: readonly StreamedArray[]): Generator<string> {
  yield* jsonValuePieces(document, arrays);
  yield '\n';
}

/**
 * `value` as `jsonPieces` prints it, nested at `indent` (its lines after the first begin with it),
 * without a newline at the end: a part of a document whose other parts are printed later.
 */
export function* jsonValuePieces(
  value: unknown,
  arrays: readonly StreamedArray[],
  indent = '',
): Generator<string> {
  const word = randomUUID();
  const text = indented(JSON.stringify(withHoles(value, arrays, word), null, 2), indent);
  // JSON.stringify writes the NUL as `\u0000`.
  const holes = new RegExp(`"\\\\u0000${word} (\\d+)"`, 'g');
  // Each streamed array must be in the document once: one found nowhere (below a value with a
  // `toJSON`, or inside another streamed array's element) or twice (a generator reads once) would
  // print other JSON than JSON.stringify, silently.
  const found = Array.from(text.matchAll(holes), (match) => Number(match[1]));
  if (found.length !== arrays.length || new Set(found).size !== arrays.length)
    throw new Error(
      `jsonPieces: each streamed array must be in the document once (found ${found.length} of ${arrays.length})`,
    );
  let at = 0;
  for (const match of text.matchAll(holes)) {
    const array = arrays[Number(match[1])];
    if (array === undefined) continue;
    yield text.slice(at, match.index);
    const lineStart = text.lastIndexOf('\n', match.index) + 1;
    const indent = /^ */.exec(text.slice(lineStart, match.index))?.[0] ?? '';
    yield* arrayPieces(array, indent);
    at = match.index + match[0].length;
  }
  yield text.slice(at);
}

/** `text` with every line after the first indented by `indent`. */
export function indented(text: string, indent: string): string {
  return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}

function* arrayPieces(array: StreamedArray, indent: string): Generator<string> {
  const inner = `${indent}  `;
  let first = true;
  for (const item of array) {
    const element = JSON.stringify(item, null, 2) ?? 'null';
    yield `${first ? '[\n' : ',\n'}${inner}${indented(element, inner)}`;
    first = false;
  }
  yield first ? '[]' : `\n${indent}]`;
}

/**
 * Writes `pieces` to `out`, waiting whenever it asks to (a pipe read slower than it is written). A
 * reader that goes away (`| head`) ends the writing, not the command: the rest is not made.
 */
export async function writePieces(out: Writable, pieces: Iterable<string>): Promise<void> {
  /** Pieces gathered into one write of about this many characters. */
  const BATCH = 64 << 10;
  let batch = '';
  const write = async (text: string): Promise<boolean> => {
    if (out.destroyed || out.writableEnded) return false;
    if (out.write(text)) return true;
    try {
      await once(out, 'drain');
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'EPIPE') return false;
      throw error;
    }
  };
  for (const piece of pieces) {
    batch += piece;
    if (batch.length < BATCH) continue;
    if (!(await write(batch))) return;
    batch = '';
  }
  if (batch !== '') await write(batch);
}
