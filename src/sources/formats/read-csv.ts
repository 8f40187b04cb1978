import { objectBuilder } from '../../normalize/index.ts';
import { FeedError } from '../feed-error.ts';
import type { CsvOptions } from '../source-schema.ts';
import type { RawRecord } from '../source-types.ts';
import { formatBytes } from '../transports/bounds.ts';
import { batchOf } from './batch.ts';
import { fitsHeader, Padding } from './csv-padding.ts';
import { countLineBreaks, headerNames, isBlankRecord, sniffDelimiter } from './csv-sniff.ts';
import { CsvTokens } from './csv-tokens.ts';
import { rejoin } from './rejoin.ts';

/** 8 MiB, like XML's: far beyond any real listing, far below a runaway field eating the memory. */
const DEFAULT_MAX_RECORD = 8 * 1024 * 1024;

/** The CSV options; `maxRecordBytes` defaults to 8 MiB. */
export type CsvReadOptions = Omit<CsvOptions, 'maxRecordBytes' | 'allowUnterminatedLastRow'> & {
  maxRecordBytes?: number;
  allowUnterminatedLastRow?: boolean;
  /** Told the header's column names once they are read, before the first record. */
  onHeader?: (names: readonly string[]) => void;
};

/**
 * CSV text → raw records keyed by header name, in batches (`batchOf`), streamed through `CsvTokens`
 * (csv-parse's reading, on the text). Skips `skipRows` noise lines, sniffs the delimiter from the
 * header line, and numbers each record by the file line it starts on, as a person counts: blank and
 * all-empty lines are counted here rather than skipped by the parser, and a quoted field spanning
 * lines moves the count on by its line breaks.
 */
export async function* readCsv(
  feedId: string,
  text: AsyncIterable<string>,
  options: CsvReadOptions = { skipRows: 0, quote: '"' },
): AsyncGenerator<RawRecord[]> {
  const maxRecord = options.maxRecordBytes ?? DEFAULT_MAX_RECORD;
  const tooLarge = (row: number) =>
    new FeedError(
      'E_FEED_PARSE',
      feedId,
      `row ${row}: a record is larger than csv.maxRecordBytes (${formatBytes(maxRecord)}); an unclosed quote?`,
    );
  const cut = (row: number) =>
    new FeedError(
      'E_FEED_PARSE',
      feedId,
      `the file ends in the middle of row ${row} (no line break after it): a download cut short or a file ` +
        'still being written? Nothing is synced. If the exporter writes no final line break, set ' +
        'source.csv.allowUnterminatedLastRow: true',
      { retryable: true },
    );
  const iterator = text[Symbol.asyncIterator]();
  // A line more than the header's: the line Excel writes before the header (`sep=;`) is read too.
  const { head, done } = await readHead(iterator, options.skipRows + 2, maxRecord * (options.skipRows + 2));
  if (head === undefined) throw tooLarge(1);
  const headLines = head.split(/\r\n|\r|\n/);
  // Excel's `sep=;` line names the delimiter and is no header: skipped, its delimiter used unless
  // the config names one.
  const declared = EXCEL_SEP.exec(headLines[options.skipRows] ?? '')?.[1];
  const skipRows = options.skipRows + (declared === undefined ? 0 : 1);
  const headerLine = headLines[skipRows] ?? '';
  const start = headerLine.trimStart()[0];
  if (start === '<' || start === '{' || start === '[') {
    throw new FeedError(
      'E_FEED_PARSE',
      feedId,
      `not CSV: the header line starts with "${start}" (HTML, XML or JSON?)`,
    );
  }
  const delimiter = options.delimiter ?? declared ?? sniffDelimiter(headerLine, options.quote);
  // Any line ending ends a record, even mixed in one file (a row pasted in with a bare LF into a
  // CRLF export). A quote never closed would otherwise swallow the rest of the file into one field,
  // in memory: `maxRecordBytes` stops it.
  const parser = new CsvTokens({
    delimiter,
    quote: options.quote,
    fromLine: skipRows + 1,
    maxRecordBytes: maxRecord,
  });
  let names: string[] | undefined;
  // Every column, unset: the rare rejected row's second reading starts as a copy of it.
  let columns: Readonly<Record<string, string | undefined>> = {};
  // A record is one object literal of every column (compiled from the header once): compact from
  // the start, where a record built key by key turns into a slow dictionary past ~18 columns. A
  // short row leaves the columns it lacks undefined.
  let build: (values: readonly string[]) => Record<string, string | undefined> = () => ({});
  let index = 0;
  let line = skipRows + 1;
  // Rows longer than the header with only empty cells beyond it: padding, or a row shifted by an
  // unquoted delimiter whose last values happen to be empty. The file's other rows tell which.
  const padding = new Padding();
  /** A row as a record, or rejected as not fitting the header (`note` says how, when it is known). */
  const asRecord = (record: string[], row: number, fields: RawRecord['fields'], note?: string): RawRecord => {
    const at = index++;
    if (note === undefined && fitsHeader(record, names!.length))
      // A row of the header's width: its values are its fields' (a padded row's are not).
      return record.length === names!.length
        ? { row, index: at, fields, values: record, names: names! }
        : { row, index: at, fields };
    // Shifted or missing values would land in the wrong fields: the row is rejected and the others
    // go on. Its key holds its listing only when both readings below agree on it.
    const message =
      note ??
      `has ${record.length} field${record.length === 1 ? '' : 's'}, the header has ${names!.length} (an unquoted delimiter in a value, or a row cut short?)`;
    // Where the fields moved is unknown: read the row from its right end too; a key column both
    // readings agree on is before or after the shift, and so is the key.
    const alternate: Record<string, string | undefined> = { ...columns };
    const shift = record.length - names!.length;
    for (let i = 0; i < names!.length; i++) alternate[names![i]!] = record[i + shift];
    const shape = shift > 0 ? ('shifted' as const) : ('cut' as const);
    // Its cells in order too: a listing it holds is explained with the row as it was (`explain`).
    const problem = { reason: 'column_count', message, alternate, shape, values: record };
    return { row, index: at, fields, problem };
  };
  const toRecord = (record: string[], multiline: boolean): RawRecord | RawRecord[] | undefined => {
    const row = line;
    line += multiline ? 1 + countLineBreaks(record) : 1;
    if (isBlankRecord(record)) return undefined;
    if (!names) {
      names = headerNames(record);
      if (names.length === 0)
        throw new FeedError('E_FEED_PARSE', feedId, 'not CSV: the header line is empty');
      columns = Object.fromEntries(names.map((name) => [name, undefined]));
      build = objectBuilder(names) as typeof build;
      padding.header(record.length, names.length);
      options.onHeader?.(names);
      return undefined;
    }
    const fields = build(record);
    const out: RawRecord[] = [];
    const held = padding.pending;
    const verdict = padding.judge(record);
    // A held row is decided by the row after it: padded like it, or not.
    if (held) out.push(asRecord(held.record, held.row, held.fields, verdict.heldNote));
    if (verdict.kind === 'hold') {
      padding.pending = { record, row, fields };
      return out;
    }
    out.push(asRecord(record, row, fields, verdict.note));
    return out.length === 1 ? out[0] : out;
  };
  // Whether the text seen so far ends with a line break: a last row without one is a cut file.
  let endsWithBreak = true;
  try {
    for await (const chunk of firstRecordsSoon(rejoin(head, done, iterator))) {
      if (chunk.length > 0) endsWithBreak = chunk.endsWith('\n') || chunk.endsWith('\r');
      // The records read before an error first: they are good, and they move the row count on.
      // A held row comes out with the row after it (two records for one): rare, flattened then.
      for (const batch of batchOf(parser.write(chunk), (record) => toRecord(record, parser.multiline)))
        yield batch.some(Array.isArray) ? batch.flat() : (batch as RawRecord[]);
      if (parser.error) throw parser.error;
    }
    const last: RawRecord[] = [];
    for (const record of parser.end()) {
      // Only the record the end of the text completed comes out here.
      const row = line;
      const isRow = names !== undefined && !isBlankRecord(record);
      const raw = toRecord(record, parser.multiline);
      if (isRow && !endsWithBreak && !options.allowUnterminatedLastRow) throw cut(row);
      if (raw) last.push(...[raw].flat());
    }
    // A padded row nothing came after: nothing contradicts its padding.
    const held = padding.pending;
    if (held) last.push(asRecord(held.record, held.row, held.fields));
    if (last.length > 0) yield last;
    if (parser.error) throw parser.error;
  } catch (error) {
    if (error instanceof FeedError || (error as Error).name === 'AbortError') throw error;
    if ((error as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') throw tooLarge(line);
    // The text ended inside quotes: the same news as a row cut short, said so (a tester got the
    // tokenizer's `Quote Not Closed`).
    if ((error as { code?: string }).code === 'CSV_QUOTE_NOT_CLOSED')
      throw new FeedError(
        'E_FEED_PARSE',
        feedId,
        `the file ends inside a quoted field of row ${line} (its quote never closes): a download cut short, or a quote in that row not doubled? Nothing is synced`,
        { cause: error, retryable: true },
      );
    throw new FeedError('E_FEED_PARSE', feedId, `not valid CSV: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * The text with its first chunk cut in two: its first `FIRST_PIECE` characters, then the rest. The
 * tokenizer reads across any cut (a record cut in two waits for the rest), and a run's first records
 * then come out after a few of them are read, not after the whole first chunk (~270 rows of 64 KB,
 * read by code not yet optimized): the platform's pages, asked for at the feed's first records
 * (prepare-run.ts), go out that much sooner.
 */
async function* firstRecordsSoon(text: AsyncIterable<string>): AsyncGenerator<string> {
  let first = true;
  for await (const chunk of text) {
    if (first && chunk.length > 2 * FIRST_PIECE) {
      yield chunk.slice(0, FIRST_PIECE);
      yield chunk.slice(FIRST_PIECE);
    } else yield chunk;
    first = false;
  }
}

/** The line Excel writes above a CSV's header to name its delimiter: `sep=;`, `sep=,`, `sep=|`. */
const EXCEL_SEP = /^\uFEFF?sep=([^\r\n" ])\s*$/i;

/** The first piece of a CSV's text (characters): a few dozen rows of a usual feed. */
const FIRST_PIECE = 4096;

/**
 * Read text until it holds `lines` complete lines (or the end), to find and sniff the header.
 * `head` is undefined when more than `max` characters hold fewer lines: no header is that long.
 */
async function readHead(
  iterator: AsyncIterator<string>,
  lines: number,
  max: number,
): Promise<{ head: string | undefined; done: boolean }> {
  let head = '';
  while (countLines(head) < lines) {
    if (head.length > max) return { head: undefined, done: false };
    const next = await iterator.next();
    if (next.done) return { head, done: true };
    head += next.value;
  }
  return { head, done: false };
}

/** Complete lines in `text`: `\n` and `\r\n` end a line, and so does a lone `\r` (classic Mac files). */
function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) if (text[i + 1] !== '\n') count++;
  return count;
}
