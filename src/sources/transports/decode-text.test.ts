import { describe, expect, it } from 'vitest';
import { decodeText } from './decode-text.ts';

async function* chunks(...parts: (string | number[])[]): AsyncGenerator<Uint8Array> {
  for (const part of parts)
    yield typeof part === 'string' ? Buffer.from(part, 'utf8') : Uint8Array.from(part);
}

async function text(
  source: AsyncIterable<Uint8Array>,
  encoding?: Parameters<typeof decodeText>[1],
): Promise<{ text: string; fallbacks: number; lines: number[] }> {
  const lines: number[] = [];
  let out = '';
  for await (const chunk of decodeText(source, encoding, (line) => lines.push(line))) out += chunk;
  return { text: out, fallbacks: lines.length, lines };
}

describe('decodeText', () => {
  it('strips a UTF-8 BOM and keeps a character split across chunks whole', async () => {
    const nTilde = [...Buffer.from('ñ')];
    expect(await text(chunks([0xef, 0xbb, 0xbf], 'Ba', [nTilde[0]!], [nTilde[1]!, 0x6f, 0x73]))).toEqual({
      text: 'Baños',
      fallbacks: 0,
      lines: [],
    });
  });

  it('reads a line that is not UTF-8 as Windows-1252 (auto), and only that line', async () => {
    // "Málaga;m²;€" in Windows-1252, between UTF-8 lines.
    const cp1252 = [0x4d, 0xe1, 0x6c, 0x61, 0x67, 0x61, 0x3b, 0x6d, 0xb2, 0x3b, 0x80];
    expect(await text(chunks('ok;', cp1252))).toEqual({ text: 'ok;Málaga;m²;€', fallbacks: 1, lines: [1] });
    expect(await text(chunks('Baños\r\nok;', cp1252, '\r\nCafé\rMálaga\n'))).toEqual({
      text: 'Baños\r\nok;Málaga;m²;€\r\nCafé\rMálaga\n',
      fallbacks: 1,
      lines: [2],
    });
  });

  it('numbers lines as a person counts them, whatever the chunking', async () => {
    // Lines 3 and 6 hold a stray 0xE9; \r\n, \n and a lone \r each end one line.
    const bytes = Buffer.concat([
      Buffer.from('a,é\r\nb,ñ\n'),
      Buffer.from([0x63, 0x2c, 0xe9, 0x0d, 0x0a]),
      Buffer.from('d,ü\re,€\r\n'),
      Buffer.from([0x66, 0xe9, 0x0a]),
      Buffer.from('g,日本\n'),
    ]);
    const expected = 'a,é\r\nb,ñ\nc,é\r\nd,ü\re,€\r\nfé\ng,日本\n';
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const pieces: number[][] = [];
      for (let i = 0; i < bytes.length; i += size) pieces.push([...bytes.subarray(i, i + size)]);
      expect(await text(chunks(...pieces)), `chunks of ${size}`).toEqual({
        text: expected,
        fallbacks: 2,
        lines: [3, 6],
      });
    }
  });

  // latin1 is read as Windows-1252, as browsers do (WHATWG): files labelled Latin-1 hold € at 0x80.
  it.each(['windows-1252', 'latin1'] as const)('reads %s when configured', async (encoding) => {
    expect(await text(chunks([0x42, 0x61, 0xf1, 0x80, 0x6f, 0x73]), encoding)).toEqual({
      text: 'Bañ€os',
      fallbacks: 0,
      lines: [],
    });
  });

  it('fails on invalid bytes when utf-8 is configured', async () => {
    await expect(text(chunks([0x42, 0xe1, 0x42]), 'utf-8')).rejects.toThrow();
  });
});
