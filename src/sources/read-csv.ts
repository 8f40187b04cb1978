import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { countNewlines, headerNames, sniffDelimiter } from './csv-sniff.ts';
import { FeedError } from './feed-error.ts';
import type { CsvOptions } from './source-schema.ts';
import type { RawRecord } from './types.ts';

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/**
 * CSV text → raw records keyed by header name, streamed through csv-parse. Skips `skipRows` noise
 * lines, sniffs the delimiter from the header line, and numbers each record by the file line it
 * starts on, as a person counts.
 */
export async function* readCsv(
  feedId: string,
  text: AsyncIterable<string>,
  options: CsvOptions = { skipRows: 0, quote: '"' },
): AsyncGenerator<RawRecord> {
  const iterator = text[Symbol.asyncIterator]();
  const { head, done } = await readHead(iterator, options.skipRows + 1);
  const headerLine = head.split(/\r?\n/)[options.skipRows] ?? '';
  const start = headerLine.trimStart()[0];
  if (start === '<' || start === '{' || start === '[') {
    throw new FeedError(
      'E_FEED_PARSE',
      feedId,
      `not CSV: the header line starts with "${start}" (HTML, XML or JSON?)`,
    );
  }
  const delimiter = options.delimiter ?? sniffDelimiter(headerLine, options.quote);
  const parser = parse({
    delimiter,
    quote: options.quote,
    from_line: options.skipRows + 1,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    info: true,
  });
  const source = Readable.from(
    (async function* () {
      if (head) yield head;
      if (!done)
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    })(),
  );
  const piping = pipeline(source, parser).catch(() => {});
  let names: string[] | undefined;
  let index = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<CsvRecord>) {
      if (!names) {
        names = headerNames(record);
        if (names.length === 0)
          throw new FeedError('E_FEED_PARSE', feedId, 'not CSV: the header line is empty');
        continue;
      }
      const fields: Record<string, string> = {};
      for (let i = 0; i < names.length; i++) {
        const value = record[i];
        if (value !== undefined) fields[names[i]!] = value;
      }
      yield { row: info.lines - countNewlines(record), index: index++, fields };
    }
  } catch (error) {
    if (error instanceof FeedError || (error as Error).name === 'AbortError') throw error;
    throw new FeedError('E_FEED_PARSE', feedId, `not valid CSV: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    parser.destroy();
    await piping;
  }
}

/** Read text until it holds `lines` complete lines (or the end), to find and sniff the header. */
async function readHead(
  iterator: AsyncIterator<string>,
  lines: number,
): Promise<{ head: string; done: boolean }> {
  let head = '';
  while (countLines(head) < lines) {
    const next = await iterator.next();
    if (next.done) return { head, done: true };
    head += next.value;
  }
  return { head, done: false };
}

function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
