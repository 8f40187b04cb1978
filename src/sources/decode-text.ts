import { isUtf8 } from 'node:buffer';

export type TextEncodingOption = 'auto' | 'utf-8' | 'windows-1252' | 'latin1';

const LF = 0x0a;
const CR = 0x0d;

/**
 * Bytes → text, chunk by chunk, without splitting a UTF-8 sequence. A leading BOM is removed: left
 * in, it glues onto the first CSV header name.
 *
 * `auto` decides **per line**, never for the whole file: a line that is valid UTF-8 is read as
 * UTF-8, one that is not (a row pasted in from an Excel export on Windows) as Windows-1252, and
 * `onLineAs1252` is called with its line number (1-based, as a person counts: `\n`, `\r\n` and a lone
 * `\r` each end a line, like the CSV reader's rows). One stray byte then changes one line, not every
 * accented listing of the feed. Text is yielded up to the last line end of each chunk, so every
 * line is decided whole; a line longer than a chunk is decided piece by piece.
 */
export async function* decodeText(
  chunks: AsyncIterable<Uint8Array>,
  encoding: TextEncodingOption = 'auto',
  onLineAs1252?: (line: number) => void,
): AsyncGenerator<string> {
  const decode = encoding === 'auto' ? autoDecoder(onLineAs1252) : fixedDecoder(encoding);
  let carry: Uint8Array = new Uint8Array(0);
  let first = true;
  for await (const chunk of chunks) {
    const bytes: Uint8Array = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const cut = encoding === 'auto' ? lineCut(bytes) : completeUtf8Length(bytes);
    carry = bytes.slice(cut);
    let text = decode(bytes.subarray(0, cut));
    if (first && text.length > 0) {
      text = withoutBom(text);
      first = false;
    }
    if (text.length > 0) yield text;
  }
  if (carry.length > 0) {
    const text = decode(carry);
    yield first ? withoutBom(text) : text;
  }
}

function withoutBom(text: string): string {
  if (text.charCodeAt(0) === 0xfeff) return text.slice(1);
  return text.startsWith('ï»¿') ? text.slice(3) : text;
}

/** A configured encoding: UTF-8 is strict (a bad byte fails the feed), the others take any byte. */
function fixedDecoder(encoding: 'utf-8' | 'windows-1252' | 'latin1'): (bytes: Uint8Array) => string {
  // latin1 is read as Windows-1252, as browsers do (WHATWG): files labelled Latin-1 hold € at 0x80.
  const decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8', ignoreBOM: true });
  return (bytes) => decoder.decode(bytes);
}

/** `auto`: each piece is whole lines (or a part of one line too long for a chunk). */
function autoDecoder(onLineAs1252?: (line: number) => void): (bytes: Uint8Array) => string {
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  const cp1252 = new TextDecoder('windows-1252');
  let line = 1;
  let lastReported = 0;
  let endedWithCr = false;
  const report = (at: number) => {
    if (at === lastReported) return;
    lastReported = at;
    onLineAs1252?.(at);
  };
  return (bytes) => {
    // A `\r\n` split across two pieces ends one line, not two.
    const start = line - (endedWithCr && bytes[0] === LF ? 1 : 0);
    endedWithCr = bytes.length > 0 && bytes[bytes.length - 1] === CR;
    line = start + countLineEnds(bytes);
    // isUtf8 checks without throwing: a file that is all Windows-1252 costs no exception per line.
    if (isUtf8(bytes)) return utf8.decode(bytes);
    // Runs of lines of one kind are decoded together: a file all in Windows-1252 is one call a piece.
    let text = '';
    let at = start;
    let runStart = 0;
    let runIsUtf8 = true;
    for (const [from, to] of linesOf(bytes)) {
      const valid = isUtf8(bytes.subarray(from, to));
      if (valid !== runIsUtf8) {
        text += (runIsUtf8 ? utf8 : cp1252).decode(bytes.subarray(runStart, from));
        runStart = from;
        runIsUtf8 = valid;
      }
      if (!valid) report(at);
      at++;
    }
    return text + (runIsUtf8 ? utf8 : cp1252).decode(bytes.subarray(runStart));
  };
}

/** Line ends in `bytes`: `\n`, and `\r` not followed by `\n`. */
function countLineEnds(bytes: Uint8Array): number {
  let count = 0;
  for (let i = bytes.indexOf(LF); i >= 0; i = bytes.indexOf(LF, i + 1)) count++;
  for (let i = bytes.indexOf(CR); i >= 0; i = bytes.indexOf(CR, i + 1)) if (bytes[i + 1] !== LF) count++;
  return count;
}

/** The lines of `bytes` as `[start, end)` offsets, each with its line end (found by indexOf, not byte by byte). */
function* linesOf(bytes: Uint8Array): Generator<[number, number]> {
  let from = 0;
  let lf = bytes.indexOf(LF);
  let cr = bytes.indexOf(CR);
  for (;;) {
    // A `\r` followed by `\n` is half of one line end, not a line end of its own.
    while (cr >= 0 && bytes[cr + 1] === LF) cr = bytes.indexOf(CR, cr + 1);
    if (lf < 0 && cr < 0) break;
    let end: number;
    if (cr >= 0 && (lf < 0 || cr < lf)) {
      end = cr;
      cr = bytes.indexOf(CR, cr + 1);
    } else {
      end = lf;
      lf = bytes.indexOf(LF, lf + 1);
    }
    yield [from, end + 1];
    from = end + 1;
  }
  if (from < bytes.length) yield [from, bytes.length];
}

/**
 * Where to cut a chunk so the text yielded ends on a line end: after the last `\n` (or lone `\r`).
 * A chunk with no line end is cut at its last whole UTF-8 character, so a long line never piles up.
 */
function lineCut(bytes: Uint8Array): number {
  const lf = bytes.lastIndexOf(LF);
  if (lf >= 0) return lf + 1;
  const cr = bytes.lastIndexOf(CR);
  // A `\r` as the last byte may be the first half of `\r\n`: keep it for the next chunk.
  if (cr >= 0 && cr < bytes.length - 1) return cr + 1;
  return completeUtf8Length(bytes);
}

/** Length of the prefix of `bytes` that ends on a UTF-8 character boundary. */
function completeUtf8Length(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= Math.min(3, end); back++) {
    const byte = bytes[end - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? end - back : end;
  }
  return end;
}
