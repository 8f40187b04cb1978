import { FeedSyncError } from '../../errors.ts';

/**
 * CSV text → rows of fields, read exactly as csv-parse reads it with read-csv's options
 * (`record_delimiter: ['\r\n', '\n', '\r']`, `relax_quotes`, `relax_column_count`, `from_line`,
 * `max_record_size`, escape `"`), but on the decoded text itself and a field at a time: csv-parse
 * walks bytes one method call at a time and copies each byte into a buffer, which made it most of
 * the cost of a CSV ingest, and it needs the text encoded back to bytes. `csv-tokens.test.ts` holds
 * this reader to csv-parse's output on generated text, so csv-parse stays the definition.
 *
 * Its quirks are kept on purpose, since feeds were read through them: a quote opens a quoted field
 * only at the field's start; a quote that closes a field but is followed by neither a delimiter nor
 * a line end is kept in the value with the opening quote (`"ab"c` reads `"ab"c`); with a quote
 * other than `"`, a `"` inside a quoted field escapes the next character.
 */

const CR = 13;
const LF = 10;
/** csv-parse's default escape character; the quote escapes itself only when it is `"` too. */
const ESCAPE = 34;

export interface CsvTokenOptions {
  delimiter: string;
  /** One character. */
  quote: string;
  /** First line (csv-parse's count) whose records are read: `skipRows + 1`. */
  fromLine: number;
  /** A record whose fields hold more bytes than this (UTF-8, csv-parse's count) fails the read. */
  maxRecordBytes: number;
  /**
   * Characters of an unfinished record from which it is read again only once the text after it is
   * as long as it is (default 256 Ki): each read of it then covers twice the text of the last, so a
   * record of n characters costs O(n) whatever the chunks' size, not O(n²/chunk).
   */
  rereadAt?: number;
}

/** Why the text cannot be read; `code` is csv-parse's, `message` too. */
export class CsvTokenError extends FeedSyncError {
  override readonly code: 'CSV_MAX_RECORD_SIZE' | 'CSV_QUOTE_NOT_CLOSED';
  constructor(code: CsvTokenError['code'], message: string) {
    super(message, { kind: 'FEED_PARSE', code });
    this.code = code;
  }
}

/**
 * Reads text chunk by chunk. A record a chunk ends in is read again whole with the next chunk (its
 * text is kept, with the counters as they were at its start), so no decision depends on where a
 * download was cut.
 */
export class CsvTokens {
  /** The records of the last `write`/`end`: a field holds a line break in one of them. */
  multiline = false;
  /** Set when the text cannot be read; the records before the failure were returned first. */
  error: CsvTokenError | undefined;

  private readonly delimiter: string;
  private readonly delimiterFirst: number;
  private readonly quote: number;
  private readonly quoteText: string;
  private readonly escapeIsQuote: boolean;
  private readonly fromLine: number;
  private readonly maxBytes: number;
  /** Text of the record not finished by the last chunk. */
  private pending = '';
  /** Chunks after `pending` not read yet (a long record waits for its text to double). */
  private waiting: string[] = [];
  private waitingLength = 0;
  private readonly rereadAt: number;
  // csv-parse's line count (a `\r\n` inside quotes counts twice), at the start of `pending`.
  private lines = 1;
  private rowFlag = false;
  private enabled: boolean;

  constructor(options: CsvTokenOptions) {
    this.delimiter = options.delimiter;
    this.delimiterFirst = options.delimiter.charCodeAt(0);
    this.quoteText = options.quote;
    this.quote = options.quote.charCodeAt(0);
    this.escapeIsQuote = this.quote === ESCAPE;
    this.fromLine = options.fromLine;
    this.maxBytes = options.maxRecordBytes;
    this.enabled = options.fromLine === 1;
    this.rereadAt = options.rereadAt ?? 256 * 1024;
  }

  /** The records `chunk` completes. */
  write(chunk: string): string[][] {
    if (this.pending.length >= this.rereadAt && this.waitingLength + chunk.length < this.pending.length) {
      this.waiting.push(chunk);
      this.waitingLength += chunk.length;
      return [];
    }
    return this.read(this.pending + this.takeWaiting() + chunk, false);
  }

  /** The records the end of the text completes (the last one, when no line break ends the text). */
  end(): string[][] {
    return this.read(this.pending + this.takeWaiting(), true);
  }

  private takeWaiting(): string {
    if (this.waiting.length === 0) return '';
    const text = this.waiting.join('');
    this.waiting = [];
    this.waitingLength = 0;
    return text;
  }

  private read(text: string, end: boolean): string[][] {
    const records: string[][] = [];
    this.multiline = false;
    if (this.error) return records;
    const n = text.length;
    // A quote, `\r`, escape or delimiter is decided by up to a delimiter's length of the text after
    // it: near a chunk's end its record waits for the next chunk.
    const limit = end ? n : n - this.delimiter.length - 1;
    const { delimiter, delimiterFirst: d0, quote: q, escapeIsQuote, fromLine } = this;
    const singleDelimiter = delimiter.length === 1;
    let { lines, rowFlag, enabled } = this;
    let recordStart = 0;
    let record: string[] = [];
    let recordChars = 0;
    let field = '';
    // The field's text not yet copied into `field`: text[run, i).
    let run = 0;
    let quoting = false;
    let wasQuoting = false;
    let escaping = false;
    let multiline = false;
    const delimiterAt = (at: number) =>
      text.charCodeAt(at) === d0 && (singleDelimiter || text.startsWith(delimiter, at));
    let i = 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (i >= limit && (c === q || c === CR || c === ESCAPE || c === d0)) break;
      if (rowFlag) {
        lines++;
        rowFlag = false;
      }
      if (c === CR || c === LF) {
        rowFlag = true;
        if (quoting || escaping) multiline = true;
      }
      if (escaping) escaping = false;
      else {
        if (quoting && c === ESCAPE && i + 1 < n && (!escapeIsQuote || text.charCodeAt(i + 1) === q)) {
          // The escape is dropped, the next character kept whatever it is.
          escaping = true;
          field += text.slice(run, i);
          run = i + 1;
          continue;
        }
        if (c === q) {
          if (quoting) {
            quoting = false;
            wasQuoting = true;
            field += text.slice(run, i);
            const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
            if (next === 0 || next === CR || next === LF || delimiterAt(i + 1)) {
              run = i + 1;
              continue;
            }
            // relax_quotes: not a closing quote after all; the value keeps both quotes.
            field = this.quoteText + field;
            run = i;
          } else if (field === '' && run === i) {
            quoting = true;
            run = i + 1;
            continue;
          }
        }
        if (!quoting) {
          if (c === CR || c === LF) {
            const length = c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
            const value = field + text.slice(run, i);
            if (this.tooLarge(enabled ? recordChars : 0, value)) break;
            if (enabled) {
              record.push(value);
              records.push(record);
            } else if (lines + 1 >= fromLine) enabled = true; // the line before `fromLine` ends
            record = [];
            recordChars = 0;
            field = '';
            wasQuoting = false;
            i += length - 1;
            run = i + 1;
            recordStart = run;
            this.lines = lines;
            this.rowFlag = rowFlag;
            this.enabled = enabled;
            if (multiline) this.multiline = true;
            multiline = false;
            continue;
          }
          if (c === d0 && delimiterAt(i)) {
            const value = field + text.slice(run, i);
            if (this.tooLarge(enabled ? recordChars : 0, value)) break;
            if (enabled) {
              recordChars += value.length;
              record.push(value);
            }
            field = '';
            wasQuoting = false;
            i += delimiter.length - 1;
            run = i + 1;
            continue;
          }
          i = lastPlain(text, i, d0, q);
        } else if (!rowFlag) i = lastQuoted(text, i, q);
      }
    }
    if (this.error) return records;
    const current = field + text.slice(run, i);
    if (this.tooLarge(enabled ? recordChars : 0, current)) return records;
    if (!end) {
      // Read again whole with the next chunk, from the counters at its start.
      this.pending = text.slice(recordStart);
      return records;
    }
    this.pending = '';
    const last = this.lastRecord({ record, current, quoting, wasQuoting, enabled, lines });
    if (last) {
      records.push(last);
      if (multiline) this.multiline = true;
    }
    return records;
  }

  /**
   * The record the end of the text completes, when no line break ends it; none when it is empty or
   * before `fromLine`. An open quote at the end fails the read (`error`).
   */
  private lastRecord(at: {
    record: string[];
    current: string;
    quoting: boolean;
    wasQuoting: boolean;
    enabled: boolean;
    lines: number;
  }): string[] | undefined {
    if (at.quoting) {
      this.error = new CsvTokenError(
        'CSV_QUOTE_NOT_CLOSED',
        `Quote Not Closed: the parsing is finished with an opening quote at line ${at.lines}`,
      );
      return undefined;
    }
    if (!at.enabled || !(at.wasQuoting || at.record.length > 0 || at.current !== '')) return undefined;
    at.record.push(at.current);
    return at.record;
  }

  /**
   * Whether csv-parse refuses `value` after fields of `before` characters: before adding each byte
   * of a field it compares the record's earlier fields, counted in characters, plus the field's
   * bytes so far with the limit. A UTF-8 character is at most 3 bytes per UTF-16 unit.
   */
  private tooLarge(before: number, value: string): boolean {
    const limit = this.maxBytes + 1;
    if (before + 3 * value.length <= limit || before + Buffer.byteLength(value) <= limit) return false;
    this.error = new CsvTokenError(
      'CSV_MAX_RECORD_SIZE',
      `Max Record Size: record exceed the maximum number of tolerated bytes of ${this.maxBytes}`,
    );
    return true;
  }
}

/** The last of the plain characters from `i` on: up to a delimiter's first character, a line end or a quote. */
function lastPlain(text: string, i: number, d0: number, q: number): number {
  const n = text.length;
  while (i + 1 < n) {
    const next = text.charCodeAt(i + 1);
    if (next === d0 || next === CR || next === LF || next === q) break;
    i++;
  }
  return i;
}

/** The last of the characters inside quotes from `i` on: up to a quote, the escape or a line end. */
function lastQuoted(text: string, i: number, q: number): number {
  const n = text.length;
  while (i + 1 < n) {
    const next = text.charCodeAt(i + 1);
    if (next === q || next === ESCAPE || next === CR || next === LF) break;
    i++;
  }
  return i;
}
