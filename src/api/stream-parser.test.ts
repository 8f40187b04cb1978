import { readFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { describe, expect, it } from 'vitest';
import { type AnswerEvent, AnswerStreamParser } from './stream-parser.ts';

const recorded = (name: string) => readFileSync(new URL(`../../test/api/recorded/${name}`, import.meta.url));

/** Feed bytes in fixed-size chunks, as a socket would, splitting UTF-8 sequences too. */
function parseInChunks(bytes: Buffer, size: number): AnswerEvent[] {
  const parser = new AnswerStreamParser();
  const decoder = new StringDecoder('utf8');
  const events: AnswerEvent[] = [];
  for (let i = 0; i < bytes.length; i += size)
    events.push(...parser.push(decoder.write(bytes.subarray(i, i + size))));
  events.push(...parser.push(decoder.end()), ...parser.end());
  return events;
}

const expected: AnswerEvent[] = [
  { type: 'piece', content: 'Hello' },
  { type: 'piece', content: ', wor' },
  { type: 'piece', content: 'ld — ünïcode' },
  { type: 'final', questionId: 11, answerId: 12, answer: 'Hello, world — ünïcode', totalToken: 42 },
];

describe('AnswerStreamParser', () => {
  for (const file of ['sse.txt', 'ndjson.txt', 'concatenated.txt']) {
    for (const size of [1, 7, 4096]) {
      it(`reads ${file} in chunks of ${size} bytes`, () => {
        expect(parseInChunks(recorded(file), size)).toEqual(expected);
      });
    }
  }

  it('ignores blank lines, comments, [DONE] and garbage', () => {
    const parser = new AnswerStreamParser();
    const events = [
      ...parser.push('\n\n: ping\nretry: 100\nnot json at all\ndata: [DONE]\n'),
      ...parser.end(),
    ];
    expect(events).toEqual([]);
  });

  it('keeps braces and quotes inside strings intact', () => {
    const parser = new AnswerStreamParser();
    const events = parser.push('data: {"content":"a } { \\" b"}\n');
    expect(events).toEqual([{ type: 'piece', content: 'a } { " b' }]);
  });

  it('turns an error envelope in the stream into an error event', () => {
    const parser = new AnswerStreamParser();
    const events = parser.push('{"Success":false,"Code":401,"Message":"bad key","Data":null}\n');
    expect(events).toEqual([{ type: 'error', code: 401, message: 'bad key' }]);
  });

  it('unwraps a final answer inside an envelope', () => {
    const parser = new AnswerStreamParser();
    const events = parser.push('{"Success":true,"Code":200,"Data":{"Answer":"x","AnswerID":3}}\n');
    expect(events).toEqual([{ type: 'final', answer: 'x', answerId: 3 }]);
  });

  it('flushes a last line without a newline at the end', () => {
    const parser = new AnswerStreamParser();
    expect(parser.push('{"content":"a"}\n{"Answer":"a"')).toEqual([{ type: 'piece', content: 'a' }]);
    expect(parser.push('}')).toEqual([]);
    expect(parser.end()).toEqual([{ type: 'final', answer: 'a' }]);
  });
});
