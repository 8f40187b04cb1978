import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortedError, type AnswerEvent, PlatformError } from '../../src/api/index.ts';
import { platformClient } from '../helpers/platform-client.ts';
import { ok, sendJson, type TestServer, withServer } from '../helpers/with-server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function collect(stream: AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
  const events: AnswerEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('ask', () => {
  it('opens a session with GetSession, then asks (plain)', async () => {
    server = await withServer((req, res) =>
      req.url === '/chat/Chatbot/GetSession'
        ? sendJson(res, 200, ok({ SessionID: 77 }))
        : sendJson(
            res,
            200,
            ok({ messageid: 5, content: 'Three listings match.', totalToken: 12, noAnswer: false }),
          ),
    );
    const client = platformClient({ baseUrl: server.url, timeoutMs: 2000 });
    const answer = await client.ask({ serialNumber: 'bot-1', content: 'What is for sale?' });
    expect(answer).toMatchObject({ sessionID: 77, content: 'Three listings match.', messageid: 5 });
    expect(server.requests.map((r) => [r.path, r.body])).toEqual([
      ['/chat/Chatbot/GetSession', { serialNumber: 'bot-1' }],
      ['/chat/Chat/ClientAsk', { sessionID: 77, content: 'What is for sale?', stream: false }],
    ]);
  });

  it('streams pieces as they arrive, across chunk boundaries, then the final object', async () => {
    server = await withServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const part of [
        'data: {"content":"Hel',
        'lo"}\n\n',
        'data: {"content":" there"}\n\ndata: {"Question',
        'ID":1,"AnswerID":2,"Answer":"Hello there","TotalToken":9}\n\ndata: [DONE]\n\n',
      ]) {
        res.write(part);
        await sleep(10);
      }
      res.end();
    });
    const client = platformClient({ baseUrl: server.url, timeoutMs: 2000 });
    const events = await collect(client.askStream({ sessionID: 3, content: 'hi' }));
    expect(events).toEqual([
      { type: 'piece', content: 'Hello' },
      { type: 'piece', content: ' there' },
      { type: 'final', questionId: 1, answerId: 2, answer: 'Hello there', totalToken: 9 },
    ]);
    expect(server.requests[0]?.body).toEqual({ sessionID: 3, content: 'hi', stream: true });
  });

  it('reads an error envelope answered instead of a stream', async () => {
    server = await withServer((_req, res) =>
      sendJson(res, 200, { Success: false, Code: 401, Message: 'no key', Data: null }),
    );
    const client = platformClient({ baseUrl: server.url, timeoutMs: 2000 });
    await expect(collect(client.askStream({ sessionID: 3, content: 'hi' }))).rejects.toBeInstanceOf(
      PlatformError,
    );
  });

  it('fails a stream that ends without the final object', async () => {
    server = await withServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"content":"cut"}\n\n');
    });
    const client = platformClient({ baseUrl: server.url, timeoutMs: 2000 });
    await expect(collect(client.askStream({ sessionID: 3, content: 'hi' }))).rejects.toThrow(
      /without the final answer/,
    );
  });

  it('stops on abort', async () => {
    const controller = new AbortController();
    // The server never answers; the run is stopped once the request has reached it (no timer).
    server = await withServer(() => controller.abort());
    const client = platformClient({ baseUrl: server.url, timeoutMs: 5000, retries: 3 });
    await expect(
      client.listListings({ SerialNumber: 'x' }, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(AbortedError);
    expect(server.requests).toHaveLength(1);
  });
});
