import { Parser } from 'csv-parse';
import { describe, expect, it } from 'vitest';
import { isFeedSyncError } from '../../errors.ts';
import { type CsvTokenOptions, CsvTokens } from './csv-tokens.ts';

type Outcome = { records: string[][]; error?: { code: string; message?: string } };

/** csv-parse with read-csv's options, fed the text's bytes in pieces at `cuts`: the definition. */
function byCsvParse(text: string, options: CsvTokenOptions, cuts: number[]): Outcome {
  const parser = new Parser({
    delimiter: options.delimiter,
    quote: options.quote,
    from_line: options.fromLine,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: true,
    max_record_size: options.maxRecordBytes,
  });
  const api = (parser as unknown as { api: CsvParseApi }).api;
  const records: string[][] = [];
  const push = (record: string[]) => void records.push(record);
  const bytes = Buffer.from(text);
  let from = 0;
  for (const cut of [...cuts.map((c) => Math.min(c, bytes.length)), bytes.length]) {
    if (cut <= from) continue;
    const error = api.parse(bytes.subarray(from, cut), false, push, () => {});
    if (error) return { records, error: { code: error.code, message: error.message } };
    from = cut;
  }
  const error = api.parse(undefined, true, push, () => {});
  return error ? { records, error: { code: error.code, message: error.message } } : { records };
}

interface CsvParseApi {
  parse(
    buf: Buffer | undefined,
    end: boolean,
    push: (record: string[]) => void,
    close: () => void,
  ): (Error & { code: string }) | undefined;
}

/** The tokenizer fed the text in pieces at `cuts` (characters). */
function byTokens(text: string, options: CsvTokenOptions, cuts: number[]): Outcome {
  const tokens = new CsvTokens(options);
  const records: string[][] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    if (cut <= from) continue;
    records.push(...tokens.write(text.slice(from, cut)));
    from = cut;
    if (tokens.error) break;
  }
  if (!tokens.error) records.push(...tokens.end());
  const { error } = tokens;
  return error ? { records, error: { code: error.code, message: error.message } } : { records };
}

/** A small deterministic generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  'a',
  'bc',
  ' ',
  ',',
  ';',
  '|',
  '\t',
  '"',
  "'",
  '""',
  '\r',
  '\n',
  '\r\n',
  '\0',
  'é',
  '€',
  '😀',
];

function outcomeOf(expected: Outcome): Outcome {
  // csv-parse's messages for a record too large name its own line count; read-csv replaces them.
  if (expected.error?.code === 'CSV_MAX_RECORD_SIZE')
    return { ...expected, error: { code: expected.error.code } };
  return expected;
}

describe('CsvTokens reads text as csv-parse does', () => {
  it('agrees on generated text, options and chunkings', () => {
    const next = random(13);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
    for (let run = 0; run < 4000; run++) {
      let text = '';
      const length = Math.floor(next() * 60);
      for (let i = 0; i < length; i++) text += pick(PIECES);
      const options: CsvTokenOptions = {
        delimiter: pick([',', ',', ';', '\t', '|', '||', ';;;;']),
        quote: pick(['"', '"', '"', "'"]),
        fromLine: pick([1, 1, 1, 2, 3]),
        maxRecordBytes: pick([8 * 1024 * 1024, 5, 9, 16, 30]),
        // A long unfinished record waits for more text before it is read again: from any length.
        rereadAt: pick([undefined, 0, 1, 4, 12]),
      };
      const byteCuts = Array.from({ length: pick([0, 1, 3, 8]) }, () =>
        Math.floor(next() * (text.length + 4)),
      );
      byteCuts.sort((a, b) => a - b);
      const charCuts = Array.from({ length: pick([0, 1, 3, 8]) }, () =>
        Math.floor(next() * (text.length + 1)),
      );
      charCuts.sort((a, b) => a - b);
      const expected = outcomeOf(byCsvParse(text, options, byteCuts));
      const actual = outcomeOf(byTokens(text, options, charCuts));
      // The case in the message, to reproduce a failure.
      expect(actual, JSON.stringify({ text, options, byteCuts, charCuts })).toEqual(expected);
    }
  });

  it('says which records hold a line break in a field', () => {
    const tokens = new CsvTokens({ delimiter: ',', quote: '"', fromLine: 1, maxRecordBytes: 1000 });
    expect(tokens.write('a,b\nc,d\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(tokens.multiline).toBe(false);
    expect(tokens.write('"e\nf",g\n')).toEqual([['e\nf', 'g']]);
    expect(tokens.multiline).toBe(true);
  });

  it("fails a read with a FeedSyncError of kind FEED_PARSE and csv-parse's code", () => {
    const tokens = new CsvTokens({ delimiter: ',', quote: '"', fromLine: 1, maxRecordBytes: 1000 });
    tokens.write('a,b\n"c,d\n');
    tokens.end();
    expect(isFeedSyncError(tokens.error)).toBe(true);
    expect(tokens.error).toMatchObject({
      name: 'CsvTokenError',
      kind: 'FEED_PARSE',
      code: 'CSV_QUOTE_NOT_CLOSED',
    });
  });
});
