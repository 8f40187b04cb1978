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
 * accented listing of the feed. Text is yielded up to the last line end seen, so every line is
 * decided whole, however the download was chunked; a line longer than `MAX_UNDECIDED` (a minified
 * XML file) is decided in pieces of that size from its start, so the result never depends on chunking.
 */
export async function* decodeText(
  chunks: AsyncIterable<Uint8Array>,
  encoding: TextEncodingOption = 'auto',
  onLineAs1252?: (line: number) => void,
): AsyncGenerator<string> {
  const auto = encoding === 'auto';
  const decode = auto ? autoDecoder(onLineAs1252) : fixedDecoder(encoding);
  // Bytes not decided yet: the end of a line whose end has not arrived. Kept as chunks and joined
  // once the line ends, so a long line costs one copy, not one per chunk.
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let first = true;
  for await (const chunk of chunks) {
    if (auto && pendingBytes + chunk.length < MAX_UNDECIDED && !hasLineEnd(chunk)) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      continue;
    }
    const bytes: Uint8Array = pending.length > 0 ? Buffer.concat([...pending, chunk]) : chunk;
    const cut = auto ? lineCut(bytes) : completeUtf8Length(bytes);
    const rest = bytes.slice(cut);
    pending = rest.length > 0 ? [rest] : [];
    pendingBytes = rest.length;
    let text = decode(bytes.subarray(0, cut));
    if (first && text.length > 0) {
      text = withoutBom(text);
      first = false;
    }
    if (text.length > 0) yield text;
  }
  if (pendingBytes > 0) {
    const text = decode(Buffer.concat(pending));
    yield first ? withoutBom(text) : text;
  }
}

/** A line longer than this is decided in pieces of this size (from the line's start). */
const MAX_UNDECIDED = 8 * 1024 * 1024;

function hasLineEnd(bytes: Uint8Array): boolean {
  return bytes.indexOf(LF) >= 0 || bytes.indexOf(CR) >= 0;
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
    // Valid lines are decoded together in runs; a line that is not valid UTF-8 keeps its valid
    // UTF-8 sequences and reads only its invalid bytes as Windows-1252, so one stray byte in a
    // one-line (minified) XML feed changes that byte, not every accented listing on the line.
    let text = '';
    let at = start;
    let runStart = 0;
    for (const [from, to] of linesOf(bytes)) {
      const lineBytes = bytes.subarray(from, to);
      if (!isUtf8(lineBytes)) {
        text += utf8.decode(bytes.subarray(runStart, from)) + decodeMixed(lineBytes, utf8, cp1252);
        runStart = to;
        report(at);
      }
      at++;
    }
    return text + utf8.decode(bytes.subarray(runStart));
  };
}

/** UTF-8 where the bytes are valid UTF-8 sequences, Windows-1252 for each byte that is not. */
function decodeMixed(
  bytes: Uint8Array,
  utf8: { decode(b: Uint8Array): string },
  cp1252: { decode(b: Uint8Array): string },
): string {
  let text = '';
  let runStart = 0;
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    if (byte < 0x80) {
      i++;
      continue;
    }
    const length =
      byte >= 0xf0 && byte <= 0xf4
        ? 4
        : byte >= 0xe0 && byte <= 0xef
          ? 3
          : byte >= 0xc2 && byte <= 0xdf
            ? 2
            : 0;
    if (length > 0 && i + length <= bytes.length && isUtf8(bytes.subarray(i, i + length))) {
      i += length;
      continue;
    }
    text += utf8.decode(bytes.subarray(runStart, i)) + cp1252.decode(bytes.subarray(i, i + 1));
    i++;
    runStart = i;
  }
  return text + utf8.decode(bytes.subarray(runStart));
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
 * Where to cut the undecided bytes so the text yielded ends on a line end: after the last `\n` (or
 * lone `\r`). With no line end, nothing is cut (the line waits for its end) until the bytes reach
 * `MAX_UNDECIDED`; then the first `MAX_UNDECIDED` bytes are, at a whole UTF-8 character.
 */
function lineCut(bytes: Uint8Array): number {
  const lf = bytes.lastIndexOf(LF);
  if (lf >= 0) return lf + 1;
  const cr = bytes.lastIndexOf(CR);
  // A `\r` as the last byte may be the first half of `\r\n`: keep it for the next chunk.
  if (cr >= 0 && cr < bytes.length - 1) return cr + 1;
  if (bytes.length < MAX_UNDECIDED) return 0;
  return completeUtf8Length(bytes.subarray(0, MAX_UNDECIDED));
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
