import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { indented, jsonPieces, jsonValuePieces, type StreamedArray, writePieces } from './json-stream.ts';

const streamed = (items: unknown[]): StreamedArray & { reads: number } => {
  const array = {
    reads: 0,
    *[Symbol.iterator]() {
      for (const item of items) {
        array.reads++;
        yield item;
      }
    },
  };
  return array;
};

describe('jsonPieces', () => {
  it('prints the text JSON.stringify(…, null, 2) prints, each streamed array in place', () => {
    const listings = [
      { MLSNumber: 'A-1', Images: ['x', 'y'], ExtensionColumn: [{ Key: 'k', value: 'line\nbreak' }] },
      { MLSNumber: 'A-2', Images: [] },
    ];
    const a = streamed(listings);
    const b = streamed([]);
    const c = streamed([1, [2, 3], null]);
    const document = {
      feeds: [
        { feedId: 'one', ok: true, result: { listings: a, stats: { records: 2 } } },
        { feedId: 'two', ok: true, result: { listings: b } },
        { feedId: 'three', nested: [c, 'after'] },
      ],
      notes: ['n'],
    };
    const inline = {
      feeds: [
        { feedId: 'one', ok: true, result: { listings, stats: { records: 2 } } },
        { feedId: 'two', ok: true, result: { listings: [] } },
        { feedId: 'three', nested: [[1, [2, 3], null], 'after'] },
      ],
      notes: ['n'],
    };
    const text = [...jsonPieces(document, [a, b, c])].join('');
    expect(text).toBe(`${JSON.stringify(inline, null, 2)}\n`);
    expect(a.reads).toBe(2);
  });

  it('takes no value of the document for a streamed array, even one spelled like its placeholder', () => {
    const a = streamed([{ k: 1 }]);
    const document = { cells: ['\u0000streamed array 0', '\u0000'], listings: a };
    const text = [...jsonPieces(document, [a])].join('');
    expect(JSON.parse(text)).toEqual({ cells: ['\u0000streamed array 0', '\u0000'], listings: [{ k: 1 }] });
  });

  it('refuses a streamed array it cannot place once, rather than print other JSON', () => {
    const a = streamed([1]);
    const dated = { toJSON: () => ({ inner: a }) };
    expect(() => [...jsonPieces({ dated }, [a])]).toThrow(/each streamed array must be in the document once/);
    expect(() => [...jsonPieces({ one: a, two: a }, [a])]).toThrow(/found 2 of 1/);
  });

  it('reads the elements one at a time, as they are printed', () => {
    const a = streamed(Array.from({ length: 5 }, (_, i) => ({ i })));
    const pieces = jsonPieces({ listings: a }, [a]);
    // The text before the array, then one element a piece.
    for (let i = 0; i < 3; i++) pieces.next();
    expect(a.reads).toBe(2);
  });
});

describe('jsonValuePieces', () => {
  it('prints a part of a document nested at an indent, the rest printed later', () => {
    const a = streamed([{ k: [1, 2] }, 'two']);
    const part = [...jsonValuePieces({ creates: a, n: 1 }, [a], '  ')].join('');
    const whole = `{\n  "plan": ${part},\n  "report": ${indented(JSON.stringify({ ok: true }, null, 2), '  ')}\n}`;
    expect(whole).toBe(
      JSON.stringify({ plan: { creates: [{ k: [1, 2] }, 'two'], n: 1 }, report: { ok: true } }, null, 2),
    );
  });
});

describe('writePieces', () => {
  it('waits for a slow reader instead of buffering the whole text', async () => {
    const out = new PassThrough({ highWaterMark: 1024 });
    let made = 0;
    function* pieces() {
      for (let i = 0; i < 2000; i++) {
        made++;
        yield `${'x'.repeat(1000)}\n`;
      }
    }
    const writing = writePieces(out, pieces());
    await new Promise((r) => setTimeout(r, 20));
    // Nothing read yet: the writer stopped at the stream's first refusal, not after 2 MB.
    expect(made).toBeLessThan(200);
    let read = 0;
    out.on('data', (chunk: Buffer) => {
      read += chunk.length;
    });
    await writing;
    out.end();
    await new Promise((r) => out.on('end', r));
    expect(made).toBe(2000);
    expect(read).toBe(2000 * 1001);
  });
});
