import { describe, expect, it } from 'vitest';
import { PATHS } from '../../src/api/schemas.ts';
import type { Sandbox, StreamFraming } from '../../src/sandbox/index.ts';
import { listing } from '../../src/testing/listing.ts';
import { BOT, call, sandboxFor } from './helpers.ts';

/** Ask with stream: true and keep the body as the chunks that arrived. */
async function askStream(sandbox: Sandbox, content: string) {
  const { SessionID } = (await call(sandbox, 'session', { serialNumber: BOT })).Data as { SessionID: number };
  const response = await fetch(sandbox.url + PATHS.ask, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ sessionID: SessionID, content, stream: true }),
  });
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of response.body ?? []) chunks.push(decoder.decode(chunk, { stream: true }));
  return { response, chunks, body: chunks.join('') };
}

const answerText = 'Sandbox answer to "Which homes have a pool?": this chatbot has 2 listings.';

describe.each(['sse', 'ndjson'] as StreamFraming[])('ClientAsk stream, %s framing', (framing) => {
  it('sends several pieces in several chunks, then the final object', async () => {
    const sandbox = await sandboxFor({ streamFraming: framing });
    sandbox.seed(BOT, [listing(1), listing(2)]);
    const { response, chunks, body } = await askStream(sandbox, 'Which homes have a pool?');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(chunks.length).toBeGreaterThan(1);

    const lines = body.split('\n').filter((line) => line !== '');
    const payloads =
      framing === 'sse'
        ? lines.map((line) => {
            expect(line.startsWith('data: ')).toBe(true);
            return line.slice('data: '.length);
          })
        : lines;
    if (framing === 'sse') {
      expect(payloads.at(-1)).toBe('[DONE]');
      expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
      payloads.pop();
    } else {
      expect(body).not.toContain('[DONE]');
    }
    const objects = payloads.map((payload) => JSON.parse(payload) as Record<string, unknown>);
    const final = objects.pop();
    expect(objects.length).toBeGreaterThan(1);
    expect(objects.every((o) => Object.keys(o).join() === 'content')).toBe(true);
    expect(objects.map((o) => o.content).join('')).toBe(answerText);
    expect(final).toEqual({
      QuestionID: expect.any(Number),
      AnswerID: expect.any(Number),
      Answer: answerText,
      TotalToken: expect.any(Number),
    });
  });
});

describe('ClientAsk stream errors', () => {
  it('answers an unknown session with the JSON envelope, not a stream', async () => {
    const sandbox = await sandboxFor();
    const response = await fetch(sandbox.url + PATHS.ask, {
      method: 'POST',
      body: JSON.stringify({ sessionID: 99, content: 'hi', stream: true }),
    });
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject({ Success: false, Code: 400 });
  });
});
