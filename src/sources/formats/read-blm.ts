import { FeedError } from '../feed-error.ts';
import type { BlmOptions } from '../source-schema.ts';
import type { RawRecord } from '../source-types.ts';
import { batchOf } from './batch.ts';
import { type BlmDelimiters, parseBlmDefinition, parseBlmHeader } from './blm-header.ts';

const HEADER = '#HEADER#';
const DEFINITION = '#DEFINITION#';
const DATA = '#DATA#';
const END = '#END#';
/** The header and definition of a real file are a few KiB; more means this is not a BLM file. */
const MAX_PREAMBLE = 1024 * 1024;

/**
 * Rightmove BLM text → one raw record per `#DATA#` row, keyed by the `#DEFINITION#` names, streamed:
 * memory holds one record at a time, never more than `maxRecordBytes`. The delimiters are the ones
 * the `#HEADER#` declares (`^` and `~` by default). Rows are numbered by the file line they start on.
 * A row whose field count differs from the definition is yielded with a `problem` and its first
 * column only (rejected by row, its key kept; the others go on). A file without `#END#` was cut short: it fails the feed (E_FEED_FETCH, retryable),
 * after its complete rows, so the run deletes nothing.
 */
export async function* readBlm(
  feedId: string,
  text: AsyncIterable<string>,
  options: BlmOptions = { maxRecordBytes: 1024 * 1024 },
): AsyncGenerator<RawRecord[]> {
  const fail = (message: string) => new FeedError('E_FEED_PARSE', feedId, message);
  let buf = '';
  let pos = 0;
  const lines = new LineCounter();
  let delimiters: BlmDelimiters | undefined;
  let names: string[] | undefined;
  let columns: Readonly<Record<string, string | undefined>> = {};
  let index = 0;
  let ended = false;

  /** Header and definition, once both are in the buffer; false while more text is needed. */
  const readPreamble = (): boolean => {
    const start = buf.replace(/^\uFEFF/, '').trimStart();
    if (start.length >= HEADER.length && !start.startsWith(HEADER))
      throw fail(`not a BLM file: it does not start with ${HEADER}`);
    const definitionAt = buf.indexOf(DEFINITION);
    const dataAt = definitionAt < 0 ? -1 : buf.indexOf(DATA, definitionAt);
    if (dataAt < 0) {
      if (buf.length > MAX_PREAMBLE) throw fail(`not a BLM file: no ${DEFINITION} and ${DATA} sections`);
      return false;
    }
    const header = parseBlmHeader(buf.slice(buf.indexOf(HEADER) + HEADER.length, definitionAt));
    if (typeof header === 'string') throw fail(header);
    delimiters = header;
    const parsed = parseBlmDefinition(buf.slice(definitionAt + DEFINITION.length, dataAt), header);
    if (typeof parsed === 'string') throw fail(parsed);
    names = parsed;
    columns = Object.fromEntries(names.map((name) => [name, undefined]));
    pos = dataAt + DATA.length;
    lines.advance(buf.slice(0, pos));
    return true;
  };

  /** The next data row, `null` when more text is needed, `undefined` at `#END#`. */
  const nextRow = (done: boolean): RawRecord | null | undefined => {
    const { eof, eor } = delimiters!;
    for (;;) {
      const skipped = skipLineBreaks(buf, pos, eof);
      lines.advance(buf.slice(pos, skipped));
      pos = skipped;
      const rest = buf.slice(pos, pos + END.length);
      if (rest === END) return undefined;
      if (!done && END.startsWith(rest)) return null;
      const at = buf.indexOf(eor, pos);
      if ((at < 0 ? buf.length : at) - pos > options.maxRecordBytes)
        throw fail(
          `the row at line ${lines.line} is longer than ${options.maxRecordBytes} characters (EOR "${eor}")`,
        );
      // A last row whose EOR the producer forgot still ends at the `#END#` line. (Looked for only
      // when no EOR follows: a scan per row would make a large chunk quadratic.)
      const endAt = at < 0 ? endLine(buf, pos) : -1;
      if (endAt >= 0) {
        const row = lines.line;
        lines.advance(buf.slice(pos, endAt));
        const record = buf.slice(pos, endAt).replace(/[\r\n]+$/, '');
        pos = endAt;
        if (record.trim() === '') continue;
        return toRecord(record, row, eof);
      }
      if (at < 0) return null;
      const row = lines.line;
      const record = buf.slice(pos, at);
      lines.advance(buf.slice(pos, at + eor.length));
      pos = at + eor.length;
      if (record.trim() === '') continue;
      return toRecord(record, row, eof);
    }
  };

  const toRecord = (record: string, row: number, eof: string): RawRecord => {
    const values = record.split(eof);
    // Rows end with EOF then EOR (`…^~`), or with EOR alone: a trailing empty value is that EOF.
    if (values.length !== names!.length && values.at(-1)!.trim() === '') values.pop();
    if (values.length !== names!.length) {
      const message = `has ${values.length} fields where the #DEFINITION# names ${names!.length}`;
      // Only the first column, which a lost or extra field further on cannot have shifted: it is
      // AGENT_REF in every BLM file, so the rejected row keeps its key and its listing is held.
      const fields = { [names![0]!]: values[0] };
      const shape = values.length > names!.length ? ('shifted' as const) : ('cut' as const);
      return { row, index: index++, fields, problem: { reason: 'field_count', message, shape, values } };
    }
    const fields: Record<string, string | undefined> = { ...columns };
    for (let i = 0; i < values.length; i++) fields[names![i]!] = values[i];
    return { row, index: index++, fields };
  };

  /** The rows the text read so far completes, as one batch; the good rows before a broken one first. */
  const rowsOf = (done: boolean) => batchOf(rows(done), (row) => row);
  function* rows(done: boolean): Generator<RawRecord> {
    for (let row = nextRow(done); row; row = nextRow(done)) yield row;
  }

  for await (const chunk of text) {
    buf = buf.slice(pos) + chunk;
    pos = 0;
    if (ended) continue;
    if (!names && !readPreamble()) continue;
    yield* rowsOf(false);
    if (buf.startsWith(END, pos)) ended = true;
  }
  if (!ended) {
    if (!names && !readPreamble()) throw fail(`not a BLM file: no ${DEFINITION} and ${DATA} sections`);
    yield* rowsOf(true);
    // An incomplete transfer, so a fetch failure and retryable: a file read while the agency's upload
    // is still running is whole a little later.
    if (!buf.startsWith(END, pos))
      throw new FeedError(
        'E_FEED_FETCH',
        feedId,
        `the file is truncated: no ${END} after ${index} rows (line ${lines.line}); nothing is applied`,
        { retryable: true },
      );
  }
}

/** Where a `#END#` line starts after `pos` (the marker right after a line break), or -1. */
function endLine(buf: string, pos: number): number {
  for (let at = buf.indexOf(END, pos); at >= 0; at = buf.indexOf(END, at + 1)) {
    const before = buf[at - 1];
    if (at > pos && (before === '\n' || before === '\r')) return at;
  }
  return -1;
}

/** Past the line breaks between rows (`~` then CRLF), unless a line break is the field delimiter. */
function skipLineBreaks(buf: string, pos: number, eof: string): number {
  if (eof.includes('\n') || eof.includes('\r')) return pos;
  let at = pos;
  while (buf[at] === '\n' || buf[at] === '\r') at++;
  return at;
}

/** 1-based line of the next character, across chunks: `\r\n`, `\n` and a lone `\r` each end a line. */
class LineCounter {
  line = 1;
  private lastWasCr = false;
  advance(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) {
        if (!this.lastWasCr) this.line++;
        this.lastWasCr = false;
      } else if (c === 13) {
        this.line++;
        this.lastWasCr = true;
      } else this.lastWasCr = false;
    }
  }
}
