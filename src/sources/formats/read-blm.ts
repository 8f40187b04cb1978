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
/** Rows read before the file's way of ending a row (with or without an EOF before the EOR) is decided. */
const DECIDE_ROWS = 20;

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
  const blm = new BlmText(feedId, options.maxRecordBytes);
  let ended = false;
  for await (const chunk of text) {
    blm.append(chunk);
    if (ended) continue;
    if (!blm.names && !blm.readPreamble()) continue;
    yield* blm.rows(false);
    ended = blm.atEnd();
  }
  if (ended) return;
  if (!blm.names && !blm.readPreamble())
    throw blm.fail(`not a BLM file: no ${DEFINITION} and ${DATA} sections`);
  yield* blm.rows(true);
  // An incomplete transfer, so a fetch failure and retryable: a file read while the agency's upload
  // is still running is whole a little later.
  if (!blm.atEnd())
    throw new FeedError(
      'E_FEED_FETCH',
      feedId,
      `the file is truncated: no ${END} after ${blm.index} rows (line ${blm.lines.line}); nothing is applied`,
      { retryable: true },
    );
}

/** The text of a BLM file read so far (from the first row not yet read) and what its preamble says. */
class BlmText {
  /** The `#DEFINITION#` names, once the preamble is read. */
  names: string[] | undefined;
  /** Rows read so far: the next row's `index`. */
  index = 0;
  readonly lines = new LineCounter();
  private buf = '';
  private pos = 0;
  private delimiters: BlmDelimiters | undefined;
  private columns: Readonly<Record<string, string | undefined>> = {};
  /** Whether the #DEFINITION# line ends with an EOF before its EOR (`…^~`): the tie-breaker. */
  private definitionTrailing = true;
  /**
   * Whether the file's rows end with an EOF before the EOR (`…^last^~`), decided by the first
   * `DECIDE_ROWS` rows (those held meanwhile in `pending`): rows with one value per column against
   * rows with one more, empty. Where a row writes no EOF, a last empty value is a field: a `^` left
   * in a caption of a row whose last column is empty, which read as that EOF shifted every value
   * after it unsaid; where rows do write it, a short row is one cut, never a reason to doubt the rest.
   */
  private trailing: boolean | undefined;
  private pending: { record: string; row: number }[] = [];

  private readonly feedId: string;
  private readonly maxRecordBytes: number;

  constructor(feedId: string, maxRecordBytes: number) {
    this.feedId = feedId;
    this.maxRecordBytes = maxRecordBytes;
  }

  fail(message: string): FeedError {
    return new FeedError('E_FEED_PARSE', this.feedId, message);
  }

  append(chunk: string): void {
    this.buf = this.buf.slice(this.pos) + chunk;
    this.pos = 0;
  }

  /** At the `#END#` line. */
  atEnd(): boolean {
    return this.buf.startsWith(END, this.pos);
  }

  /** Header and definition, once both are in the buffer; false while more text is needed. */
  readPreamble(): boolean {
    const { buf } = this;
    const start = buf.replace(/^\uFEFF/, '').trimStart();
    if (start.length >= HEADER.length && !start.startsWith(HEADER))
      throw this.fail(`not a BLM file: it does not start with ${HEADER}`);
    const definitionAt = buf.indexOf(DEFINITION);
    const dataAt = definitionAt < 0 ? -1 : buf.indexOf(DATA, definitionAt);
    if (dataAt < 0) {
      if (buf.length > MAX_PREAMBLE) throw this.fail(`not a BLM file: no ${DEFINITION} and ${DATA} sections`);
      return false;
    }
    const header = parseBlmHeader(buf.slice(buf.indexOf(HEADER) + HEADER.length, definitionAt));
    if (typeof header === 'string') throw this.fail(header);
    this.delimiters = header;
    const definition = buf.slice(definitionAt + DEFINITION.length, dataAt);
    const names = parseBlmDefinition(definition, header);
    if (typeof names === 'string') throw this.fail(names);
    const eorAt = definition.indexOf(header.eor);
    this.definitionTrailing = (eorAt >= 0 ? definition.slice(0, eorAt) : definition)
      .trim()
      .endsWith(header.eof);
    this.names = names;
    this.columns = Object.fromEntries(names.map((name) => [name, undefined]));
    this.pos = dataAt + DATA.length;
    this.lines.advance(buf.slice(0, this.pos));
    return true;
  }

  /** The rows the text read so far completes, as one batch; the good rows before a broken one first. */
  rows(done: boolean): Generator<RawRecord[]> {
    const self = this;
    function* each(): Generator<RawRecord> {
      let raw = self.nextRow(done);
      for (; raw; raw = self.nextRow(done)) {
        if (self.trailing !== undefined) {
          yield self.toRecord(raw.record, raw.row);
          continue;
        }
        self.pending.push(raw);
        if (self.pending.length >= DECIDE_ROWS) yield* self.decided();
      }
      // At `#END#`, or at the end of the text: decided by the rows there are.
      if (self.trailing === undefined && (raw === undefined || done)) yield* self.decided();
    }
    return batchOf(each(), (row) => row);
  }

  /** The file's way decided by the rows held, and those rows as records. */
  private *decided(): Generator<RawRecord> {
    const width = this.names!.length;
    const { eof } = this.delimiters!;
    let bare = 0;
    let trailing = 0;
    for (const { record } of this.pending) {
      const values = record.split(eof);
      if (values.length === width) bare++;
      else if (values.length === width + 1 && values.at(-1)!.trim() === '') trailing++;
    }
    this.trailing = trailing === bare ? this.definitionTrailing : trailing > bare;
    const held = this.pending;
    this.pending = [];
    for (const { record, row } of held) yield this.toRecord(record, row);
  }

  /** The next data row's text and line, `null` when more text is needed, `undefined` at `#END#`. */
  private nextRow(done: boolean): { record: string; row: number } | null | undefined {
    const { eof, eor } = this.delimiters!;
    const { buf, lines } = this;
    for (;;) {
      const skipped = skipLineBreaks(buf, this.pos, eof);
      lines.advance(buf.slice(this.pos, skipped));
      this.pos = skipped;
      const { pos } = this;
      const rest = buf.slice(pos, pos + END.length);
      if (rest === END) return undefined;
      if (!done && END.startsWith(rest)) return null;
      const at = buf.indexOf(eor, pos);
      if ((at < 0 ? buf.length : at) - pos > this.maxRecordBytes)
        throw this.fail(
          `the row at line ${lines.line} is longer than ${this.maxRecordBytes} characters (EOR "${eor}")`,
        );
      // A last row whose EOR the producer forgot still ends at the `#END#` line. (Looked for only
      // when no EOR follows: a scan per row would make a large chunk quadratic.)
      const endAt = at < 0 ? endLine(buf, pos) : -1;
      if (at < 0 && endAt < 0) return null;
      const row = lines.line;
      const record = endAt >= 0 ? buf.slice(pos, endAt).replace(/[\r\n]+$/, '') : buf.slice(pos, at);
      const next = endAt >= 0 ? endAt : at + eor.length;
      lines.advance(buf.slice(pos, next));
      this.pos = next;
      if (record.trim() !== '') return { record, row };
    }
  }

  private toRecord(record: string, row: number): RawRecord {
    const names = this.names!;
    const values = record.split(this.delimiters!.eof);
    // Rows end with EOF then EOR (`…^~`), or with EOR alone: a trailing empty value is that EOF,
    // unless the file's rows write none (`trailing`).
    const trailingEof = this.trailing !== false;
    // Where rows write the EOF, a last empty value is it, whatever the count: `B2^Lost^~` lost a field.
    if (trailingEof && values.length > 1 && values.at(-1)!.trim() === '') values.pop();
    if (values.length !== names.length) {
      const bare = values.length === names.length + 1 && !trailingEof;
      const message = `has ${values.length} fields where the #DEFINITION# names ${names.length}${
        bare
          ? ' (this file writes no EOF before its EOR: an EOF character in a text field is one field more)'
          : ''
      }`;
      // Only the first column, which a lost or extra field further on cannot have shifted: it is
      // AGENT_REF in every BLM file, so the rejected row keeps its key and its listing is held.
      const fields = { [names[0]!]: values[0] };
      const shape = values.length > names.length ? ('shifted' as const) : ('cut' as const);
      return { row, index: this.index++, fields, problem: { reason: 'field_count', message, shape, values } };
    }
    const fields: Record<string, string | undefined> = { ...this.columns };
    for (let i = 0; i < values.length; i++) fields[names[i]!] = values[i];
    return { row, index: this.index++, fields };
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
