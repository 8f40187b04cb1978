import { describe, expect, it } from 'vitest';
import { headerNames, sniffDelimiter } from '../../src/sources/csv-sniff.ts';
import { decodeText } from '../../src/sources/decode-text.ts';
import { readCsv } from '../../src/sources/read-csv.ts';

async function* chunks(...parts: (string | number[])[]): AsyncGenerator<Uint8Array> {
  for (const part of parts)
    yield typeof part === 'string' ? Buffer.from(part, 'utf8') : Uint8Array.from(part);
}

async function text(
  source: AsyncIterable<Uint8Array>,
  encoding?: Parameters<typeof decodeText>[1],
): Promise<{ text: string; fallbacks: number }> {
  let fallbacks = 0;
  let out = '';
  for await (const chunk of decodeText(source, encoding, () => fallbacks++)) out += chunk;
  return { text: out, fallbacks };
}

describe('decodeText', () => {
  it('strips a UTF-8 BOM and keeps a character split across chunks whole', async () => {
    const nTilde = [...Buffer.from('ñ')];
    expect(await text(chunks([0xef, 0xbb, 0xbf], 'Ba', [nTilde[0]!], [nTilde[1]!, 0x6f, 0x73]))).toEqual({
      text: 'Baños',
      fallbacks: 0,
    });
  });

  it('switches to Windows-1252 once, when the bytes are not UTF-8 (auto)', async () => {
    // "Málaga;m²;€" in Windows-1252.
    const cp1252 = [0x4d, 0xe1, 0x6c, 0x61, 0x67, 0x61, 0x3b, 0x6d, 0xb2, 0x3b, 0x80];
    expect(await text(chunks('ok;', cp1252))).toEqual({ text: 'ok;Málaga;m²;€', fallbacks: 1 });
  });

  // latin1 is read as Windows-1252, as browsers do (WHATWG): files labelled Latin-1 hold € at 0x80.
  it.each(['windows-1252', 'latin1'] as const)('reads %s when configured', async (encoding) => {
    expect(await text(chunks([0x42, 0x61, 0xf1, 0x80, 0x6f, 0x73]), encoding)).toEqual({
      text: 'Bañ€os',
      fallbacks: 0,
    });
  });

  it('fails on invalid bytes when utf-8 is configured', async () => {
    await expect(text(chunks([0x42, 0xe1, 0x42]), 'utf-8')).rejects.toThrow();
  });
});

describe('CSV header and delimiter', () => {
  it.each([
    ['MLS #,Beds,Baths', ','],
    ['MLS #;Beds;Baths', ';'],
    ['MLS #\tBeds\tBaths', '\t'],
    ['MLS #|Beds|Baths', '|'],
    ['"Price, USD";Beds;Baths', ';'],
    ['Single', ','],
  ])('%j → %j', (header, delimiter) => expect(sniffDelimiter(header)).toBe(delimiter));

  it('names duplicate and empty columns, drops trailing empty ones', () => {
    expect(headerNames([' MLS # ', 'Agent', '', 'Agent', '', ''])).toEqual([
      'MLS #',
      'Agent',
      'Column 3',
      'Agent (2)',
    ]);
  });

  it('uses the configured delimiter over the sniffed one', async () => {
    const source = (async function* () {
      yield 'a;b,c\n1;2,3\n';
    })();
    const records: unknown[] = [];
    for await (const record of readCsv('cfg', source, { delimiter: ',', skipRows: 0, quote: '"' }))
      records.push(record.fields);
    expect(records).toEqual([{ 'a;b': '1;2', c: '3' }]);
  });
});
